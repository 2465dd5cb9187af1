import { ListCache } from '../markets/duel-list.cache.js';
import type { AnalyticsRepository, RankedPage } from './analytics.repository.js';
import type { Scope } from './analytics.sql.js';
import type {
  ChartQuery,
  CollateralStack,
  CreatorCount,
  CreatorsPage,
  CreatorsPnlPage,
  CreatorsQuery,
  CreatorsPnlQuery,
  GlobalAggregate,
  ParticipantsChart,
  TradersPage,
  TradersPnlPage,
  TradersPnlQuery,
  TradersQuery,
  VolumeChart,
} from './analytics.types.js';
import { chartWindow, type ChartWindow } from './chart-window.js';
import type { Clock } from '../../platform/clock.js';

/** Public boards cover every builder app's public markets: they share one chain. */
function publicScope(collateralStack: CollateralStack | undefined): Scope {
  return { collateralStack, includePrivate: false };
}

function page<T, R>(
  result: RankedPage<T>,
  req: { page: number; limit: number },
  toRow: (row: T, rank: number) => R,
): { data: R[]; pagination: { page: number; limit: number; total: number; hasMore: boolean } } {
  const first = (req.page - 1) * req.limit;
  return {
    data: result.rows.map((row, i) => toRow(row, first + i + 1)),
    pagination: {
      page: req.page,
      limit: req.limit,
      total: result.total,
      hasMore: first + result.rows.length < result.total,
    },
  };
}

function windowFields(w: ChartWindow, collateralStack: CollateralStack | undefined) {
  return {
    timeRange: w.timeRange,
    interval: w.interval,
    from: w.from.toISOString(),
    to: w.to.toISOString(),
    collateralStack: collateralStack ?? null,
  };
}

/**
 * §4.12 leaderboards and charts. Reads are hot and identical for every caller, so each answer
 * is kept for a few seconds (`ttlMs`); the figures are aggregates of the indexer's read model.
 */
export class LeaderboardService {
  private readonly cache: ListCache<object>;

  constructor(
    private readonly repo: AnalyticsRepository,
    private readonly clock: Clock,
    ttlMs = 5_000,
  ) {
    this.cache = new ListCache<object>(ttlMs);
  }

  traders(q: TradersQuery): Promise<TradersPage> {
    return this.cached(['traders', q], async () => {
      const result = await this.repo.traders(publicScope(q.collateralStack), q);
      return page(result, q, (r, rank) => ({ rank, ...r }));
    });
  }

  tradersPnl(q: TradersPnlQuery): Promise<TradersPnlPage> {
    return this.cached(['tradersPnl', q], async () => {
      const scope = publicScope(q.collateralStack);
      const result = await this.repo.tradersPnl(scope, await this.repo.openPrices(scope), q);
      return page(result, q, (r, rank) => ({ rank, ...r }));
    });
  }

  creators(q: CreatorsQuery): Promise<CreatorsPage> {
    return this.cached(['creators', q], async () => {
      const result = await this.repo.creators(publicScope(q.collateralStack), q);
      return page(result, q, (r, rank) => ({ rank, ...r }));
    });
  }

  creatorsPnl(q: CreatorsPnlQuery): Promise<CreatorsPnlPage> {
    return this.cached(['creatorsPnl', q], async () => {
      const scope = publicScope(q.collateralStack);
      const result = await this.repo.creatorsPnl(scope, await this.repo.openPrices(scope), q);
      return page(result, q, (r, rank) => ({ rank, ...r }));
    });
  }

  creatorsCount(collateralStack: CollateralStack | undefined): Promise<CreatorCount> {
    return this.cached(['creatorsCount', collateralStack], async () => ({
      count: await this.repo.countCreators(publicScope(collateralStack)),
      collateralStack: collateralStack ?? null,
    }));
  }

  globalAggregate(collateralStack: CollateralStack | undefined): Promise<GlobalAggregate> {
    return this.cached(['global', collateralStack], async () => {
      const t = await this.repo.totals(publicScope(collateralStack), new Date(this.clock.now()));
      return {
        collateralStack: collateralStack ?? null,
        totalVolume: t.totalVolume,
        totalFees: t.totalFees,
        totalTrades: t.totalTrades,
        totalTraders: t.totalTraders,
        totalCreators: t.totalCreators,
        totalDuels: t.totalDuels,
        openDuels: t.openDuels,
        settledDuels: t.settledDuels,
        cancelledDuels: t.cancelledDuels,
      };
    });
  }

  volumeChart(q: ChartQuery): Promise<VolumeChart> {
    return this.cached(['volumeChart', q], async () => {
      const scope = publicScope(q.collateralStack);
      const w = await this.window(q, scope);
      const rows = new Map((await this.repo.buckets(scope, w.from, w.to, w.seconds)).map((r) => [r.bucket, r]));
      let total = 0n;
      const points = w.starts.map((start) => {
        const r = rows.get(start.getTime() / 1000);
        total += BigInt(r?.volume ?? '0');
        return { time: start.toISOString(), volume: r?.volume ?? '0', trades: r?.trades ?? 0 };
      });
      return { ...windowFields(w, q.collateralStack), totalVolume: total.toString(), points };
    });
  }

  participantsChart(q: ChartQuery): Promise<ParticipantsChart> {
    return this.cached(['participantsChart', q], async () => {
      const scope = publicScope(q.collateralStack);
      const w = await this.window(q, scope);
      const [active, firsts] = await Promise.all([
        this.repo.buckets(scope, w.from, w.to, w.seconds),
        this.repo.firstTradeBuckets(scope, w.from, w.to, w.seconds),
      ]);
      const activeBy = new Map(active.map((r) => [r.bucket, r.traders]));
      const newBy = new Map(firsts.map((r) => [r.bucket, r.n]));
      let cumulative = newBy.get(-1) ?? 0;
      const points = w.starts.map((start) => {
        const key = start.getTime() / 1000;
        const newTraders = newBy.get(key) ?? 0;
        cumulative += newTraders;
        return {
          time: start.toISOString(),
          activeTraders: activeBy.get(key) ?? 0,
          newTraders,
          totalTraders: cumulative,
        };
      });
      return { ...windowFields(w, q.collateralStack), points };
    });
  }

  private async window(q: ChartQuery, scope: Scope): Promise<ChartWindow> {
    const first = q.timeRange === 'ALL' ? await this.repo.firstTradeAt(scope) : null;
    return chartWindow(q.timeRange, new Date(this.clock.now()), first);
  }

  private cached<T extends object>(key: unknown[], load: () => Promise<T>): Promise<T> {
    return this.cache.get(JSON.stringify(key), load) as Promise<T>;
  }
}
