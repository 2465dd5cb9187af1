import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import type { AnalyticsRepository } from './analytics.repository.js';
import type { PriceTable, Scope } from './analytics.sql.js';
import type {
  AccountSummaryRow,
  HeldOptionRow,
  HistoryRow,
  OutcomeRow,
  PortfolioRepository,
  TradeForReplay,
  TradedDuelRow,
} from './portfolio.repository.js';
import { PortfolioService } from './portfolio.service.js';

const U = 10n ** 18n;
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 28, 10, 30);
const ALICE = getAddress(`0x${'a1'.repeat(20)}`);
const BOB = getAddress(`0x${'b2'.repeat(20)}`);
const PRICES: PriceTable = { duelIds: '{}', options: '{}', prices: '{}' };
const iso = (ms: number) => new Date(ms).toISOString();

type Visible = { isPrivate?: boolean; collateralStack?: 'usdc' | 'credits' };

function held(over: Partial<HeldOptionRow> & Visible = {}): HeldOptionRow & Visible {
  return {
    duelId: '0xd1',
    question: 'Who wins?',
    category: 'football',
    collateralStack: 'usdc',
    status: 'open',
    endTime: iso(NOW + 24 * HOUR),
    options: ['Home', 'Away'],
    poolBalances: [(3n * U).toString(), U.toString()],
    optionIndex: 0,
    shares: (10n * U).toString(),
    costBasis: (4n * U).toString(),
    ...over,
  };
}

/** One wallet's rows, each visible in a scope the way the repository's SQL filters it. */
class FakePortfolio {
  scopes: Scope[] = [];
  summaryRow: AccountSummaryRow = {
    realizedPnl: (-3n * U).toString(),
    unrealizedPnl: (U / 2n).toString(),
    positionValue: (2n * U).toString(),
    openCostBasis: (4n * U).toString(),
    totalVolume: (30n * U).toString(),
    totalBets: 5,
    totalTrades: 7,
    duelsTraded: 3,
  };
  heldRows: (HeldOptionRow & Visible)[] = [];
  tradedRows: TradedDuelRow[] = [];
  historyRows: HistoryRow[] = [];
  trades: TradeForReplay[] = [];
  outcomeRows: OutcomeRow[] = [];

  private visible = (scope: Scope) => (r: Visible) =>
    (scope.includePrivate || !r.isPrivate) && (!scope.collateralStack || r.collateralStack === scope.collateralStack);
  private page<T>(rows: T[], page: number, limit: number) {
    return Promise.resolve({ rows: rows.slice((page - 1) * limit, page * limit), total: rows.length });
  }
  summary(_a: string, scope: Scope) {
    this.scopes.push(scope);
    return Promise.resolve(this.summaryRow);
  }
  openPositionCount(_a: string, scope: Scope) {
    return Promise.resolve(this.heldRows.filter(this.visible(scope)).length);
  }
  createdCount() {
    return Promise.resolve(2);
  }
  created() {
    return Promise.resolve({ rows: [], total: 0 });
  }
  traded(_a: string, _s: Scope, _px: PriceTable, page: number, limit: number) {
    return this.page(this.tradedRows, page, limit);
  }
  history(_a: string, _s: Scope, page: number, limit: number) {
    return this.page(this.historyRows, page, limit);
  }
  heldOptions(_a: string, scope: Scope) {
    this.scopes.push(scope);
    return Promise.resolve(this.heldRows.filter(this.visible(scope)));
  }
  tradesInChainOrder() {
    return Promise.resolve(this.trades);
  }
  outcomes() {
    return Promise.resolve(this.outcomeRows);
  }
}

function setup() {
  const repo = new FakePortfolio();
  const analytics = { openPrices: () => Promise.resolve(PRICES) } as unknown as AnalyticsRepository;
  const service = new PortfolioService(repo as unknown as PortfolioRepository, analytics, new ManualClock(NOW));
  return { repo, service };
}

describe('PortfolioService', () => {
  it('includes private markets only in the caller’s own portfolio, whatever the letter case', async () => {
    const { repo, service } = setup();
    repo.heldRows = [held(), held({ duelId: '0xd2', isPrivate: true })];
    const own = await service.positions({
      userAddress: ALICE.toLowerCase(),
      callerAddress: `0x${ALICE.slice(2).toUpperCase()}`,
    });
    expect(own.address).toBe(ALICE);
    expect(own.positions.map((p) => p.duelId)).toEqual(['0xd1', '0xd2']);
    const other = await service.positions({ userAddress: ALICE, callerAddress: BOB });
    expect(other.positions.map((p) => p.duelId)).toEqual(['0xd1']);
    expect(repo.scopes).toEqual([
      { collateralStack: undefined, includePrivate: true },
      { collateralStack: undefined, includePrivate: false },
    ]);
  });

  it('values a position at the marginal price, rounded down, and groups options by market', async () => {
    const { repo, service } = setup();
    repo.heldRows = [
      // balances 3:1 → prices 0.25 / 0.75
      held(),
      held({ optionIndex: 1, shares: (2n * U).toString(), costBasis: U.toString() }),
      // balances 2:1 → option 0 at 1/3, rounded down
      held({
        duelId: '0xd3',
        poolBalances: [(2n * U).toString(), U.toString()],
        shares: (10n * U + 1n).toString(),
        costBasis: (3n * U).toString(),
      }),
    ];
    const res = await service.positions({ userAddress: ALICE, callerAddress: ALICE });
    const third = 333_333_333_333_333_333n;
    expect(res.positions[0]).toMatchObject({
      duelId: '0xd1',
      options: [
        {
          optionIndex: 0,
          optionLabel: 'Home',
          price: (U / 4n).toString(),
          currentValue: ((10n * U) / 4n).toString(),
          unrealizedPnl: (-(3n * U) / 2n).toString(),
        },
        {
          optionIndex: 1,
          optionLabel: 'Away',
          price: ((3n * U) / 4n).toString(),
          currentValue: ((3n * U) / 2n).toString(),
          unrealizedPnl: (U / 2n).toString(),
        },
      ],
      totalCostBasis: (5n * U).toString(),
      totalCurrentValue: (4n * U).toString(),
      totalUnrealizedPnl: (-U).toString(),
    });
    const value3 = ((10n * U + 1n) * third) / U; // 3.333…330 + 0.333… of a base unit, dropped
    expect(res.positions[1]).toMatchObject({
      options: [{ price: third.toString(), currentValue: value3.toString() }],
      totalUnrealizedPnl: (value3 - 3n * U).toString(),
    });
    expect(value3).toBe(3_333_333_333_333_333_330n);
    expect(res).toMatchObject({
      collateralStack: null,
      totalCostBasis: (8n * U).toString(),
      totalCurrentValue: (4n * U + value3).toString(),
      totalUnrealizedPnl: (4n * U + value3 - 8n * U).toString(),
    });
  });

  it('prices an emptied pool at zero and names an option without a label by its index', async () => {
    const { repo, service } = setup();
    repo.heldRows = [held({ poolBalances: ['0', '0', '0'], options: ['Home', 'Away'], optionIndex: 2 })];
    const res = await service.positions({ userAddress: ALICE, callerAddress: ALICE, collateralStack: 'usdc' });
    expect(res.positions[0]?.options[0]).toMatchObject({
      optionLabel: 'Option 2',
      price: '0',
      currentValue: '0',
      unrealizedPnl: (-4n * U).toString(),
    });
    expect(res.collateralStack).toBe('usdc');
  });

  it('keeps only the requested collateral', async () => {
    const { repo, service } = setup();
    repo.heldRows = [held(), held({ duelId: '0xd9', collateralStack: 'credits' })];
    const res = await service.positions({ userAddress: ALICE, callerAddress: BOB, collateralStack: 'credits' });
    expect(res.positions.map((p) => p.duelId)).toEqual(['0xd9']);
  });

  it('sums total PnL exactly from realized and unrealized, negative included', async () => {
    const { service } = setup();
    const details = await service.accountDetails({ userAddress: ALICE, callerAddress: BOB });
    expect(details).toMatchObject({
      userAddress: ALICE,
      collateralStack: null,
      realizedPnl: (-3n * U).toString(),
      unrealizedPnl: (U / 2n).toString(),
      totalPnl: ((-5n * U) / 2n).toString(),
      duelsCreated: 2,
    });
  });

  it('pages traded markets with their total PnL and history with option labels', async () => {
    const { repo, service } = setup();
    const traded = (n: number): TradedDuelRow => ({
      duelId: `0x${n}`,
      question: 'q',
      category: 'c',
      collateralStack: 'usdc',
      status: 'open',
      winningOptionIndex: null,
      endTime: iso(NOW),
      bought: (5n * U).toString(),
      sold: '0',
      costBasis: (5n * U).toString(),
      currentValue: (4n * U).toString(),
      realizedPnl: (U / 10n).toString(),
      unrealizedPnl: (-U).toString(),
      trades: 1,
      lastTradeAt: iso(NOW - n * HOUR),
    });
    repo.tradedRows = [1, 2, 3].map(traded);
    const page1 = await service.tradedDuels({ userAddress: ALICE, callerAddress: ALICE, page: 1, limit: 2 });
    expect(page1.data.map((r) => r.totalPnl)).toEqual([((-9n * U) / 10n).toString(), ((-9n * U) / 10n).toString()]);
    expect(page1.pagination).toEqual({ page: 1, limit: 2, total: 3, hasMore: true });
    const page2 = await service.tradedDuels({ userAddress: ALICE, callerAddress: ALICE, page: 2, limit: 2 });
    expect(page2.pagination.hasMore).toBe(false);

    const row = (optionLabel: string | null, optionIndex: number): HistoryRow => ({
      txHash: `0x${'ab'.repeat(32)}`,
      logIndex: optionIndex,
      duelId: '0x1',
      question: 'q',
      collateralStack: 'usdc',
      side: 'buy',
      optionIndex,
      optionLabel,
      collateral: U.toString(),
      fee: '0',
      shares: U.toString(),
      createdAt: iso(NOW),
    });
    repo.historyRows = [row('Home', 0), row(null, 3)];
    const history = await service.history({ userAddress: ALICE, callerAddress: ALICE, page: 1, limit: 20 });
    expect(history.data.map((r) => r.optionLabel)).toEqual(['Home', 'Option 3']);
    expect(history.pagination).toEqual({ page: 1, limit: 20, total: 2, hasMore: false });
  });

  it('charts realized PnL by the average-cost replay, booking a result no later than now', async () => {
    const { repo, service } = setup();
    const bucket = (h: number) => Date.UTC(2026, 10, 27, 11) + h * HOUR; // first bucket of 1D
    repo.trades = [
      {
        duelId: '0xd1',
        optionIndex: 0,
        side: 'buy',
        collateral: (10n * U).toString(),
        shares: (20n * U).toString(),
        createdAt: iso(bucket(-3)),
      },
      // sells half: removes 5 of basis for 7 → +2
      {
        duelId: '0xd1',
        optionIndex: 0,
        side: 'sell',
        collateral: (7n * U).toString(),
        shares: (10n * U).toString(),
        createdAt: iso(bucket(4) + 20 * 60_000),
      },
      {
        duelId: '0xd2',
        optionIndex: 1,
        side: 'buy',
        collateral: (3n * U).toString(),
        shares: (5n * U).toString(),
        createdAt: iso(bucket(5)),
      },
    ];
    repo.outcomeRows = [
      // 10 winning shares on a basis of 5 → +5, booked in the future → clamped to now
      { duelId: '0xd1', status: 'settled', winningOptionIndex: 0, bookedAt: iso(NOW + 2 * HOUR) },
      // a refund realizes nothing
      { duelId: '0xd2', status: 'cancelled', winningOptionIndex: null, bookedAt: iso(bucket(6)) },
    ];
    const chart = await service.pnlChart({ userAddress: ALICE, callerAddress: ALICE, timeRange: '1D' });
    expect(chart).toMatchObject({
      userAddress: ALICE,
      interval: 'hour',
      from: iso(bucket(0)),
      to: iso(bucket(24)),
      realizedPnl: (-3n * U).toString(),
      totalPnl: ((-5n * U) / 2n).toString(),
    });
    const values = chart.points.map((p) => BigInt(p.realizedPnl) / U);
    expect(values.slice(0, 4)).toEqual([0n, 0n, 0n, 0n]);
    expect(values.slice(4, 23)).toEqual(Array<bigint>(19).fill(2n));
    expect(values[23]).toBe(7n);
  });

  it('starts an ALL chart on the day of the address’s first trade', async () => {
    const { repo, service } = setup();
    repo.trades = [
      {
        duelId: '0xd1',
        optionIndex: 0,
        side: 'buy',
        collateral: U.toString(),
        shares: U.toString(),
        createdAt: iso(Date.UTC(2026, 10, 20, 23)),
      },
    ];
    const chart = await service.pnlChart({ userAddress: ALICE, callerAddress: ALICE, timeRange: 'ALL' });
    expect(chart.from).toBe(iso(Date.UTC(2026, 10, 20)));
    expect(chart.points).toHaveLength(9);
  });
});
