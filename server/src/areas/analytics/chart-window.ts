import type { TimeRange } from './analytics.types.js';

export type ChartInterval = 'hour' | 'day';

/** The buckets of one chart: contiguous, aligned to UTC hours or days, the last one holding `now`. */
export interface ChartWindow {
  readonly timeRange: TimeRange;
  readonly interval: ChartInterval;
  /** Width of a bucket in seconds. */
  readonly seconds: number;
  /** Start of the first bucket (inclusive). */
  readonly from: Date;
  /** End of the last bucket (exclusive). */
  readonly to: Date;
  /** Start of every bucket, oldest first. */
  readonly starts: readonly Date[];
}

const RANGES: Record<TimeRange, { interval: ChartInterval; buckets: number | null }> = {
  '1D': { interval: 'hour', buckets: 24 },
  '1W': { interval: 'hour', buckets: 168 },
  '1M': { interval: 'day', buckets: 30 },
  ALL: { interval: 'day', buckets: null },
};

const SECONDS: Record<ChartInterval, number> = { hour: 3_600, day: 86_400 };

/**
 * The window of a chart ending with the bucket that holds `now`. `ALL` starts with the bucket of
 * `firstActivity` (one bucket when there is none).
 *
 * @example chartWindow('1D', new Date('2026-11-23T10:30:00Z')).from // 2026-11-22T11:00:00Z
 */
export function chartWindow(timeRange: TimeRange, now: Date, firstActivity?: Date | null): ChartWindow {
  const { interval, buckets } = RANGES[timeRange];
  const seconds = SECONDS[interval];
  const unit = seconds * 1000;
  const current = Math.floor(now.getTime() / unit) * unit;
  let count = buckets ?? 1;
  if (buckets === null && firstActivity && firstActivity.getTime() < current) {
    count = (current - Math.floor(firstActivity.getTime() / unit) * unit) / unit + 1;
  }
  const first = current - (count - 1) * unit;
  const starts = Array.from({ length: count }, (_, i) => new Date(first + i * unit));
  return { timeRange, interval, seconds, from: new Date(first), to: new Date(current + unit), starts };
}
