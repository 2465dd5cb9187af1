import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initOrm, type Orm } from '../db/orm.js';
import { entities } from '../../entities.js';
import { createLogger } from '../../logger.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { spawnReady } from '../../../test/support/processes.js';
import { JobEngine, SCHEDULED_KEPT } from './job-engine.js';
import { Lease } from './lease.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
/** This run's keys only: parallel runs on the same Redis never see each other's queues. */
const PREFIX = `{duelkit-test-${randomBytes(4).toString('hex')}}`;
const logger = createLogger('silent');

let db: TestDatabase;
let orm: Orm;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(entities, db.url, 3, false);
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 500);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** How each backend's engines start, in this process or in a worker's (which has its own logger). */
type EngineSettings =
  { backend: 'redis'; redisUrl: string; prefix: string } | { databaseUrl: string; poolMax: number; embedded: boolean };

const backends: [string, () => EngineSettings][] = [
  ['PostgreSQL', () => ({ databaseUrl: db.url, poolMax: 8, embedded: false })],
  ['Redis', () => ({ backend: 'redis', redisUrl: REDIS_URL, prefix: PREFIX })],
];

describe.each(backends)('JobEngine on %s', (_name, settings) => {
  const engines: JobEngine[] = [];
  let engine: JobEngine;
  const start = async () => {
    const started = await JobEngine.start({ ...settings(), logger });
    engines.push(started);
    return started;
  };
  beforeAll(async () => {
    engine = await start();
  });
  afterAll(async () => {
    await Promise.all(engines.map((e) => e.close()));
  });

  it('runs a job once per jobId even when it is added twice', async () => {
    const seen: string[] = [];
    engine.work<{ n: string }>({ queue: 'once', handler: async (data) => void seen.push(data.n) });
    await engine.add('once', 'x', { n: 'a' }, { jobId: 'job-a' });
    await engine.add('once', 'x', { n: 'a' }, { jobId: 'job-a' });
    await engine.add('once', 'x', { n: 'b' }, { jobId: 'job-b' });
    await until(() => seen.length >= 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.sort()).toEqual(['a', 'b']);
  });

  it('retries a failing job until it succeeds', async () => {
    let attempts = 0;
    engine.work<object>({
      queue: 'flaky',
      handler: async () => {
        attempts += 1;
        if (attempts < 2) throw new Error('transient');
      },
    });
    await engine.add('flaky', 'y', {}, { jobId: 'flaky-1' });
    await until(() => attempts >= 2, 15_000);
    expect(attempts).toBe(2);
  });

  it('runs a delayed job once its delay has passed', async () => {
    const ran: string[] = [];
    engine.work<{ n: string }>({ queue: 'later', handler: async (data) => void ran.push(data.n) });
    await engine.add('later', 'z', { n: 'delayed' }, { jobId: 'later-1', delay: 300 });
    await until(() => ran.length >= 1);
    expect(ran).toEqual(['delayed']);
  });

  it('runs a scheduled job repeatedly after every instance upserts its schedule', async () => {
    let runs = 0;
    engine.work<object>({ queue: 'tick', handler: async () => void (runs += 1) });
    await engine.every('tick', 'tick', 200, {});
    await engine.every('tick', 'tick', 200, {});
    await until(() => runs >= 3, 15_000);
    expect(runs).toBeGreaterThanOrEqual(3);
  });

  it('keeps the last runs of a scheduled task, not every run', async () => {
    let runs = 0;
    engine.work<object>({ queue: 'kept', handler: async () => void (runs += 1) });
    await engine.every('kept', 'kept', 50, {});
    const enough = SCHEDULED_KEPT.completed + 10;
    await until(() => runs >= enough, 30_000);
    const held = await engine.held('kept');
    expect(held.failed).toBe(0);
    expect(held.completed).toBeGreaterThan(0);
    expect(held.completed).toBeLessThanOrEqual(SCHEDULED_KEPT.completed);
  }, 40_000);

  it('hands each job of a queue two engines work to exactly one of them', async () => {
    const other = await start();
    const runs: string[] = [];
    for (const e of [engine, other]) {
      e.work<{ n: string }>({ queue: 'shared', concurrency: 2, handler: async (data) => void runs.push(data.n) });
    }
    const ids = Array.from({ length: 12 }, (_, i) => `s${i}`);
    await Promise.all(ids.map((n, i) => (i % 2 ? other : engine).add('shared', 'w', { n }, { jobId: n })));
    await until(() => runs.length >= ids.length);
    await new Promise((r) => setTimeout(r, 300));
    expect(runs.sort()).toEqual([...ids].sort());
  });

  it('runs again on another worker a job whose worker was killed while running it', async () => {
    const queue = 'stalled';
    const dying = await spawnReady<{ taken: string }>('job-worker.process.ts', {
      JOB_ENGINE_OPTIONS: JSON.stringify(settings()),
      JOB_QUEUE: queue,
    });
    expect(dying.info.taken).toBe('left-running');
    dying.proc.kill('SIGKILL');
    const runs: string[] = [];
    engine.work<{ n: string }>({ queue, handler: async (data) => void runs.push(data.n) });
    // Its lock lapses (10 s) and the stalled-job check (every 5 s) hands the job to this worker.
    await until(() => runs.length >= 1, 30_000);
    expect(runs).toEqual(['left-running']);
  }, 40_000);

  it('lets a running job finish when the workers stop', async () => {
    const own = await start();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const states: string[] = [];
    own.work<object>({
      queue: 'graceful',
      handler: async () => {
        states.push('started');
        await gate;
        states.push('finished');
      },
    });
    await own.add('graceful', 'g', {}, { jobId: 'graceful-1' });
    await until(() => states.includes('started'));
    const stopping = own.stopWorkers(Date.now() + 10_000);
    setTimeout(release, 100);
    await stopping;
    expect(states).toEqual(['started', 'finished']);
  });
});

describe('Lease', () => {
  it('lets exactly one owner hold it until it expires or is released', async () => {
    // A lease's time is the database's (every instance judges it by the same clock), so the test
    // ages the lease there instead of sleeping through it.
    const ttlMs = 60_000;
    const a = new Lease(orm, 'indexer', 'a', ttlMs);
    const b = new Lease(orm, 'indexer', 'b', ttlMs);
    const age = (ms: number) =>
      orm.em
        .fork()
        .getConnection()
        .execute(
          `update leases set expires_at = expires_at - (? || ' milliseconds')::interval where name = 'indexer'`,
          [String(ms)],
        );
    const results = await Promise.all([a.acquire(), b.acquire()]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const [holder, other] = results[0] ? [a, b] : [b, a];
    expect(await holder.acquire()).toBe(true); // renew
    await age(ttlMs - 5_000);
    expect(await other.acquire()).toBe(false); // 5 s left
    await age(5_000);
    expect(await other.acquire()).toBe(true); // expired: taken over
    expect(await holder.acquire()).toBe(false);
    await other.release();
    expect(await holder.acquire()).toBe(true);
  });
});
