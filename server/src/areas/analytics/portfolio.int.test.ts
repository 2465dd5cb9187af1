import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initOrm, type Orm } from '../../platform/db/orm.js';
import { entities } from '../../entities.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { AnalyticsRepository } from './analytics.repository.js';
import { ALICE, amount, BOB, seedScenario, type Seeded } from './analytics.test-kit.js';
import { PortfolioRepository } from './portfolio.repository.js';
import { PortfolioService } from './portfolio.service.js';

let db: TestDatabase;
let orm: Orm;
let portfolio: PortfolioService;
let seeded: Seeded;
const now = new Date();
const s = (units: string) => amount(units).toString();
/** ALICE reading her own portfolio (private markets included), and BOB reading hers (not). */
const own = { userAddress: ALICE.toLowerCase(), callerAddress: ALICE };
const other = { userAddress: ALICE, callerAddress: BOB };

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(entities, db.url, 3, false);
  const analytics = new AnalyticsRepository(orm);
  portfolio = new PortfolioService(new PortfolioRepository(orm), analytics, { now: () => now.getTime() });
  seeded = await seedScenario(orm, now);
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe('account details', () => {
  it('sums value, PnL, volume and counts of the own portfolio, private markets included', async () => {
    expect(await portfolio.accountDetails(own)).toEqual({
      userAddress: ALICE,
      collateralStack: null,
      // open: 7 sh × 0.7 = 4.9; private: 150 sh × 0.5 = 75
      positionValue: s('79.9'),
      openCostBasis: s('105'),
      realizedPnl: s('11'),
      unrealizedPnl: s('-25.1'),
      totalPnl: s('-14.1'),
      totalVolume: s('140'),
      totalBets: 4,
      totalTrades: 5,
      duelsTraded: 4,
      openPositions: 2,
      duelsCreated: 0,
    });
  });

  it("leaves private markets out of someone else's view and filters by collateral", async () => {
    expect(await portfolio.accountDetails(other)).toMatchObject({
      positionValue: s('4.9'),
      openCostBasis: s('5'),
      realizedPnl: s('11'),
      unrealizedPnl: s('-0.1'),
      totalVolume: s('40'),
      openPositions: 1,
    });
    expect(await portfolio.accountDetails({ ...other, collateralStack: 'credits' })).toMatchObject({
      collateralStack: 'credits',
      positionValue: '0',
      realizedPnl: s('10'),
      unrealizedPnl: '0',
      totalTrades: 1,
    });
    expect(await portfolio.accountDetails({ userAddress: BOB, callerAddress: BOB })).toMatchObject({
      realizedPnl: s('-8.5'),
      unrealizedPnl: s('-2.6'),
      duelsCreated: 2,
    });
    expect((await portfolio.accountDetails({ userAddress: BOB, callerAddress: ALICE })).duelsCreated).toBe(1);
  });
});

describe('tables', () => {
  it('lists traded markets with PnL per market, most recently traded first', async () => {
    const res = await portfolio.tradedDuels({ ...own, page: 1, limit: 20 });
    expect(res.pagination).toEqual({ page: 1, limit: 20, total: 4, hasMore: false });
    expect(
      res.data.map((r) => [
        r.duelId,
        r.status,
        r.bought,
        r.sold,
        r.costBasis,
        r.currentValue,
        r.realizedPnl,
        r.unrealizedPnl,
      ]),
    ).toEqual([
      [seeded.privateOpen, 'open', s('100'), '0', s('100'), s('75'), '0', s('-25')],
      [seeded.open, 'open', s('10'), s('6'), s('5'), s('4.9'), s('1'), s('-0.1')],
      [seeded.settled, 'settled', s('20'), '0', s('20'), s('30'), s('10'), '0'],
      [seeded.cancelled, 'cancelled', s('4'), '0', s('4'), s('4'), '0', '0'],
    ]);
    const second = await portfolio.tradedDuels({ ...other, page: 2, limit: 2 });
    expect(second.data.map((r) => r.duelId)).toEqual([seeded.cancelled]);
    expect(second.pagination).toEqual({ page: 2, limit: 2, total: 3, hasMore: false });
  });

  it('pages the trade history newest first', async () => {
    const first = await portfolio.history({ ...own, page: 1, limit: 2 });
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 5, hasMore: true });
    expect(first.data.map((r) => [r.duelId, r.side, r.collateral, r.optionLabel])).toEqual([
      [seeded.privateOpen, 'buy', s('100'), 'YES'],
      [seeded.open, 'sell', s('6'), 'YES'],
    ]);
    expect(first.data[1]).toMatchObject({ fee: s('0.06'), shares: s('7'), collateralStack: 'usdc' });
    const last = await portfolio.history({ ...own, page: 3, limit: 2 });
    expect(last.data.map((r) => [r.duelId, r.optionLabel])).toEqual([[seeded.cancelled, 'NO']]);
    expect(last.pagination.hasMore).toBe(false);
    expect((await portfolio.history({ ...other, page: 1, limit: 20 })).pagination.total).toBe(4);
  });

  it('lists markets the address created', async () => {
    const mine = await portfolio.createdDuels({ userAddress: BOB, callerAddress: BOB, page: 1, limit: 20 });
    expect(mine.data.map((r) => [r.duelId, r.isPrivate, r.volume, r.traders])).toEqual(
      expect.arrayContaining([
        [seeded.cancelled, false, s('10'), 2],
        [seeded.privateOpen, true, s('100'), 1],
      ]),
    );
    expect(mine.pagination.total).toBe(2);
    const theirs = await portfolio.createdDuels({ userAddress: BOB, callerAddress: ALICE, page: 1, limit: 20 });
    expect(theirs.data.map((r) => r.duelId)).toEqual([seeded.cancelled]);
  });
});

describe('positions', () => {
  it('values open positions at the marginal price, per option and in total', async () => {
    const res = await portfolio.positions(other);
    expect(res).toEqual({
      address: ALICE,
      collateralStack: null,
      positions: [
        {
          duelId: seeded.open,
          question: expect.any(String),
          category: 'Football',
          collateralStack: 'usdc',
          status: 'open',
          endTime: expect.any(String),
          options: [
            {
              optionIndex: 0,
              optionLabel: 'YES',
              shares: s('7'),
              costBasis: s('5'),
              price: s('0.7'),
              currentValue: s('4.9'),
              unrealizedPnl: s('-0.1'),
            },
          ],
          totalCostBasis: s('5'),
          totalCurrentValue: s('4.9'),
          totalUnrealizedPnl: s('-0.1'),
        },
      ],
      totalCostBasis: s('5'),
      totalCurrentValue: s('4.9'),
      totalUnrealizedPnl: s('-0.1'),
    });
    const mine = await portfolio.positions(own);
    expect(mine.positions).toHaveLength(2);
    expect([mine.totalCostBasis, mine.totalCurrentValue, mine.totalUnrealizedPnl]).toEqual([
      s('105'),
      s('79.9'),
      s('-25.1'),
    ]);
    expect((await portfolio.positions({ ...own, collateralStack: 'credits' })).positions).toEqual([]);
  });
});

describe('PnL chart', () => {
  it('accumulates realized PnL per bucket and ends at the account total', async () => {
    const day = await portfolio.pnlChart({ ...own, timeRange: '1D' });
    expect(day.points).toHaveLength(24);
    // The settled market (ended a day ago) realized 10 before the window; the sale an hour ago realized 1.
    expect(day.points[0]?.realizedPnl).toBe(s('10'));
    expect(day.points.at(-1)?.realizedPnl).toBe(s('11'));
    expect([day.realizedPnl, day.unrealizedPnl, day.totalPnl]).toEqual([s('11'), s('-25.1'), s('-14.1')]);
    const all = await portfolio.pnlChart({ ...own, timeRange: 'ALL' });
    expect(all.interval).toBe('day');
    expect(all.points[0]?.realizedPnl).toBe('0');
    expect(all.points.at(-1)?.realizedPnl).toBe(all.realizedPnl);
    const bob = await portfolio.pnlChart({ userAddress: BOB, callerAddress: BOB, timeRange: '1M' });
    // sale of 3 of 15 shares for 1.5 against a basis of 2 (−0.5), then the loss of the remaining basis 8
    expect(bob.points.at(-1)?.realizedPnl).toBe(s('-8.5'));
    expect(bob.realizedPnl).toBe(s('-8.5'));

    // With a recorded resolution time the settlement is booked then, inside the 1D window.
    await orm.em
      .fork()
      .getConnection()
      .execute(`update duels set resolved_at = ? where duel_id = ?`, [
        new Date(now.getTime() - 3 * 3_600_000),
        seeded.settled,
      ]);
    const resolved = await portfolio.pnlChart({ ...own, timeRange: '1D' });
    expect(resolved.points[0]?.realizedPnl).toBe('0');
    expect(resolved.points.at(-1)?.realizedPnl).toBe(s('11'));
  });
});
