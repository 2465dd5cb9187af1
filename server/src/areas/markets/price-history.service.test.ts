import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../platform/clock.js';
import type { Duel } from './duel.entity.js';
import type { DuelRepository } from './duel.repository.js';
import { ONE, prices } from './fpmm.math.js';
import { MarketAccess } from './market-access.js';
import { ALL_BUCKET_LADDER, PriceHistoryService, RANGE_WINDOWS, allRangeBucket } from './price-history.service.js';
import type { ChartDuel, PriceSnapshotRepository, SnapshotPoint } from './price-snapshot.repository.js';

const U = 10n ** 18n;
const MIN = 60_000;
const HOUR = 60 * MIN;
const NOW = Date.UTC(2026, 10, 28, 10, 0, 30);
const CREATOR = getAddress(`0x${'c0'.repeat(20)}`);
const MEMBER = getAddress(`0x${'d0'.repeat(20)}`);
const STRANGER = getAddress(`0x${'e0'.repeat(20)}`);
const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const iso = (ms: number) => new Date(ms).toISOString();

function duel(n: number, over: Partial<ChartDuel> = {}): ChartDuel {
  return {
    duelId: id(n),
    question: `Question ${n}?`,
    options: ['Yes', 'No'],
    isPrivate: false,
    creatorAddress: CREATOR,
    poolBalances: [U.toString(), (3n * U).toString()],
    createdAt: new Date(NOW - 40 * 24 * HOUR),
    ...over,
  };
}

/** `price_snapshots` in memory, read back the way the repository's SQL reads it. */
class MemorySnapshots {
  rows: SnapshotPoint[] = [];
  childrenOf = new Map<string, ChartDuel[]>();
  openDuels: ChartDuel[] = [];
  scheduled: { duelId: string; bucketStart: number }[] = [];
  asked: { from: Date; bucketSeconds: number; limit: number }[] = [];

  add(duelId: string, at: number, yes: bigint) {
    this.rows.push({ duelId, createdAt: new Date(at), optionPrices: [yes.toString(), (ONE - yes).toString()] });
  }
  children(parentMarketId: string) {
    return Promise.resolve(this.childrenOf.get(parentMarketId) ?? []);
  }
  lastPerBucket(duelIds: readonly string[], from: Date, bucketSeconds: number, limit: number) {
    this.asked.push({ from, bucketSeconds, limit });
    const out: SnapshotPoint[] = [];
    for (const d of duelIds) {
      const last = new Map<number, SnapshotPoint>();
      for (const r of this.rows.filter((r) => r.duelId === d && r.createdAt >= from)) {
        const b = Math.floor(r.createdAt.getTime() / 1000 / bucketSeconds);
        const seen = last.get(b);
        if (!seen || r.createdAt >= seen.createdAt) last.set(b, r);
      }
      out.push(...[...last.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).slice(-limit));
    }
    return Promise.resolve(out);
  }
  lastBefore(duelIds: readonly string[], at: Date) {
    return Promise.resolve(
      duelIds.flatMap((d) => {
        const before = this.rows.filter((r) => r.duelId === d && r.createdAt < at);
        return before.length ? [before.reduce((a, b) => (b.createdAt >= a.createdAt ? b : a))] : [];
      }),
    );
  }
  earliest(duelIds: readonly string[]) {
    const times = this.rows.filter((r) => duelIds.includes(r.duelId)).map((r) => r.createdAt.getTime());
    return Promise.resolve(times.length ? new Date(Math.min(...times)) : null);
  }
  insertScheduled(now: Date, bucketStart: Date) {
    let n = 0;
    for (const d of this.openDuels) {
      const fresh = this.rows.some((r) => r.duelId === d.duelId && r.createdAt >= bucketStart);
      if (fresh) continue;
      this.scheduled.push({ duelId: d.duelId, bucketStart: bucketStart.getTime() });
      this.add(d.duelId, now.getTime(), U / 2n);
      n++;
    }
    return Promise.resolve(n);
  }
}

function setup(duels: ChartDuel[] = [duel(1)]) {
  const clock = new ManualClock(NOW);
  const snapshots = new MemorySnapshots();
  const byId = new Map(duels.map((d) => [d.duelId, d]));
  const duelRepo = { byDuelId: (d: string) => Promise.resolve((byId.get(d) as Duel | undefined) ?? null) };
  const access = new MarketAccess({
    isMember: (_duelId, address) => Promise.resolve(address === MEMBER),
  });
  const service = new PriceHistoryService(
    duelRepo as unknown as DuelRepository,
    snapshots as unknown as PriceSnapshotRepository,
    access,
    clock,
  );
  return { clock, snapshots, service };
}

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof DomainError ? e.code : String(e)),
  );

describe('PriceHistoryService', () => {
  it('keeps the documented windows and bucket widths', () => {
    const table = Object.fromEntries(
      Object.entries(RANGE_WINDOWS).map(([k, v]) => [k, [v.windowSeconds / v.bucketSeconds, v.bucketSeconds]]),
    );
    expect(table).toEqual({
      '30M': [30, 60],
      '1H': [30, 120],
      '6H': [36, 600],
      '1D': [48, 1800],
      '1W': [56, 10_800],
      '1M': [60, 43_200],
    });
  });

  it('picks the narrowest ALL bucket that fits the history into the limit, else 7 days', () => {
    expect(allRangeBucket(0, 1)).toBe(60);
    expect(allRangeBucket(499 * 60, 500)).toBe(60); // 500 one-minute buckets
    expect(allRangeBucket(500 * 60, 500)).toBe(120); // 501 would not fit
    expect(allRangeBucket(10 * 24 * 3600, 500)).toBe(1800);
    expect(allRangeBucket(10_000 * 24 * 3600, 10)).toBe(ALL_BUCKET_LADDER.at(-1));
  });

  it('charts the last snapshot of each bucket in the window, stamped with its own time', async () => {
    const { snapshots, service } = setup();
    const d = id(1);
    const bucket = Date.UTC(2026, 10, 28, 9, 30); // a 30-minute bucket of 1D
    snapshots.add(d, bucket + 1 * MIN, (40n * U) / 100n);
    snapshots.add(d, bucket + 29 * MIN, (45n * U) / 100n);
    snapshots.add(d, bucket + 30 * MIN, (90n * U) / 100n);
    const res = await service.duelHistory(d, { timeRange: '1D', limit: 500 }, null);
    expect(res).toEqual({
      duelId: d,
      timeRange: '1D',
      bucketSeconds: 1800,
      points: [
        {
          timestamp: iso(bucket + 29 * MIN),
          yesPercentage: 45,
          prices: [(45n * U) / 100n, (55n * U) / 100n].map(String),
        },
        {
          timestamp: iso(bucket + 30 * MIN),
          yesPercentage: 90,
          prices: [(90n * U) / 100n, (10n * U) / 100n].map(String),
        },
      ],
    });
    expect(snapshots.asked).toEqual([{ from: new Date(NOW - 24 * HOUR), bucketSeconds: 1800, limit: 500 }]);
  });

  it('starts a window with the price that held then, stamped at the window start', async () => {
    const { snapshots, service } = setup();
    const d = id(1);
    snapshots.add(d, NOW - 3 * HOUR, (30n * U) / 100n);
    snapshots.add(d, NOW - 2 * HOUR, (60n * U) / 100n);
    snapshots.add(d, NOW - 10 * MIN, (70n * U) / 100n);
    const res = await service.duelHistory(d, { timeRange: '1H', limit: 500 }, null);
    expect(res.points.map((p) => [p.timestamp, p.yesPercentage])).toEqual([
      [iso(NOW - HOUR), 60],
      [iso(NOW - 10 * MIN), 70],
    ]);
  });

  it('keeps the most recent points within the limit, dropping the starting point first', async () => {
    const { snapshots, service } = setup();
    const d = id(1);
    snapshots.add(d, NOW - 2 * HOUR, U / 10n);
    for (const m of [50, 30, 10]) snapshots.add(d, NOW - m * MIN, (BigInt(m) * U) / 100n);
    const res = await service.duelHistory(d, { timeRange: '1H', limit: 2 }, null);
    expect(res.points.map((p) => p.yesPercentage)).toEqual([30, 10]);
    const three = await service.duelHistory(d, { timeRange: '1H', limit: 3 }, null);
    expect(three.points.map((p) => p.yesPercentage)).toEqual([50, 30, 10]);
  });

  it('shows a duel with no snapshot at its current pool price, and no point before its pool is live', async () => {
    const { service } = setup([duel(1), duel(2, { poolBalances: ['0', '0'] }), duel(3, { poolBalances: [] })]);
    const res = await service.duelHistory(id(1), { timeRange: '1D', limit: 500 }, null);
    // balances 1:3 → yes 0.75
    expect(res.points).toEqual([{ timestamp: iso(NOW), yesPercentage: 75, prices: prices([U, 3n * U]).map(String) }]);
    expect((await service.duelHistory(id(2), { timeRange: '1D', limit: 500 }, null)).points).toEqual([]);
    expect((await service.duelHistory(id(3), { timeRange: '1D', limit: 500 }, null)).points).toEqual([]);
  });

  it('slides the window with the clock: a snapshot leaves the window and becomes its starting point', async () => {
    const { clock, snapshots, service } = setup();
    const d = id(1);
    snapshots.add(d, NOW - 20 * MIN, U / 5n);
    const q = { timeRange: '30M', limit: 500 } as const;
    expect((await service.duelHistory(d, q, null)).points).toEqual([
      expect.objectContaining({ timestamp: iso(NOW - 20 * MIN), yesPercentage: 20 }),
    ]);
    clock.advance(15 * MIN);
    expect((await service.duelHistory(d, q, null)).points).toEqual([
      expect.objectContaining({ timestamp: iso(NOW - 15 * MIN), yesPercentage: 20 }),
    ]);
  });

  it('sizes ALL buckets by the time since the oldest snapshot, with no starting point', async () => {
    const { snapshots, service } = setup();
    const d = id(1);
    snapshots.add(d, NOW - 10 * 24 * HOUR, U / 10n);
    snapshots.add(d, NOW - MIN, U / 5n);
    const res = await service.duelHistory(d, { timeRange: 'ALL', limit: 500 }, null);
    expect(res.bucketSeconds).toBe(1800);
    expect(res.points.map((p) => p.yesPercentage)).toEqual([10, 20]);
    expect(snapshots.asked.at(-1)?.from).toEqual(new Date(0));
    const empty = setup();
    expect((await empty.service.duelHistory(id(1), { timeRange: 'ALL', limit: 5 }, null)).bucketSeconds).toBe(60);
  });

  it('refuses an unknown duel and a private one to anyone but its creator and members', async () => {
    const { service } = setup([duel(1, { isPrivate: true })]);
    const q = { timeRange: '1D', limit: 500 } as const;
    expect(await code(service.duelHistory(id(9), q, CREATOR))).toBe('NOT_FOUND');
    expect(await code(service.duelHistory(id(1), q, null))).toBe('PRIVATE_MARKET');
    expect(await code(service.duelHistory(id(1), q, STRANGER))).toBe('PRIVATE_MARKET');
    expect(await code(service.duelHistory(id(1), q, CREATOR.toLowerCase()))).toBe('ok');
    expect(await code(service.duelHistory(id(1), q, MEMBER.toLowerCase()))).toBe('ok');
  });

  it('charts a parent’s visible children with one bucketing, and refuses when none is visible', async () => {
    const { snapshots, service } = setup();
    const parent = 'b1b1b1b1-0000-4000-8000-000000000001';
    const open = duel(1);
    const secret = duel(2, { isPrivate: true });
    const later = duel(3, { options: ['A', 'B'] });
    snapshots.childrenOf.set(parent, [open, secret, later]);
    snapshots.add(open.duelId, NOW - 5 * MIN, U / 4n);
    const res = await service.parentHistory(parent, { timeRange: '6H', limit: 500 }, STRANGER);
    expect(res).toMatchObject({ parentMarketId: parent, timeRange: '6H', bucketSeconds: 600 });
    expect(res.series.map((s) => [s.duelId, s.options, s.points.map((p) => p.yesPercentage)])).toEqual([
      [open.duelId, ['Yes', 'No'], [25]],
      [later.duelId, ['A', 'B'], [75]],
    ]);
    expect(
      (await service.parentHistory(parent, { timeRange: '6H', limit: 500 }, MEMBER)).series.map((s) => s.duelId),
    ).toEqual([open.duelId, secret.duelId, later.duelId]);

    snapshots.childrenOf.set('only-private', [secret]);
    expect(await code(service.parentHistory('only-private', { timeRange: '1D', limit: 5 }, null))).toBe(
      'PRIVATE_MARKET',
    );
    expect(await code(service.parentHistory('none', { timeRange: '1D', limit: 5 }, null))).toBe('NOT_FOUND');
  });

  it('snapshots open markets once per 5-minute bucket, aligned to the epoch', async () => {
    const { clock, snapshots, service } = setup();
    snapshots.openDuels = [duel(1), duel(2)];
    snapshots.add(id(2), Date.UTC(2026, 10, 28, 10, 0, 5), U / 3n); // a trade already in this bucket
    expect(await service.snapshotOpenMarkets(new Date(clock.now()))).toBe(1);
    expect(snapshots.scheduled).toEqual([{ duelId: id(1), bucketStart: Date.UTC(2026, 10, 28, 10) }]);
    clock.advance(4 * MIN);
    expect(await service.snapshotOpenMarkets(new Date(clock.now()))).toBe(0);
    clock.advance(30_000); // 10:05:00, a new bucket
    expect(await service.snapshotOpenMarkets(new Date(clock.now()))).toBe(2);
    expect(snapshots.scheduled.slice(1).map((s) => s.bucketStart)).toEqual([
      Date.UTC(2026, 10, 28, 10, 5),
      Date.UTC(2026, 10, 28, 10, 5),
    ]);
  });
});
