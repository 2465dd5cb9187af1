import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import type { CacheEntry } from './cache.port.js';
import { MemoryCacheAdapter } from './memory-cache.adapter.js';

const entryAt = (clock: ManualClock, body: unknown): CacheEntry => ({
  body,
  fetchedAt: clock.now(),
  freshUntil: clock.now() + 60_000,
  staleUntil: clock.now() + 1_800_000,
});

describe('MemoryCacheAdapter', () => {
  it('returns an entry until its stale window ends', async () => {
    const clock = new ManualClock();
    const cache = new MemoryCacheAdapter(1_000_000, clock);
    const entry = entryAt(clock, { data: [1, 2, 3] });
    await cache.set('k', entry, 1_800_000);
    clock.advance(1_799_999);
    expect(await cache.get('k')).toEqual(entry);
    clock.advance(1);
    expect(await cache.get('k')).toBeNull();
  });

  it('stays within its byte bound, evicting the least recently used entries', async () => {
    const clock = new ManualClock();
    const cache = new MemoryCacheAdapter(10_000, clock);
    const body = { data: 'x'.repeat(1_000) };
    for (let i = 0; i < 30; i++) {
      await cache.set(`k${i}`, entryAt(clock, body), 60_000);
      if (i % 5 === 0) await cache.get('k0'); // kept warm
    }
    expect(cache.size).toBeLessThanOrEqual(10_000);
    expect(await cache.get('k0')).not.toBeNull();
    expect(await cache.get('k1')).toBeNull();
    expect(await cache.get('k29')).not.toBeNull();
  });

  it('does not keep an entry larger than the whole bound', async () => {
    const clock = new ManualClock();
    const cache = new MemoryCacheAdapter(1_000, clock);
    await cache.set('big', entryAt(clock, 'y'.repeat(5_000)), 60_000);
    expect(await cache.get('big')).toBeNull();
  });

  it('gives a lock to one holder at a time, released only with its token or by expiry', async () => {
    const leases = new ManualClock();
    const cache = new MemoryCacheAdapter(1_000, new ManualClock(), leases);
    const token = await cache.tryLock('l', 100);
    expect(token).toEqual(expect.any(String));
    expect(await cache.tryLock('l', 100)).toBeNull();
    await cache.unlock('l', 'not-the-token');
    expect(await cache.isLocked('l')).toBe(true);
    await cache.unlock('l', token as string);
    expect(await cache.isLocked('l')).toBe(false);
    expect(await cache.tryLock('l', 20)).not.toBeNull();
    leases.advance(19);
    expect(await cache.isLocked('l')).toBe(true);
    leases.advance(1);
    expect(await cache.isLocked('l')).toBe(false);
    expect(await cache.tryLock('l', 100)).not.toBeNull();
  });
});
