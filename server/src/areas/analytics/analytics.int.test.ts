import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initOrm, type Orm } from '../../platform/db/orm.js';
import { entities } from '../../entities.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { AnalyticsRepository } from './analytics.repository.js';
import { ALICE, amount, BOB, CAROL, ReadModelWriter, seedScenario, type Seeded } from './analytics.test-kit.js';
import { LeaderboardService } from './leaderboard.service.js';
import { StatsService } from './stats.service.js';
import { ProtocolStatsRepository } from './protocol-stats.repository.js';

let db: TestDatabase;
let orm: Orm;
let repo: AnalyticsRepository;
let boards: LeaderboardService;
let seeded: Seeded;
const now = new Date();
/** A clock standing at `now`, or at whatever `at` returns. */
const clockAt = (at: () => Date = () => now) => ({ now: () => at().getTime() });
const page = { page: 1, limit: 20, sortOrder: 'desc' as const };
const s = (units: string) => amount(units).toString();

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(entities, db.url, 3, false);
  repo = new AnalyticsRepository(orm);
  boards = new LeaderboardService(repo, clockAt(), 0);
  seeded = await seedScenario(orm, now);
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe('trader leaderboards', () => {
  it('ranks traders by volume over confirmed public markets only', async () => {
    const res = await boards.traders({ ...page, sortBy: 'volume' });
    expect(res.pagination).toEqual({ page: 1, limit: 20, total: 2, hasMore: false });
    expect(res.data.map(({ lastTradeAt: _t, ...r }) => r)).toEqual([
      { rank: 1, address: ALICE, volume: s('40'), trades: 4, duelsTraded: 3 },
      { rank: 2, address: BOB, volume: s('22.5'), trades: 4, duelsTraded: 3 },
    ]);
  });

  it('pages with ranks continuing across pages and reverses with sortOrder', async () => {
    const second = await boards.traders({ page: 2, limit: 1, sortOrder: 'desc', sortBy: 'volume' });
    expect(second.data.map((r) => [r.rank, r.address])).toEqual([[2, BOB]]);
    expect(second.pagination).toEqual({ page: 2, limit: 1, total: 2, hasMore: false });
    const first = await boards.traders({ page: 1, limit: 1, sortOrder: 'asc', sortBy: 'volume' });
    expect(first.data.map((r) => r.address)).toEqual([BOB]);
    expect(first.pagination.hasMore).toBe(true);
    const past = await boards.traders({ page: 5, limit: 1, sortOrder: 'desc', sortBy: 'volume' });
    expect(past).toEqual({ data: [], pagination: { page: 5, limit: 1, total: 2, hasMore: false } });
  });

  it('computes realized and unrealized PnL for open, settled and cancelled markets', async () => {
    const res = await boards.tradersPnl({ ...page, sortBy: 'totalPnl' });
    expect(res.data).toEqual([
      // open: 6 − 10 + 5 = 1 realized, 7 × 0.7 − 5 = −0.1 unrealized; settled: 30 − 20 = 10; cancelled: 0
      {
        rank: 1,
        address: ALICE,
        realizedPnl: s('11'),
        unrealizedPnl: s('-0.1'),
        totalPnl: s('10.9'),
        volume: s('40'),
      },
      // open: 8 × 0.3 − 5 = −2.6 unrealized; settled (lost): 1.5 − 10 = −8.5; cancelled: 0
      {
        rank: 2,
        address: BOB,
        realizedPnl: s('-8.5'),
        unrealizedPnl: s('-2.6'),
        totalPnl: s('-11.1'),
        volume: s('22.5'),
      },
    ]);
  });

  it('filters by collateral and sorts by unrealized PnL', async () => {
    const res = await boards.tradersPnl({ ...page, sortBy: 'unrealizedPnl', collateralStack: 'usdc' });
    expect(res.data.map((r) => [r.address, r.realizedPnl, r.unrealizedPnl])).toEqual([
      [ALICE, s('1'), s('-0.1')],
      [BOB, '0', s('-2.6')],
    ]);
    const credits = await boards.traders({ ...page, sortBy: 'trades', collateralStack: 'credits' });
    expect(credits.data.map((r) => [r.address, r.trades, r.volume])).toEqual([
      [BOB, 2, s('11.5')],
      [ALICE, 1, s('20')],
    ]);
  });
});

describe('creator leaderboards', () => {
  it('ranks creators by the activity of their public markets', async () => {
    const res = await boards.creators({ ...page, sortBy: 'volume' });
    expect(res.data).toEqual([
      {
        rank: 1,
        address: CAROL,
        duelsCreated: 2,
        settledDuels: 1,
        volume: s('52.5'),
        trades: 6,
        traders: 2,
        feesGenerated: s('0.525'),
      },
      {
        rank: 2,
        address: BOB,
        duelsCreated: 1,
        settledDuels: 0,
        volume: s('10'),
        trades: 2,
        traders: 2,
        feesGenerated: s('0.1'),
      },
    ]);
    expect(await boards.creatorsCount(undefined)).toEqual({ count: 2, collateralStack: null });
    expect(await boards.creatorsCount('credits')).toEqual({ count: 1, collateralStack: 'credits' });
  });

  it('ranks creators by their own trading PnL, zero when they never traded', async () => {
    const res = await boards.creatorsPnl({ ...page, sortBy: 'totalPnl' });
    expect(res.data).toEqual([
      {
        rank: 1,
        address: CAROL,
        duelsCreated: 2,
        feesGenerated: s('0.525'),
        realizedPnl: '0',
        unrealizedPnl: '0',
        totalPnl: '0',
      },
      {
        rank: 2,
        address: BOB,
        duelsCreated: 1,
        feesGenerated: s('0.1'),
        realizedPnl: s('-8.5'),
        unrealizedPnl: s('-2.6'),
        totalPnl: s('-11.1'),
      },
    ]);
  });
});

describe('global aggregate and charts', () => {
  it('totals confirmed public markets, with and without a collateral filter', async () => {
    expect(await boards.globalAggregate(undefined)).toEqual({
      collateralStack: null,
      totalVolume: s('62.5'),
      totalFees: s('0.625'),
      totalTrades: 8,
      totalTraders: 2,
      totalCreators: 2,
      totalDuels: 3,
      openDuels: 1,
      settledDuels: 1,
      cancelledDuels: 1,
    });
    expect(await boards.globalAggregate('usdc')).toMatchObject({ totalVolume: s('31'), totalTrades: 5, totalDuels: 2 });
  });

  it('buckets volume hourly over a day and daily over a month', async () => {
    const day = await boards.volumeChart({ timeRange: '1D' });
    expect(day.interval).toBe('hour');
    expect(day.points).toHaveLength(24);
    expect(day.totalVolume).toBe(s('21'));
    expect(day.points.reduce((n, p) => n + p.trades, 0)).toBe(3);
    expect(new Date(day.to).getTime() - new Date(day.from).getTime()).toBe(24 * 3_600_000);
    expect(Date.parse(day.points.at(-1)!.time)).toBeLessThanOrEqual(now.getTime());
    const month = await boards.volumeChart({ timeRange: '1M' });
    expect(month.points).toHaveLength(30);
    expect(month.totalVolume).toBe(s('62.5'));
    expect((await boards.volumeChart({ timeRange: '1M', collateralStack: 'credits' })).totalVolume).toBe(s('31.5'));
    const all = await boards.volumeChart({ timeRange: 'ALL' });
    expect(all.totalVolume).toBe(s('62.5'));
    expect(all.points.length).toBeGreaterThanOrEqual(6);
  });

  it('counts active, new and cumulative traders per bucket', async () => {
    const day = await boards.participantsChart({ timeRange: '1D' });
    expect(day.points.every((p) => p.totalTraders === 2 && p.newTraders === 0)).toBe(true);
    expect(Math.max(...day.points.map((p) => p.activeTraders))).toBeGreaterThanOrEqual(1);
    expect(day.points.reduce((n, p) => n + p.activeTraders, 0)).toBeGreaterThanOrEqual(2);
    const month = await boards.participantsChart({ timeRange: '1M' });
    expect(month.points[0]?.totalTraders).toBe(0);
    expect(month.points.reduce((n, p) => n + p.newTraders, 0)).toBe(2);
    expect(month.points.at(-1)?.totalTraders).toBe(2);
  });
});

describe('protocol statistics', () => {
  it('stores a row on refresh, returns it inside the window and stores another after it', async () => {
    let clock = new Date(now.getTime() + 1_000);
    const stats = new StatsService(
      new ProtocolStatsRepository(orm),
      repo,
      clockAt(() => clock),
      30,
      0,
    );
    const first = await stats.refresh();
    expect(first.recomputed).toBe(true);
    expect(first.stats).toMatchObject({
      totalVolume: s('62.5'),
      volume24h: s('21'),
      previousVolume24h: s('1.5'),
      totalFees: s('0.625'),
      totalTrades: 8,
      trades24h: 3,
      totalUsers: 2,
      activeUsers24h: 2,
      totalCreators: 2,
      totalDuels: 3,
      activeDuels: 1,
      settledDuels: 1,
      cancelledDuels: 1,
    });
    expect(first.nextRefreshAt).toBe(new Date(clock.getTime() + 30_000).toISOString());

    clock = new Date(clock.getTime() + 10_000);
    const again = await stats.refresh();
    expect(again).toMatchObject({ recomputed: false, stats: { id: first.stats.id } });
    expect((await stats.current()).id).toBe(first.stats.id);

    await new ReadModelWriter(orm).trade(seeded.open, {
      trader: CAROL,
      side: 'buy',
      optionIndex: 0,
      collateral: amount('2'),
      shares: amount('2.5'),
      at: new Date(now.getTime() - 1_000),
    });
    clock = new Date(clock.getTime() + 25_000);
    const later = await stats.refresh();
    expect(later.recomputed).toBe(true);
    expect(later.stats.id).not.toBe(first.stats.id);
    expect(later.stats).toMatchObject({ totalVolume: s('64.5'), totalUsers: 3, totalTrades: 9 });
    const [stored] = await orm.em
      .fork()
      .getConnection()
      .execute<{ n: number }[]>('select count(*)::int as n from protocol_stats');
    expect(stored?.n).toBe(2);

    expect(await stats.current()).toEqual(later.stats);
    expect(await stats.summary()).toEqual({
      computedAt: later.stats.computedAt,
      previousComputedAt: first.stats.computedAt,
      volume24h: s('23'),
      previousVolume24h: s('1.5'),
      volume24hChange: s('21.5'),
      volume24hChangeBps: 143_333,
      trades24h: 4,
      activeUsers24h: 3,
      totalVolume: s('64.5'),
      totalUsers: 3,
      activeDuels: 1,
      sincePrevious: { volume: s('2'), trades: 1, users: 1, duels: 0 },
    });
  });

  it('reports totals and breakdowns by collateral, category and status', async () => {
    const stats = new StatsService(new ProtocolStatsRepository(orm), repo, clockAt(), 30, 0);
    const report = await stats.platform();
    expect(report.totals).toEqual({
      duels: 3,
      volume: s('64.5'),
      fees: s('0.645'),
      trades: 9,
      traders: 3,
      creators: 2,
    });
    expect(report.byCollateral).toEqual([
      { collateralStack: 'usdc', duels: 2, volume: s('33'), fees: s('0.33'), trades: 6, traders: 3 },
      { collateralStack: 'credits', duels: 1, volume: s('31.5'), fees: s('0.315'), trades: 3, traders: 2 },
    ]);
    expect(report.byCategory.map((r) => [r.category, r.duels, r.volume])).toEqual([
      ['Football', 2, s('33')],
      ['Cricket', 1, s('31.5')],
    ]);
    expect(report.byStatus.map((r) => [r.status, r.duels]).sort()).toEqual([
      ['cancelled', 1],
      ['open', 1],
      ['settled', 1],
    ]);
  });
});
