import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initOrm, type Orm } from '../db/orm.js';
import { entities } from '../../entities.js';
import { createLogger } from '../../logger.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { JobEngine } from './job-engine.js';
import { Lease } from './lease.js';

let db: TestDatabase;
let orm: Orm;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(entities, db.url, 3, false);
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('JobEngine on PostgreSQL', () => {
  let engine: JobEngine;
  beforeAll(async () => {
    engine = await JobEngine.start({
      databaseUrl: db.url,
      poolMax: 5,
      embedded: false,
      logger: createLogger('silent'),
    });
  });
  afterAll(() => engine?.close());

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

  it('runs a scheduled job repeatedly', async () => {
    let runs = 0;
    engine.work<object>({ queue: 'tick', handler: async () => void (runs += 1) });
    await engine.every('tick', 'tick', 200, {});
    await until(() => runs >= 3, 15_000);
    expect(runs).toBeGreaterThanOrEqual(3);
  });
});

describe('Lease', () => {
  it('lets exactly one owner hold it until it expires or is released', async () => {
    const a = new Lease(orm, 'indexer', 'a', 300);
    const b = new Lease(orm, 'indexer', 'b', 300);
    const results = await Promise.all([a.acquire(), b.acquire()]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const [holder, other] = results[0] ? [a, b] : [b, a];
    expect(await holder.acquire()).toBe(true); // renew
    expect(await other.acquire()).toBe(false);
    await new Promise((r) => setTimeout(r, 400));
    expect(await other.acquire()).toBe(true); // expired: taken over
    expect(await holder.acquire()).toBe(false);
    await other.release();
    expect(await holder.acquire()).toBe(true);
  });
});
