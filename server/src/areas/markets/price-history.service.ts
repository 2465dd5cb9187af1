import { getAddress } from 'viem';
import { percentage } from './fpmm.math.js';
import { DomainError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { DuelRepository } from './duel.repository.js';
import type { MarketAccess } from './market-access.js';
import {
  poolPrices,
  type ChartDuel,
  type PriceSnapshotRepository,
  type SnapshotPoint,
} from './price-snapshot.repository.js';

export type TimeRange = '30M' | '1H' | '6H' | '1D' | '1W' | '1M' | 'ALL';

export interface PriceHistoryQuery {
  readonly timeRange: TimeRange;
  readonly limit: number;
}

export interface PricePoint {
  timestamp: string;
  yesPercentage: number;
  prices: string[];
}

export interface PriceHistory {
  duelId: string;
  timeRange: TimeRange;
  bucketSeconds: number;
  points: PricePoint[];
}

export interface ParentPriceHistory {
  parentMarketId: string;
  timeRange: TimeRange;
  bucketSeconds: number;
  series: { duelId: string; question: string; options: string[]; points: PricePoint[] }[];
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Window and bucket width of every fixed range (docs/price-history.md); `ALL` adapts its bucket. */
export const RANGE_WINDOWS: Record<Exclude<TimeRange, 'ALL'>, { windowSeconds: number; bucketSeconds: number }> = {
  '30M': { windowSeconds: 30 * MINUTE, bucketSeconds: MINUTE },
  '1H': { windowSeconds: HOUR, bucketSeconds: 2 * MINUTE },
  '6H': { windowSeconds: 6 * HOUR, bucketSeconds: 10 * MINUTE },
  '1D': { windowSeconds: DAY, bucketSeconds: 30 * MINUTE },
  '1W': { windowSeconds: 7 * DAY, bucketSeconds: 3 * HOUR },
  '1M': { windowSeconds: 30 * DAY, bucketSeconds: 12 * HOUR },
};

/** `ALL` takes the narrowest of these widths that fits the whole history into `limit` buckets. */
export const ALL_BUCKET_LADDER = [
  MINUTE,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  12 * HOUR,
  DAY,
  7 * DAY,
] as const;

/** Width of the periodic snapshot buckets: open markets get a point at least this often. */
export const SCHEDULE_BUCKET_SECONDS = 5 * MINUTE;

/** The `ALL` bucket width for a history spanning `spanSeconds`. */
export function allRangeBucket(spanSeconds: number, limit: number): number {
  const fits = ALL_BUCKET_LADDER.find((w) => Math.floor(spanSeconds / w) + 1 <= limit);
  return fits ?? 7 * DAY;
}

function toPricePoint(at: Date, optionPrices: readonly bigint[]): PricePoint {
  return {
    timestamp: at.toISOString(),
    yesPercentage: percentage(optionPrices[0] ?? 0n),
    prices: optionPrices.map((p) => p.toString()),
  };
}

/** The caller as membership lookups expect it: EIP-55, or absent for an anonymous caller. */
const viewer = (callerAddress: string | null): string | undefined =>
  callerAddress === null ? undefined : getAddress(callerAddress);

function fromSnapshot(at: Date, s: SnapshotPoint): PricePoint {
  return toPricePoint(at, s.optionPrices.map(BigInt));
}

/**
 * Price charts of duels (§4.11): snapshots written by the indexer on every trade and by a periodic
 * job, read back as the last snapshot per time bucket. Rules: docs/price-history.md.
 */
export class PriceHistoryService {
  constructor(
    private readonly duels: DuelRepository,
    private readonly snapshots: PriceSnapshotRepository,
    private readonly access: MarketAccess,
    private readonly clock: Clock,
    private readonly scheduleBucketSeconds = SCHEDULE_BUCKET_SECONDS,
  ) {}

  /**
   * Price history of one duel. `callerAddress` is the caller's managed wallet, or null for an
   * anonymous caller, who never sees a private duel; a private one is shown to its members.
   */
  async duelHistory(duelId: string, query: PriceHistoryQuery, callerAddress: string | null): Promise<PriceHistory> {
    const duel = await this.duels.byDuelId(duelId);
    if (!duel) {
      throw new DomainError(
        'NOT_FOUND',
        `No duel with duelId ${duelId}: pass the on-chain duelId (0x + 64 hex), not the database id`,
        { details: { duelId } },
      );
    }
    if (!(await this.access.canView(duel, viewer(callerAddress)))) {
      throw new DomainError('PRIVATE_MARKET', `Duel ${duel.duelId} is private`, { details: { duelId: duel.duelId } });
    }
    const { bucketSeconds, series } = await this.chart([duel], query);
    return { duelId: duel.duelId, timeRange: query.timeRange, bucketSeconds, points: series[0] ?? [] };
  }

  /** Price histories of every child of a parent market the caller may see, sharing one bucketing. */
  async parentHistory(
    parentMarketId: string,
    query: PriceHistoryQuery,
    callerAddress: string | null,
  ): Promise<ParentPriceHistory> {
    const children = await this.snapshots.children(parentMarketId);
    if (!children.length) {
      throw new DomainError('NOT_FOUND', `No duel has parent market ${parentMarketId}`, {
        details: { parentMarketId },
      });
    }
    const visible: ChartDuel[] = [];
    for (const child of children) if (await this.access.canView(child, viewer(callerAddress))) visible.push(child);
    if (!visible.length) {
      throw new DomainError('PRIVATE_MARKET', `Every duel of parent market ${parentMarketId} is private`, {
        details: { parentMarketId },
      });
    }
    const { bucketSeconds, series } = await this.chart(visible, query);
    return {
      parentMarketId,
      timeRange: query.timeRange,
      bucketSeconds,
      series: visible.map((d, i) => ({
        duelId: d.duelId,
        question: d.question,
        options: d.options,
        points: series[i] ?? [],
      })),
    };
  }

  /**
   * Writes the periodic snapshot of every confirmed open duel with no snapshot in the bucket
   * holding `now`; returns how many it wrote. Safe to retry: a second call in the same bucket
   * writes nothing.
   */
  async snapshotOpenMarkets(now: Date): Promise<number> {
    const width = this.scheduleBucketSeconds * 1000;
    const bucketStart = new Date(Math.floor(now.getTime() / width) * width);
    return this.snapshots.insertScheduled(now, bucketStart);
  }

  /** One series of points per duel, in the order given. */
  private async chart(
    duels: readonly ChartDuel[],
    query: PriceHistoryQuery,
  ): Promise<{ bucketSeconds: number; series: PricePoint[][] }> {
    const now = new Date(this.clock.now());
    const ids = duels.map((d) => d.duelId);
    let from: Date | null;
    let bucketSeconds: number;
    if (query.timeRange === 'ALL') {
      const earliest = await this.snapshots.earliest(ids);
      const span = earliest ? Math.max(0, (now.getTime() - earliest.getTime()) / 1000) : 0;
      bucketSeconds = allRangeBucket(span, query.limit);
      from = null;
    } else {
      const range = RANGE_WINDOWS[query.timeRange];
      bucketSeconds = range.bucketSeconds;
      from = new Date(now.getTime() - range.windowSeconds * 1000);
    }
    const [inWindow, carriedIn] = await Promise.all([
      this.snapshots.lastPerBucket(ids, from ?? new Date(0), bucketSeconds, query.limit),
      from ? this.snapshots.lastBefore(ids, from) : Promise.resolve([]),
    ]);
    const series = duels.map((duel) => {
      const points = inWindow.filter((p) => p.duelId === duel.duelId).map((p) => fromSnapshot(p.createdAt, p));
      const start = carriedIn.find((p) => p.duelId === duel.duelId);
      // The price at the window start is the last one before it: shown at the window start.
      if (start && from) points.unshift(fromSnapshot(from, start));
      if (!points.length) {
        const current = poolPrices(duel.poolBalances.map((b) => BigInt(b)));
        if (current) points.push(toPricePoint(now, current));
      }
      return points.slice(-query.limit);
    });
    return { bucketSeconds, series };
  }
}
