import { randomUUID } from 'node:crypto';
import { ListCache } from '../markets/duel-list.cache.js';
import type { AnalyticsRepository, BreakdownRow } from './analytics.repository.js';
import type { Scope } from './analytics.sql.js';
import type { ProtocolStatsRepository } from './protocol-stats.repository.js';
import type {
  CollateralStack,
  PlatformReport,
  ProtocolRefresh,
  ProtocolStats,
  ProtocolSummary,
} from './analytics.types.js';
import type { Clock } from '../../platform/clock.js';

/** Protocol statistics cover every confirmed public market, both collaterals summed. */
const PLATFORM: Scope = { includePrivate: false };

/** A stored row as read back; computedAt is ISO-8601. */
type StoredStats = ProtocolStats;

function breakdown(r: BreakdownRow) {
  return { duels: r.duels, volume: r.volume, fees: r.fees, trades: r.trades, traders: r.traders };
}

/**
 * §4.10 protocol statistics. `refresh` computes a snapshot and inserts it into `protocol_stats`,
 * at most once per `minIntervalSeconds` across all instances (an advisory lock serialises
 * concurrent refreshes; inside the window the newest row is returned). Reads serve the newest
 * stored row.
 */
export class StatsService {
  private readonly cache: ListCache<object>;

  constructor(
    private readonly stored: ProtocolStatsRepository,
    private readonly repo: AnalyticsRepository,
    private readonly clock: Clock,
    private readonly minIntervalSeconds = 30,
    ttlMs = 5_000,
  ) {
    this.cache = new ListCache<object>(ttlMs);
  }

  async refresh(): Promise<ProtocolRefresh> {
    const [seen] = await this.latest(1);
    const result =
      seen && this.withinWindow(seen, new Date(this.clock.now()))
        ? { row: seen, recomputed: false }
        : await this.computeAndStore();
    if (result.recomputed) this.cache.invalidate();
    const computedAt = new Date(result.row.computedAt);
    return {
      stats: result.row,
      recomputed: result.recomputed,
      nextRefreshAt: new Date(computedAt.getTime() + this.minIntervalSeconds * 1000).toISOString(),
    };
  }

  /**
   * Computes first (on its own connection), then stores under the lock unless another refresh
   * stored a row inside the window meanwhile.
   */
  private async computeAndStore(): Promise<{ row: StoredStats; recomputed: boolean }> {
    const now = new Date(this.clock.now());
    const t = await this.repo.totals(PLATFORM, now);
    const row: StoredStats = {
      id: randomUUID(),
      computedAt: now.toISOString(),
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
    };
    return this.stored.storeUnlessFresh(row, now, (latest) => this.withinWindow(latest, now));
  }

  private withinWindow(row: StoredStats, now: Date): boolean {
    return now.getTime() - new Date(row.computedAt).getTime() < this.minIntervalSeconds * 1000;
  }

  /** The newest stored row; the first read on an empty table computes and stores one. */
  current(): Promise<ProtocolStats> {
    return this.cached('current', async () => {
      const [latest] = await this.latest(1);
      return latest ?? (await this.refresh()).stats;
    });
  }

  summary(): Promise<ProtocolSummary> {
    return this.cached('summary', async () => {
      let [latest, previous] = await this.latest(2);
      if (!latest) {
        await this.refresh();
        [latest, previous] = await this.latest(2);
      }
      if (!latest) throw new Error('protocol_stats is empty after a refresh');
      const v24 = BigInt(latest.volume24h);
      const prev24 = BigInt(latest.previousVolume24h);
      const nonNegative = (a: bigint, b: bigint) => (a > b ? a - b : 0n);
      return {
        computedAt: latest.computedAt,
        previousComputedAt: previous?.computedAt ?? null,
        volume24h: latest.volume24h,
        previousVolume24h: latest.previousVolume24h,
        volume24hChange: (v24 - prev24).toString(),
        volume24hChangeBps: prev24 === 0n ? null : Number(((v24 - prev24) * 10_000n) / prev24),
        trades24h: latest.trades24h,
        activeUsers24h: latest.activeUsers24h,
        totalVolume: latest.totalVolume,
        totalUsers: latest.totalUsers,
        activeDuels: latest.activeDuels,
        // Totals only grow in an append-only read model; the clamp keeps the answer in the schema regardless.
        sincePrevious: previous
          ? {
              volume: nonNegative(BigInt(latest.totalVolume), BigInt(previous.totalVolume)).toString(),
              trades: Math.max(0, latest.totalTrades - previous.totalTrades),
              users: Math.max(0, latest.totalUsers - previous.totalUsers),
              duels: Math.max(0, latest.totalDuels - previous.totalDuels),
            }
          : null,
      };
    });
  }

  platform(): Promise<PlatformReport> {
    return this.cached('platform', async () => {
      const [t, byCollateral, byCategory, byStatus] = await Promise.all([
        this.repo.totals(PLATFORM, new Date(this.clock.now())),
        this.repo.breakdown(PLATFORM, 'collateral'),
        this.repo.breakdown(PLATFORM, 'category'),
        this.repo.breakdown(PLATFORM, 'status'),
      ]);
      return {
        generatedAt: new Date(this.clock.now()).toISOString(),
        totals: {
          duels: t.totalDuels,
          volume: t.totalVolume,
          fees: t.totalFees,
          trades: t.totalTrades,
          traders: t.totalTraders,
          creators: t.totalCreators,
        },
        byCollateral: byCollateral.map((r) => ({ collateralStack: r.key as CollateralStack, ...breakdown(r) })),
        byCategory: byCategory.map((r) => ({ category: r.key, ...breakdown(r) })),
        byStatus: byStatus.map((r) => ({
          status: r.key as PlatformReport['byStatus'][number]['status'],
          duels: r.duels,
        })),
      };
    });
  }

  private latest(n: number): Promise<StoredStats[]> {
    return this.stored.latest(n);
  }

  private cached<T extends object>(key: string, load: () => Promise<T>): Promise<T> {
    return this.cache.get(key, load) as Promise<T>;
  }
}
