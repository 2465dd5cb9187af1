import type { Redis } from 'ioredis';
import type { Health, Readiness } from '@duelkit/contract';
import type { Orm } from '../db/orm.js';

type Check = Readiness['checks'][string];

/** A dependency readiness looks at, e.g. the chain node once markets run on chain. */
export type ReadinessProbe = () => Promise<void>;

async function timed(probe: ReadinessProbe, timeoutMs: number): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started) };
  } catch (err) {
    return { status: 'down', error: err instanceof Error ? err.message.slice(0, 200) : 'unavailable' };
  } finally {
    clearTimeout(timer);
  }
}

/** Liveness and readiness of this process. */
export class HealthService {
  private readonly startedAt = Date.now();
  private readonly probes = new Map<string, ReadinessProbe | null>();

  constructor(
    orm: Orm,
    redis: Redis | undefined,
    private readonly timeoutMs = 2_000,
  ) {
    this.probes.set('postgres', async () => {
      await orm.em.fork().getConnection().execute('select 1');
    });
    this.probes.set(
      'redis',
      redis
        ? async () => {
            await redis.ping();
          }
        : null,
    );
  }

  /** Adds a dependency to readiness (null: known but not configured). */
  addProbe(name: string, probe: ReadinessProbe | null): void {
    this.probes.set(name, probe);
  }

  liveness(service: string): Health {
    return {
      status: 'ok',
      service,
      uptimeSeconds: Math.floor((Date.now() - this.startedAt) / 1000),
      time: new Date().toISOString(),
    };
  }

  async readiness(): Promise<Readiness> {
    const entries = await Promise.all(
      [...this.probes].map(async ([name, probe]): Promise<[string, Check]> => [
        name,
        probe ? await timed(probe, this.timeoutMs) : { status: 'not_configured' },
      ]),
    );
    const checks = Object.fromEntries(entries);
    const ready = entries.every(([, c]) => c.status !== 'down');
    return { status: ready ? 'ready' : 'not_ready', checks, time: new Date().toISOString() };
  }
}
