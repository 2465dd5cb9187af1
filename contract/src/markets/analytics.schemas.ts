import { z } from 'zod';
import { MAX_PAGE, MAX_PAGE_SIZE } from '../common/pagination.js';
import { CollateralStackSchema, SignedAmountSchema, TimestampSchema } from '../common/primitives.js';

/**
 * Shapes shared by the analytics areas (§4.10 protocol statistics, §4.12 leaderboards, §4.14
 * portfolio). Definitions of every figure: docs/analytics.md.
 */

/** Window of a chart: the last day, week or month, or everything since the first trade. */
export const TimeRangeSchema = z
  .enum(['1D', '1W', '1M', 'ALL'])
  .describe(
    'Chart window: 1D = 24 hourly buckets, 1W = 168 hourly buckets, 1M = 30 daily buckets, ALL = daily since the first trade (UTC)',
  );
export type TimeRange = z.infer<typeof TimeRangeSchema>;

/** Width of one chart bucket; buckets are aligned to UTC hours or days. */
export const ChartIntervalSchema = z.enum(['hour', 'day']).describe('Width of one bucket, aligned to UTC');
export type ChartInterval = z.infer<typeof ChartIntervalSchema>;

/** Optional collateral filter; omitted means both collaterals, summed unit for unit. */
export const CollateralFilterSchema = CollateralStackSchema.optional().describe(
  'Only markets of this collateral; omitted = both collaterals, amounts summed unit for unit',
);

/** The collateral a figure was computed for, `null` for both. */
export const CollateralScopeSchema = CollateralStackSchema.nullable().describe(
  'Collateral the figures cover; null = both, summed unit for unit',
);

/** Window and bucketing echoed by every chart. */
export const ChartWindowShape = {
  timeRange: TimeRangeSchema,
  interval: ChartIntervalSchema,
  from: TimestampSchema.describe('Start of the first bucket (inclusive)'),
  to: TimestampSchema.describe('End of the last bucket (exclusive); the last bucket is still filling'),
  collateralStack: CollateralScopeSchema,
};

/** Query of the public charts. */
export const ChartQuerySchema = z
  .object({
    timeRange: TimeRangeSchema.default('1W'),
    collateralStack: CollateralFilterSchema,
  })
  .strict();
export type ChartQuery = z.infer<typeof ChartQuerySchema>;

/** Page and page size of a list requested in a POST body (the portfolio tables). */
export const BodyPaginationShape = {
  page: z.number().int().min(1).max(MAX_PAGE).default(1).describe(`1-based page index, at most ${MAX_PAGE}`),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(20).describe('Page size, at most 100'),
};

/** Profit and loss of one address (definitions in docs/analytics.md). */
export const PnlShape = {
  realizedPnl: SignedAmountSchema.describe(
    'Sell returns + settled payouts + cancelled refunds − cost basis of what was sold, settled or refunded',
  ),
  unrealizedPnl: SignedAmountSchema.describe('Value of open positions at the marginal price − their cost basis'),
  totalPnl: SignedAmountSchema.describe('realizedPnl + unrealizedPnl'),
};
