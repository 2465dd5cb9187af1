import { getAddress } from 'viem';
import { ONE, prices } from '../markets/fpmm.math.js';
import type { AnalyticsRepository } from './analytics.repository.js';
import type { Scope } from './analytics.sql.js';
import type {
  AccountDetails,
  CollateralStack,
  CreatedDuelsPage,
  HistoryPage,
  PnlChart,
  Positions,
  TimeRange,
  TradedDuelsPage,
} from './analytics.types.js';
import { chartWindow } from './chart-window.js';
import { cumulativeAt, realizedEvents } from './pnl-replay.js';
import type { PortfolioRepository } from './portfolio.repository.js';
import type { Clock } from '../../platform/clock.js';

/** Whose portfolio, as whom, over which collateral. */
export interface PortfolioRequest {
  /** Address asked for, any letter case. */
  readonly userAddress: string;
  /** The caller's managed wallet: private markets show only in one's own portfolio. */
  readonly callerAddress: string;
  readonly collateralStack?: CollateralStack | undefined;
}

export interface PortfolioPageRequest extends PortfolioRequest {
  readonly page: number;
  readonly limit: number;
}

function envelope<T>(rows: T[], total: number, req: { page: number; limit: number }) {
  return {
    data: rows,
    pagination: {
      page: req.page,
      limit: req.limit,
      total,
      hasMore: (req.page - 1) * req.limit + rows.length < total,
    },
  };
}

function safePrices(balances: readonly bigint[]): bigint[] {
  try {
    return prices(balances);
  } catch {
    return balances.map(() => 0n); // an emptied pool has no price
  }
}

/**
 * §4.14 portfolio of a wallet. Positions are public on chain, so any signed-in user may read any
 * address; private markets are included only when the address is the caller's own wallet.
 * Definitions: docs/analytics.md.
 */
export class PortfolioService {
  constructor(
    private readonly repo: PortfolioRepository,
    private readonly analytics: AnalyticsRepository,
    private readonly clock: Clock,
  ) {}

  async accountDetails(req: PortfolioRequest): Promise<AccountDetails> {
    const { address, scope } = this.resolve(req);
    const px = await this.analytics.openPrices(scope, address);
    const [s, openPositions, duelsCreated] = await Promise.all([
      this.repo.summary(address, scope, px),
      this.repo.openPositionCount(address, scope),
      this.repo.createdCount(address, scope),
    ]);
    return {
      userAddress: address,
      collateralStack: req.collateralStack ?? null,
      positionValue: s.positionValue,
      openCostBasis: s.openCostBasis,
      realizedPnl: s.realizedPnl,
      unrealizedPnl: s.unrealizedPnl,
      totalPnl: (BigInt(s.realizedPnl) + BigInt(s.unrealizedPnl)).toString(),
      totalVolume: s.totalVolume,
      totalBets: s.totalBets,
      totalTrades: s.totalTrades,
      duelsTraded: s.duelsTraded,
      openPositions,
      duelsCreated,
    };
  }

  async createdDuels(req: PortfolioPageRequest): Promise<CreatedDuelsPage> {
    const { address, scope } = this.resolve(req);
    const { rows, total } = await this.repo.created(address, scope, req.page, req.limit);
    return envelope(rows, total, req);
  }

  async tradedDuels(req: PortfolioPageRequest): Promise<TradedDuelsPage> {
    const { address, scope } = this.resolve(req);
    const px = await this.analytics.openPrices(scope, address);
    const { rows, total } = await this.repo.traded(address, scope, px, req.page, req.limit);
    const data = rows.map((r) => ({
      ...r,
      totalPnl: (BigInt(r.realizedPnl) + BigInt(r.unrealizedPnl)).toString(),
    }));
    return envelope(data, total, req);
  }

  async history(req: PortfolioPageRequest): Promise<HistoryPage> {
    const { address, scope } = this.resolve(req);
    const { rows, total } = await this.repo.history(address, scope, req.page, req.limit);
    const data = rows.map((r) => ({
      ...r,
      optionLabel: r.optionLabel ?? `Option ${r.optionIndex}`,
    }));
    return envelope(data, total, req);
  }

  async pnlChart(req: PortfolioRequest & { timeRange: TimeRange }): Promise<PnlChart> {
    const { address, scope } = this.resolve(req);
    const now = new Date(this.clock.now());
    const [trades, outcomes, details] = await Promise.all([
      this.repo.tradesInChainOrder(address, scope),
      this.repo.outcomes(address, scope),
      this.accountDetails(req),
    ]);
    // A result is booked when the market was resolved, else at its end; never in the future.
    const events = realizedEvents(
      trades.map((t) => ({
        duelId: t.duelId,
        optionIndex: t.optionIndex,
        side: t.side,
        collateral: BigInt(t.collateral),
        shares: BigInt(t.shares),
        at: new Date(t.createdAt),
      })),
      outcomes.map((o) => ({
        duelId: o.duelId,
        status: o.status,
        winningOptionIndex: o.winningOptionIndex,
        at: new Date(Math.min(new Date(o.bookedAt).getTime(), now.getTime())),
      })),
    );
    const first = trades[0] ? new Date(trades[0].createdAt) : null;
    const w = chartWindow(req.timeRange, now, first);
    const values = cumulativeAt(events, w.starts, w.seconds);
    return {
      userAddress: address,
      timeRange: w.timeRange,
      interval: w.interval,
      from: w.from.toISOString(),
      to: w.to.toISOString(),
      collateralStack: req.collateralStack ?? null,
      realizedPnl: details.realizedPnl,
      unrealizedPnl: details.unrealizedPnl,
      totalPnl: details.totalPnl,
      points: w.starts.map((start, i) => ({ time: start.toISOString(), realizedPnl: (values[i] ?? 0n).toString() })),
    };
  }

  async positions(req: PortfolioRequest): Promise<Positions> {
    const { address, scope } = this.resolve(req);
    const rows = await this.repo.heldOptions(address, scope);
    const byDuel = new Map<string, Positions['positions'][number]>();
    const totals = { cost: 0n, value: 0n };
    for (const r of rows) {
      const price = safePrices(r.poolBalances.map((b) => BigInt(b)))[r.optionIndex] ?? 0n;
      const shares = BigInt(r.shares);
      const cost = BigInt(r.costBasis);
      const value = (shares * price) / ONE;
      let duel = byDuel.get(r.duelId);
      if (!duel) {
        duel = {
          duelId: r.duelId,
          question: r.question,
          category: r.category,
          collateralStack: r.collateralStack,
          status: r.status,
          endTime: r.endTime,
          options: [],
          totalCostBasis: '0',
          totalCurrentValue: '0',
          totalUnrealizedPnl: '0',
        };
        byDuel.set(r.duelId, duel);
      }
      duel.options.push({
        optionIndex: r.optionIndex,
        optionLabel: r.options[r.optionIndex] ?? `Option ${r.optionIndex}`,
        shares: r.shares,
        costBasis: r.costBasis,
        price: price.toString(),
        currentValue: value.toString(),
        unrealizedPnl: (value - cost).toString(),
      });
      const duelCost = BigInt(duel.totalCostBasis) + cost;
      const duelValue = BigInt(duel.totalCurrentValue) + value;
      duel.totalCostBasis = duelCost.toString();
      duel.totalCurrentValue = duelValue.toString();
      duel.totalUnrealizedPnl = (duelValue - duelCost).toString();
      totals.cost += cost;
      totals.value += value;
    }
    return {
      address,
      collateralStack: req.collateralStack ?? null,
      positions: [...byDuel.values()],
      totalCostBasis: totals.cost.toString(),
      totalCurrentValue: totals.value.toString(),
      totalUnrealizedPnl: (totals.value - totals.cost).toString(),
    };
  }

  private resolve(req: PortfolioRequest): { address: string; scope: Scope } {
    const address = getAddress(req.userAddress);
    const own = address === getAddress(req.callerAddress);
    return { address, scope: { collateralStack: req.collateralStack, includePrivate: own } };
  }
}
