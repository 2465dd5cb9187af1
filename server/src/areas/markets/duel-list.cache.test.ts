import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { CountCache, ListCache } from './duel-list.cache.js';

describe('ListCache', () => {
  it('shares one load between concurrent misses and serves hits until invalidated', async () => {
    const cache = new ListCache<{ n: number }>(60_000);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 20));
      return { n: loads };
    };
    const results = await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(loads).toBe(1);
    expect(results.map((r) => r.n)).toEqual([1, 1, 1]);
    expect((await cache.get('k', load)).n).toBe(1);
    cache.invalidate();
    expect((await cache.get('k', load)).n).toBe(2);
  });

  it('does not keep a value loaded across an invalidation', async () => {
    const cache = new ListCache<{ v: string }>(60_000);
    const slow = cache.get('k', async () => {
      await new Promise((r) => setTimeout(r, 30));
      return { v: 'before the write' };
    });
    cache.invalidate();
    expect((await slow).v).toBe('before the write');
    expect((await cache.get('k', async () => ({ v: 'after' }))).v).toBe('after');
  });

  it('keeps only the values `keep` accepts, and follows the cache it listens to', async () => {
    const lists = new ListCache<{ n: number }>(60_000);
    const duels = new ListCache<{ status: string }>(1_000);
    lists.onInvalidate(() => duels.invalidate());
    let reads = 0;
    const row = (status: string) => async () => {
      reads += 1;
      return { status };
    };
    const trades = (d: { status: string }) => d.status === 'open';
    await duels.get('pending', row('pending'), trades);
    await duels.get('pending', row('pending'), trades);
    expect(reads).toBe(2);
    await duels.get('open', row('open'), trades);
    await duels.get('open', row('open'), trades);
    expect(reads).toBe(3);
    lists.invalidate();
    expect((await duels.get('open', row('cancelled'), trades)).status).toBe('cancelled');
    expect(reads).toBe(4);
  });
});

describe('CountCache', () => {
  it("answers a filter's total from one count for the whole window, and counts again once it has passed", async () => {
    const clock = new ManualClock();
    const totals = new CountCache(2_000, clock);
    let rows = 10;
    let counts = 0;
    const count = () => {
      counts += 1;
      return Promise.resolve(rows);
    };
    expect(await totals.get('public', count)).toBe(10);
    rows = 11;
    clock.advance(1_999);
    expect(await totals.get('public', count)).toBe(10);
    expect(counts).toBe(1);
    clock.advance(1);
    expect(await totals.get('public', count)).toBe(11);
    expect(counts).toBe(2);
  });

  it('keeps one total per filter and drops them all when this instance writes', async () => {
    const clock = new ManualClock();
    const totals = new CountCache(60_000, clock);
    expect(await totals.get('football', () => Promise.resolve(3))).toBe(3);
    expect(await totals.get('cricket', () => Promise.resolve(4))).toBe(4);
    expect(await totals.get('football', () => Promise.resolve(99))).toBe(3);
    totals.invalidate();
    expect(await totals.get('football', () => Promise.resolve(5))).toBe(5);
  });

  it('ages a total from when its count started, so a slow count is not kept past the window', async () => {
    const clock = new ManualClock();
    const totals = new CountCache(2_000, clock);
    expect(
      await totals.get('public', () => {
        clock.advance(1_500);
        return Promise.resolve(7);
      }),
    ).toBe(7);
    clock.advance(500);
    expect(await totals.get('public', () => Promise.resolve(8))).toBe(8);
  });
});
