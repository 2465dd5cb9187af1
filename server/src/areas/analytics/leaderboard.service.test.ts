import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import type {
  AnalyticsRepository,
  BucketRow,
  CreatorPnlRow,
  CreatorRow,
  PageRequest,
  PnlRow,
  Totals,
  TraderVolumeRow,
} from './analytics.repository.js';
import type { PriceTable, Scope } from './analytics.sql.js';
import { LeaderboardService } from './leaderboard.service.js';

const U = 10n ** 18n;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** 10:30 UTC: the current hourly bucket starts at 10:00, the daily one at midnight. */
const NOW = Date.UTC(2026, 10, 28, 10, 30);
const addr = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`);
const sec = (ms: number) => ms / 1000;

function trader(n: number): TraderVolumeRow {
  return {
    address: addr(n),
    volume: (BigInt(100 - n) * U).toString(),
    trades: 10,
    duelsTraded: 2,
    lastTradeAt: new Date(NOW - n * HOUR).toISOString(),
  };
}

const PRICES: PriceTable = { duelIds: '{}', options: '{}', prices: '{}' };

/** The read model's aggregates: ordered rows paged the way the SQL pages them, with the calls recorded. */
class FakeAnalytics {
  traderRows: TraderVolumeRow[] = [];
  pnlRows: PnlRow[] = [];
  creatorRows: CreatorRow[] = [];
  creatorPnlRows: CreatorPnlRow[] = [];
  bucketRows: BucketRow[] = [];
  firstRows: { bucket: number; n: number }[] = [];
  first: Date | null = null;
  creatorCount = 0;
  calls: { method: string; scope: Scope; args?: unknown }[] = [];
  private page<T>(rows: T[], req: PageRequest) {
    const first = (req.page - 1) * req.limit;
    return Promise.resolve({ rows: rows.slice(first, first + req.limit), total: rows.length });
  }
  traders(scope: Scope, req: PageRequest) {
    this.calls.push({ method: 'traders', scope });
    return this.page(this.traderRows, req);
  }
  openPrices(scope: Scope) {
    this.calls.push({ method: 'openPrices', scope });
    return Promise.resolve(PRICES);
  }
  tradersPnl(scope: Scope, px: PriceTable, req: PageRequest) {
    this.calls.push({ method: 'tradersPnl', scope, args: px });
    return this.page(this.pnlRows, req);
  }
  creators(scope: Scope, req: PageRequest) {
    this.calls.push({ method: 'creators', scope });
    return this.page(this.creatorRows, req);
  }
  creatorsPnl(scope: Scope, px: PriceTable, req: PageRequest) {
    this.calls.push({ method: 'creatorsPnl', scope, args: px });
    return this.page(this.creatorPnlRows, req);
  }
  countCreators(scope: Scope) {
    this.calls.push({ method: 'countCreators', scope });
    return Promise.resolve(this.creatorCount);
  }
  totals(scope: Scope, now: Date): Promise<Totals> {
    this.calls.push({ method: 'totals', scope, args: now });
    return Promise.resolve({
      totalVolume: (50n * U).toString(),
      totalFees: U.toString(),
      totalTrades: 20,
      totalTraders: 7,
      totalCreators: 2,
      totalDuels: 6,
      openDuels: 3,
      activeDuels: 2,
      settledDuels: 2,
      cancelledDuels: 1,
      volume24h: '0',
      previousVolume24h: '0',
      trades24h: 0,
      activeUsers24h: 0,
    });
  }
  buckets(scope: Scope, from: Date, to: Date, seconds: number) {
    this.calls.push({ method: 'buckets', scope, args: { from, to, seconds } });
    return Promise.resolve(this.bucketRows);
  }
  firstTradeBuckets(scope: Scope, from: Date, to: Date, seconds: number) {
    this.calls.push({ method: 'firstTradeBuckets', scope, args: { from, to, seconds } });
    return Promise.resolve(this.firstRows);
  }
  firstTradeAt(scope: Scope) {
    this.calls.push({ method: 'firstTradeAt', scope });
    return Promise.resolve(this.first);
  }
}

function setup() {
  const clock = new ManualClock(NOW);
  const repo = new FakeAnalytics();
  const service = new LeaderboardService(repo as unknown as AnalyticsRepository, clock);
  return { clock, repo, service };
}

const query = { sortBy: 'volume', sortOrder: 'desc' } as const;

describe('LeaderboardService', () => {
  it('ranks rows by their place in the whole ordering: page 2 of 20 starts at rank 21', async () => {
    const { repo, service } = setup();
    repo.traderRows = Array.from({ length: 45 }, (_, i) => trader(i + 1));
    const page2 = await service.traders({ ...query, page: 2, limit: 20, collateralStack: undefined });
    expect(page2.data.map((r) => r.rank)).toEqual(Array.from({ length: 20 }, (_, i) => 21 + i));
    expect(page2.data[0]).toEqual({ rank: 21, ...trader(21) });
    expect(page2.pagination).toEqual({ page: 2, limit: 20, total: 45, hasMore: true });
  });

  it('has no more after the last page, nor past the end', async () => {
    const { repo, service } = setup();
    repo.traderRows = Array.from({ length: 45 }, (_, i) => trader(i + 1));
    const last = await service.traders({ ...query, page: 3, limit: 20, collateralStack: undefined });
    expect(last.data.map((r) => r.rank)).toEqual([41, 42, 43, 44, 45]);
    expect(last.pagination.hasMore).toBe(false);
    const beyond = await service.traders({ ...query, page: 4, limit: 20, collateralStack: undefined });
    expect(beyond).toEqual({ data: [], pagination: { page: 4, limit: 20, total: 45, hasMore: false } });
    const exact = await service.traders({ ...query, page: 1, limit: 45, collateralStack: undefined });
    expect(exact.pagination.hasMore).toBe(false);
  });

  it('reads public markets only, of the requested collateral or both', async () => {
    const { repo, service } = setup();
    await service.traders({ ...query, page: 1, limit: 20, collateralStack: 'credits' });
    await service.creators({ ...query, page: 1, limit: 20, collateralStack: undefined });
    expect(repo.calls.map((c) => c.scope)).toEqual([
      { collateralStack: 'credits', includePrivate: false },
      { collateralStack: undefined, includePrivate: false },
    ]);
  });

  it('prices PnL boards at the open prices of the same scope', async () => {
    const { repo, service } = setup();
    repo.pnlRows = [
      {
        address: addr(1),
        realizedPnl: (-U / 10n).toString(),
        unrealizedPnl: (3n * U).toString(),
        totalPnl: ((29n * U) / 10n).toString(),
        volume: (8n * U).toString(),
      },
    ];
    const traders = await service.tradersPnl({
      sortBy: 'totalPnl',
      sortOrder: 'desc',
      page: 1,
      limit: 20,
      collateralStack: 'usdc',
    });
    expect(traders.data).toEqual([{ rank: 1, ...repo.pnlRows[0] }]);
    await service.creatorsPnl({ sortBy: 'totalPnl', sortOrder: 'desc', page: 1, limit: 20, collateralStack: 'usdc' });
    const usdc = { collateralStack: 'usdc', includePrivate: false };
    expect(repo.calls).toEqual([
      { method: 'openPrices', scope: usdc },
      { method: 'tradersPnl', scope: usdc, args: PRICES },
      { method: 'openPrices', scope: usdc },
      { method: 'creatorsPnl', scope: usdc, args: PRICES },
    ]);
  });

  it('echoes the collateral filter, null for both, on counts and aggregates', async () => {
    const { repo, service } = setup();
    repo.creatorCount = 4;
    expect(await service.creatorsCount(undefined)).toEqual({ count: 4, collateralStack: null });
    expect(await service.creatorsCount('usdc')).toEqual({ count: 4, collateralStack: 'usdc' });
    expect(await service.globalAggregate(undefined)).toEqual({
      collateralStack: null,
      totalVolume: (50n * U).toString(),
      totalFees: U.toString(),
      totalTrades: 20,
      totalTraders: 7,
      totalCreators: 2,
      totalDuels: 6,
      openDuels: 3,
      settledDuels: 2,
      cancelledDuels: 1,
    });
    expect(repo.calls.find((c) => c.method === 'totals')?.args).toEqual(new Date(NOW));
  });

  it('answers an identical query from the cache and a different one from the read model', async () => {
    const { repo, service } = setup();
    repo.traderRows = [trader(1)];
    const q = { ...query, page: 1, limit: 20, collateralStack: undefined };
    const first = await service.traders(q);
    repo.traderRows = [trader(2)];
    expect(await service.traders({ ...q })).toEqual(first);
    expect((await service.traders({ ...q, limit: 10 })).data[0]?.address).toBe(addr(2));
    expect(repo.calls.filter((c) => c.method === 'traders')).toHaveLength(2);
  });

  it('zero-fills 24 hourly volume buckets ending with the current hour, summing volume exactly', async () => {
    const { repo, service } = setup();
    const current = Date.UTC(2026, 10, 28, 10);
    const big = 123_456_789_012_345_678_901n;
    repo.bucketRows = [
      { bucket: sec(current - 23 * HOUR), volume: big.toString(), trades: 3, traders: 2 },
      { bucket: sec(current), volume: (U / 3n).toString(), trades: 1, traders: 1 },
      { bucket: sec(current - 30 * HOUR), volume: (1000n * U).toString(), trades: 9, traders: 9 }, // outside
    ];
    const chart = await service.volumeChart({ timeRange: '1D', collateralStack: undefined });
    expect(chart).toMatchObject({
      timeRange: '1D',
      interval: 'hour',
      from: new Date(current - 23 * HOUR).toISOString(),
      to: new Date(current + HOUR).toISOString(),
      collateralStack: null,
      totalVolume: (big + U / 3n).toString(),
    });
    expect(chart.points).toHaveLength(24);
    expect(chart.points[0]).toEqual({
      time: new Date(current - 23 * HOUR).toISOString(),
      volume: big.toString(),
      trades: 3,
    });
    expect(chart.points[1]).toEqual({ time: new Date(current - 22 * HOUR).toISOString(), volume: '0', trades: 0 });
    expect(chart.points[23]).toMatchObject({ volume: (U / 3n).toString(), trades: 1 });
    expect(repo.calls.at(-1)?.args).toEqual({
      from: new Date(current - 23 * HOUR),
      to: new Date(current + HOUR),
      seconds: 3600,
    });
  });

  it('starts an ALL chart at the day of the first trade in scope', async () => {
    const { repo, service } = setup();
    repo.first = new Date(Date.UTC(2026, 10, 25, 17, 45));
    const chart = await service.volumeChart({ timeRange: 'ALL', collateralStack: 'credits' });
    expect(chart).toMatchObject({
      interval: 'day',
      from: new Date(Date.UTC(2026, 10, 25)).toISOString(),
      to: new Date(Date.UTC(2026, 10, 29)).toISOString(),
      collateralStack: 'credits',
    });
    expect(chart.points.map((p) => p.time)).toEqual(
      [25, 26, 27, 28].map((d) => new Date(Date.UTC(2026, 10, d)).toISOString()),
    );
    const none = setup();
    expect((await none.service.volumeChart({ timeRange: 'ALL', collateralStack: undefined })).points).toHaveLength(1);
  });

  it('counts traders before the window into the running total of participants', async () => {
    const { repo, service } = setup();
    const today = Date.UTC(2026, 10, 28);
    const days = (n: number) => sec(today - n * DAY);
    repo.bucketRows = [
      { bucket: days(29), volume: '1', trades: 1, traders: 3 },
      { bucket: days(0), volume: '1', trades: 1, traders: 5 },
    ];
    repo.firstRows = [
      { bucket: -1, n: 10 },
      { bucket: days(29), n: 2 },
      { bucket: days(1), n: 1 },
      { bucket: days(0), n: 4 },
    ];
    const chart = await service.participantsChart({ timeRange: '1M', collateralStack: undefined });
    expect(chart.points).toHaveLength(30);
    expect(chart.points[0]).toEqual({
      time: new Date(today - 29 * DAY).toISOString(),
      activeTraders: 3,
      newTraders: 2,
      totalTraders: 12,
    });
    expect(chart.points[1]).toMatchObject({ activeTraders: 0, newTraders: 0, totalTraders: 12 });
    expect(chart.points[28]).toMatchObject({ activeTraders: 0, newTraders: 1, totalTraders: 13 });
    expect(chart.points[29]).toMatchObject({ activeTraders: 5, newTraders: 4, totalTraders: 17 });
  });

  it('moves the window with the clock', async () => {
    const { clock, service } = setup();
    const before = await service.volumeChart({ timeRange: '1W', collateralStack: undefined });
    clock.advance(HOUR);
    const later = await service.volumeChart({ timeRange: '1W', collateralStack: 'usdc' });
    expect(before.points).toHaveLength(168);
    expect(new Date(later.from).getTime() - new Date(before.from).getTime()).toBe(HOUR);
  });
});
