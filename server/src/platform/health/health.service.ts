import type { Redis } from 'ioredis';
import type { Health, Readiness } from '@duelkit/contract';
import type { Orm } from '../db/orm.js';
import { systemClock, type Clock } from '../clock.js';

type Check = Readiness['checks'][string];

/** A dependency readiness looks at, e.g. the chain node once markets run on chain. */
export type ReadinessProbe = () => Promise<void>;

interface Probe {
  readonly run: ReadinessProbe | null;
  /** Critical: the instance cannot serve without it. Otherwise a fallback or a partial service remains. */
  readonly critical: boolean;
}

async function timed(probe: Probe, timeoutMs: number): Promise<Check> {
  if (!probe.run) return { status: 'not_configured', critical: probe.critical };
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe.run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', critical: probe.critical, latencyMs: Math.round(performance.now() - started) };
  } catch (err) {
    return {
      status: 'down',
      critical: probe.critical,
      error: err instanceof Error ? err.message.slice(0, 200) : 'unavailable',
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness and readiness of this process. Readiness says what this instance can serve: a load
 * balancer pulls it only when a critical dependency is down. Redis has in-memory fallbacks, so
 * without it the instance is degraded, not unready — and since every instance shares the same
 * Redis, pulling them would turn a partial outage into a full one.
 */
export class HealthService {
  private readonly startedAt: number;
  private readonly probes = new Map<string, Probe>();

  constructor(
    orm: Orm,
    redis: Redis | undefined,
    private readonly timeoutMs = 2_000,
    // Uptime and the probe's timestamp describe this process: wall-clock time.
    private readonly clock: Clock = systemClock,
  ) {
    this.startedAt = clock.now();
    this.addProbe(
      'postgres',
      async () => {
        await orm.em.fork().getConnection().execute('select 1');
      },
      { critical: true },
    );
    this.addProbe(
      'redis',
      redis
        ? async () => {
            await redis.ping();
          }
        : null,
      { critical: false },
    );
  }

  /** Adds a dependency to readiness (null: known but not configured). */
  addProbe(name: string, probe: ReadinessProbe | null, options: { critical: boolean }): void {
    this.probes.set(name, { run: probe, critical: options.critical });
  }

  liveness(service: string): Health {
    return {
      status: 'ok',
      service,
      uptimeSeconds: Math.floor((this.clock.now() - this.startedAt) / 1000),
      time: new Date(this.clock.now()).toISOString(),
    };
  }

  async readiness(): Promise<Readiness> {
    const entries = await Promise.all(
      [...this.probes].map(async ([name, probe]): Promise<[string, Check]> => [
        name,
        await timed(probe, this.timeoutMs),
      ]),
    );
    const down = entries.filter(([, c]) => c.status === 'down').map(([, c]) => c);
    const status = down.some((c) => c.critical) ? 'not_ready' : down.length ? 'degraded' : 'ready';
    return { status, checks: Object.fromEntries(entries), time: new Date(this.clock.now()).toISOString() };
  }
}
