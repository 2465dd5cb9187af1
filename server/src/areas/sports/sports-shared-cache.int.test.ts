import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RedisCacheAdapter } from '../../adapters/cache/redis-cache.adapter.js';
import { startFakeSportmonks, type FakeSportmonks } from '../../adapters/sports-provider/fake-sportmonks.server.js';
import { ManualClock } from '../../platform/clock.js';
import type { SportsLimits } from './sports-limits.js';
import { settle, sportsHarness, until } from './sports.test-kit.js';

const prefix = `dk:test:sports:${randomBytes(4).toString('hex')}:`;
let fake: FakeSportmonks;
let redis: Redis;
beforeAll(async () => {
  fake = await startFakeSportmonks();
  redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await fake.close();
});
beforeEach(() => fake.setMode(null));

const calls = (path: string) => fake.callCount(`/v3/${path}`);

/** Two service instances over one Redis, as two server processes would be, on one clock. */
function twoInstances(limits: Partial<SportsLimits> = {}) {
  const clock = new ManualClock(Date.now());
  const make = () => sportsHarness(fake, { clock, limits, store: new RedisCacheAdapter(redis, prefix) }).service;
  return { a: make(), b: make(), clock };
}

describe('Redis-backed cache shared by two instances', () => {
  it('serves from the shared cache on the second instance without an upstream call', async () => {
    const { a, b } = twoInstances();
    const before = calls('football/teams/21');
    const first = await a.proxy({ path: 'football/teams/21' });
    const second = await b.proxy({ path: 'football/teams/21' });
    expect(calls('football/teams/21') - before).toBe(1);
    expect(second._meta).toMatchObject({ fromCache: true, isStale: false, fetchedAt: first._meta.fetchedAt });
    expect(second.data).toEqual(first.data);
  });

  it('collapses concurrent misses on two instances into one upstream call', async () => {
    const { a, b } = twoInstances();
    fake.setMode({ delayMs: 200, pathPrefix: 'football/teams/22' });
    const before = calls('football/teams/22');
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => a.proxy({ path: 'football/teams/22' })),
      ...Array.from({ length: 5 }, () => b.proxy({ path: 'football/teams/22' })),
    ]);
    expect(calls('football/teams/22') - before).toBe(1);
    expect(new Set(results.map((r) => r._meta.fetchedAt)).size).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r.data))).size).toBe(1);
  });

  it('refreshes a stale entry once across instances', async () => {
    const { a, b, clock } = twoInstances();
    await a.proxy({ path: 'football/teams/27' });
    clock.advance(61_000);
    fake.setMode({ delayMs: 150, pathPrefix: 'football/teams/27' });
    const before = calls('football/teams/27');
    const stale = await Promise.all([a, b, a, b].map((s) => s.proxy({ path: 'football/teams/27' })));
    expect(stale.every((r) => r._meta.isStale)).toBe(true);
    await until(() => calls('football/teams/27') > before);
    await settle(300);
    expect(calls('football/teams/27') - before).toBe(1);
    expect((await b.proxy({ path: 'football/teams/27' }))._meta.isStale).toBe(false);
  });

  it('takes over when the lock holder died without answering', async () => {
    const { a } = twoInstances({ lockTtlMs: 2_000 });
    const key = 'sports:v3:football/teams/23';
    // A holder that took the lock and vanished: its lock expires after its TTL.
    await redis.set(`${prefix}lock:fetch:${key}`, 'dead-holder', 'PX', 300);
    const started = performance.now();
    const res = await a.proxy({ path: 'football/teams/23' });
    expect(res._meta.fromCache).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('takes over when the lock holder failed upstream and released its lock', async () => {
    const { a, b } = twoInstances();
    fake.setMode({ status: 500, delayMs: 150, times: 1, pathPrefix: 'football/teams/28' });
    const before = calls('football/teams/28');
    const [first, second] = await Promise.allSettled([
      a.proxy({ path: 'football/teams/28' }),
      settle(30).then(() => b.proxy({ path: 'football/teams/28' })),
    ]);
    expect(first.status).toBe('rejected');
    expect(second.status === 'fulfilled' && second.value._meta.fromCache).toBe(false);
    expect(calls('football/teams/28') - before).toBe(2);
  });
});
