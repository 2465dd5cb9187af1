import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import type { AnalyticsRepository, BreakdownRow, Totals } from './analytics.repository.js';
import type { Scope } from './analytics.sql.js';
import type { ProtocolStats } from './analytics.types.js';
import type { ProtocolStatsRepository } from './protocol-stats.repository.js';
import { StatsService } from './stats.service.js';

const U = 10n ** 18n;
const START = Date.UTC(2026, 10, 28, 9);
const SECOND = 1_000;

function totals(over: Partial<Totals> = {}): Totals {
  return {
    totalVolume: (100n * U).toString(),
    totalFees: (2n * U).toString(),
    totalTrades: 40,
    totalTraders: 12,
    totalCreators: 3,
    totalDuels: 9,
    openDuels: 5,
    activeDuels: 4,
    settledDuels: 3,
    cancelledDuels: 1,
    volume24h: (15n * U).toString(),
    previousVolume24h: (10n * U).toString(),
    trades24h: 6,
    activeUsers24h: 4,
    ...over,
  };
}

/** `protocol_stats`: rows newest first, and the store's re-check of the window under its lock. */
class MemoryStats {
  rows: ProtocolStats[] = [];
  /** A row another instance stores between this one's compute and its store. */
  racing: ProtocolStats | null = null;
  latest(n: number) {
    return Promise.resolve(this.rows.slice(0, n));
  }
  storeUnlessFresh(row: ProtocolStats, now: Date, fresh: (latest: ProtocolStats) => boolean) {
    if (this.racing) this.rows.unshift(this.racing);
    this.racing = null;
    const [latest] = this.rows;
    if (latest && fresh(latest)) return Promise.resolve({ row: latest, recomputed: false });
    const stored = { ...row, computedAt: now.toISOString() };
    this.rows.unshift(stored);
    return Promise.resolve({ row: stored, recomputed: true });
  }
}

/** The read model's aggregates as the service asks for them, with the scopes it asked in. */
class FakeAnalytics {
  current = totals();
  scopes: Scope[] = [];
  nows: Date[] = [];
  breakdowns: Record<'collateral' | 'category' | 'status', BreakdownRow[]> = {
    collateral: [],
    category: [],
    status: [],
  };
  totals(scope: Scope, now: Date) {
    this.scopes.push(scope);
    this.nows.push(now);
    return Promise.resolve(this.current);
  }
  breakdown(scope: Scope, by: 'collateral' | 'category' | 'status') {
    this.scopes.push(scope);
    return Promise.resolve(this.breakdowns[by]);
  }
}

function setup() {
  const clock = new ManualClock(START);
  const stored = new MemoryStats();
  const analytics = new FakeAnalytics();
  const service = new StatsService(
    stored as unknown as ProtocolStatsRepository,
    analytics as unknown as AnalyticsRepository,
    clock,
  );
  return { clock, stored, analytics, service };
}

function storedRow(at: number, over: Partial<ProtocolStats> = {}): ProtocolStats {
  const t = totals();
  return {
    id: `row-${at}`,
    computedAt: new Date(at).toISOString(),
    totalVolume: t.totalVolume,
    volume24h: t.volume24h,
    previousVolume24h: t.previousVolume24h,
    totalFees: t.totalFees,
    totalTrades: t.totalTrades,
    trades24h: t.trades24h,
    totalUsers: t.totalTraders,
    activeUsers24h: t.activeUsers24h,
    totalCreators: t.totalCreators,
    totalDuels: t.totalDuels,
    activeDuels: t.activeDuels,
    settledDuels: t.settledDuels,
    cancelledDuels: t.cancelledDuels,
    ...over,
  };
}

describe('StatsService', () => {
  it('stores a snapshot of confirmed public markets, both collaterals, computed at the clock’s now', async () => {
    const { stored, analytics, service } = setup();
    const res = await service.refresh();
    expect(analytics.scopes).toEqual([{ includePrivate: false }]);
    expect(analytics.nows).toEqual([new Date(START)]);
    expect(res.recomputed).toBe(true);
    expect(res.stats).toMatchObject({
      computedAt: new Date(START).toISOString(),
      totalVolume: (100n * U).toString(),
      totalUsers: 12,
      activeDuels: 4,
      previousVolume24h: (10n * U).toString(),
    });
    expect(res.nextRefreshAt).toBe(new Date(START + 30 * SECOND).toISOString());
    expect(stored.rows).toEqual([res.stats]);
  });

  it('stores at most one row per 30 seconds, answering the newest row inside the window', async () => {
    const { clock, stored, analytics, service } = setup();
    const first = await service.refresh();
    clock.advance(30 * SECOND - 1);
    const inside = await service.refresh();
    expect(inside).toEqual({ stats: first.stats, recomputed: false, nextRefreshAt: first.nextRefreshAt });
    expect(stored.rows).toHaveLength(1);
    expect(analytics.nows).toHaveLength(1);
    clock.advance(1);
    const after = await service.refresh();
    expect(after.recomputed).toBe(true);
    expect(after.stats.computedAt).toBe(new Date(START + 30 * SECOND).toISOString());
    expect(stored.rows).toHaveLength(2);
  });

  it('keeps the row another instance stored while this one computed, storing nothing', async () => {
    const { clock, stored, service } = setup();
    clock.advance(60 * SECOND);
    const theirs = storedRow(START + 60 * SECOND - 10, { totalTrades: 41 });
    stored.racing = theirs;
    const res = await service.refresh();
    expect(res).toEqual({
      stats: theirs,
      recomputed: false,
      nextRefreshAt: new Date(START + 90 * SECOND - 10).toISOString(),
    });
    expect(stored.rows).toEqual([theirs]);
  });

  it('answers the newest stored row, computing and storing one when the table is empty', async () => {
    const { stored, analytics, service } = setup();
    const first = await service.current();
    expect(stored.rows).toEqual([first]);
    expect(analytics.nows).toHaveLength(1);

    const other = setup();
    const newest = storedRow(START - 5 * SECOND, { totalTrades: 99 });
    other.stored.rows = [newest, storedRow(START - 60 * SECOND)];
    expect(await other.service.current()).toEqual(newest);
    expect(other.analytics.nows).toEqual([]);
  });

  it('summarises the 24-hour change in basis points, rounded toward zero, and growth since the previous row', async () => {
    const { stored, service } = setup();
    stored.rows = [
      storedRow(START, {
        volume24h: (7n * U).toString(),
        previousVolume24h: (9n * U).toString(),
        totalVolume: (120n * U).toString(),
        totalTrades: 50,
        totalUsers: 14,
        totalDuels: 10,
      }),
      storedRow(START - 60 * SECOND, { totalVolume: (100n * U).toString(), totalTrades: 40, totalUsers: 12 }),
    ];
    const summary = await service.summary();
    expect(summary).toMatchObject({
      computedAt: new Date(START).toISOString(),
      previousComputedAt: new Date(START - 60 * SECOND).toISOString(),
      volume24hChange: (-2n * U).toString(),
      // −2/9 = −22.22…% → −2222 bps, not −2223
      volume24hChangeBps: -2222,
      sincePrevious: { volume: (20n * U).toString(), trades: 10, users: 2, duels: 1 },
    });
  });

  it('gives no change ratio when the previous 24 hours had no volume, and no growth with a single row', async () => {
    const { stored, service } = setup();
    stored.rows = [storedRow(START, { volume24h: (3n * U).toString(), previousVolume24h: '0' })];
    expect(await service.summary()).toMatchObject({
      previousComputedAt: null,
      volume24hChange: (3n * U).toString(),
      volume24hChangeBps: null,
      sincePrevious: null,
    });
  });

  it('never reports negative growth, even if totals shrank between rows', async () => {
    const { stored, service } = setup();
    stored.rows = [
      storedRow(START, { totalVolume: (90n * U).toString(), totalTrades: 30, totalUsers: 10, totalDuels: 8 }),
      storedRow(START - 60 * SECOND),
    ];
    expect((await service.summary()).sincePrevious).toEqual({ volume: '0', trades: 0, users: 0, duels: 0 });
  });

  it('summarises a freshly stored row when the table is empty', async () => {
    const { stored, service } = setup();
    const summary = await service.summary();
    expect(stored.rows).toHaveLength(1);
    expect(summary).toMatchObject({ computedAt: new Date(START).toISOString(), volume24hChangeBps: 5000 });
  });

  it('serves a cached summary until a refresh stores a new row', async () => {
    const { clock, stored, analytics, service } = setup();
    await service.refresh();
    const before = await service.summary();
    clock.advance(31 * SECOND);
    analytics.current = totals({ totalTrades: 45 });
    stored.rows.unshift(storedRow(clock.now(), { totalTrades: 44 })); // written behind the cache
    expect(await service.summary()).toEqual(before);
    const refreshed = await service.refresh(); // inside the window of the row above: nothing stored
    expect(refreshed.recomputed).toBe(false);
    expect(await service.summary()).toEqual(before);
    clock.advance(30 * SECOND);
    await service.refresh();
    expect((await service.summary()).sincePrevious).toMatchObject({ trades: 1 });
  });

  it('reports the platform live: totals and breakdowns by collateral, category and status in the read model’s order', async () => {
    const { analytics, service } = setup();
    const row = (key: string, volume: bigint): BreakdownRow => ({
      key,
      duels: 2,
      volume: volume.toString(),
      fees: (volume / 50n).toString(),
      trades: 4,
      traders: 3,
    });
    analytics.breakdowns = {
      collateral: [row('usdc', 60n * U), row('credits', 40n * U)],
      category: [row('football', 70n * U), row('tennis', 30n * U)],
      status: [row('open', 0n), row('settled', 0n)],
    };
    const report = await service.platform();
    expect(analytics.scopes.every((s) => s.includePrivate === false && s.collateralStack === undefined)).toBe(true);
    expect(report).toEqual({
      generatedAt: new Date(START).toISOString(),
      totals: {
        duels: 9,
        volume: (100n * U).toString(),
        fees: (2n * U).toString(),
        trades: 40,
        traders: 12,
        creators: 3,
      },
      byCollateral: [
        {
          collateralStack: 'usdc',
          duels: 2,
          volume: (60n * U).toString(),
          fees: ((60n * U) / 50n).toString(),
          trades: 4,
          traders: 3,
        },
        {
          collateralStack: 'credits',
          duels: 2,
          volume: (40n * U).toString(),
          fees: ((40n * U) / 50n).toString(),
          trades: 4,
          traders: 3,
        },
      ],
      byCategory: [
        expect.objectContaining({ category: 'football', volume: (70n * U).toString() }),
        expect.objectContaining({ category: 'tennis', volume: (30n * U).toString() }),
      ],
      byStatus: [
        { status: 'open', duels: 2 },
        { status: 'settled', duels: 2 },
      ],
    });
  });
});
