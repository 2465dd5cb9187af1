import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheEntry } from './cache.port.js';
import { RedisCacheAdapter } from './redis-cache.adapter.js';

const prefix = `dk:test:cache:${randomBytes(4).toString('hex')}:`;
let redis: Redis;
beforeAll(() => {
  redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

const entry: CacheEntry = { body: { data: { id: 1 } }, fetchedAt: 1, freshUntil: 2, staleUntil: 3 };

describe('RedisCacheAdapter', () => {
  it('stores entries with the given TTL', async () => {
    const cache = new RedisCacheAdapter(redis, prefix);
    await cache.set('a', entry, 5_000);
    expect(await cache.get('a')).toEqual(entry);
    const ttl = await redis.pttl(`${prefix}a`);
    expect(ttl).toBeGreaterThan(4_000);
    expect(ttl).toBeLessThanOrEqual(5_000);
    expect(await cache.get('missing')).toBeNull();
  });

  it('gives a lock to one holder at a time and releases it only with its token', async () => {
    const one = new RedisCacheAdapter(redis, prefix);
    const two = new RedisCacheAdapter(redis, prefix);
    const token = await one.tryLock('l', 5_000);
    expect(token).toEqual(expect.any(String));
    expect(await two.tryLock('l', 5_000)).toBeNull();
    await two.unlock('l', 'not-the-token');
    expect(await two.isLocked('l')).toBe(true);
    await one.unlock('l', token as string);
    expect(await two.isLocked('l')).toBe(false);
  });

  it('gives a lock a lifetime, so that it expires when its holder never releases it', async () => {
    const cache = new RedisCacheAdapter(redis, prefix);
    expect(await cache.tryLock('dying', 5_000)).not.toBeNull();
    // Redis expires the key by its own clock; the test checks the lifetime it was given instead of waiting it out.
    const ttl = await redis.pttl(`${prefix}lock:dying`);
    expect(ttl).toBeGreaterThan(4_000);
    expect(ttl).toBeLessThanOrEqual(5_000);
  });

  it('reads a Redis outage as a miss and never throws', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    down.on('error', () => undefined);
    const cache = new RedisCacheAdapter(down, prefix);
    expect(await cache.get('a')).toBeNull();
    await expect(cache.set('a', entry, 1_000)).resolves.toBeUndefined();
    expect(await cache.isLocked('a')).toBe(false);
    down.disconnect();
  });
});
