import { z } from 'zod';
import { AmountSchema, DuelIdSchema, TimestampSchema } from '../common/primitives.js';

/** How far back a price chart reaches; `1M` is 30 days, `ALL` the whole history. */
export const TimeRangeSchema = z
  .enum(['30M', '1H', '6H', '1D', '1W', '1M', 'ALL'])
  .describe('Chart window: 30 minutes, 1 hour, 6 hours, 1 day, 1 week, 1 month (30 days) or the whole history');
export type TimeRange = z.infer<typeof TimeRangeSchema>;

/** Default and maximum number of points one series returns. */
export const PRICE_HISTORY_DEFAULT_LIMIT = 500;
export const PRICE_HISTORY_MAX_LIMIT = 1000;

/** §4.11: the query of every price-history route. */
export const PriceHistoryQuerySchema = z
  .object({
    timeRange: TimeRangeSchema.default('1D').describe(
      'Chart window (default 1D); it picks the bucket width, see docs/price-history.md',
    ),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(PRICE_HISTORY_MAX_LIMIT)
      .default(PRICE_HISTORY_DEFAULT_LIMIT)
      .describe(
        `At most this many points per series, the most recent ones (default ${PRICE_HISTORY_DEFAULT_LIMIT}, at most ${PRICE_HISTORY_MAX_LIMIT})`,
      ),
  })
  .strict();
export type PriceHistoryQuery = z.infer<typeof PriceHistoryQuerySchema>;

export const PriceHistoryDuelParamsSchema = z.object({ duelId: DuelIdSchema }).strict();

export const PriceHistoryParentParamsSchema = z
  .object({ parentMarketId: z.string().uuid().describe('Parent market id (uuid) shared by the child duels') })
  .strict();

/** One point of a price chart: the market's prices at `timestamp`. */
export const PricePointSchema = z
  .object({
    timestamp: TimestampSchema.describe(
      'When these prices held: the last snapshot of its bucket, or the window start for the carried-in starting point',
    ),
    yesPercentage: z.number().min(0).max(100).describe('Price of option 0 in percent, two decimals; display only'),
    prices: z
      .array(AmountSchema)
      .min(2)
      .max(8)
      .describe('Marginal price per option scaled by 1e18 ("1000000000000000000" = 1 collateral unit per share)'),
  })
  .strict();
export type PricePoint = z.infer<typeof PricePointSchema>;

const bucketSeconds = z
  .number()
  .int()
  .positive()
  .describe('Width of one bucket in seconds; each point is the last snapshot of its bucket');

/** Price history of one duel, oldest point first. */
export const PriceHistorySchema = z
  .object({
    duelId: DuelIdSchema,
    timeRange: TimeRangeSchema,
    bucketSeconds,
    points: z
      .array(PricePointSchema)
      .describe('Oldest first. Never empty for a duel with a pool: without snapshots it holds the current price'),
  })
  .strict();
export type PriceHistory = z.infer<typeof PriceHistorySchema>;

/** The price history of one child duel of a parent market. */
export const PriceSeriesSchema = z
  .object({
    duelId: DuelIdSchema,
    question: z.string(),
    options: z.array(z.string()).describe('Option labels; `prices` of every point follow this order'),
    points: z.array(PricePointSchema).describe('Oldest first'),
  })
  .strict();

/** Price histories of every child duel the caller may see, sharing one bucketing. */
export const ParentPriceHistorySchema = z
  .object({
    parentMarketId: z.string().uuid(),
    timeRange: TimeRangeSchema,
    bucketSeconds,
    series: z.array(PriceSeriesSchema).describe('One series per child duel, oldest duel first'),
  })
  .strict();
export type ParentPriceHistory = z.infer<typeof ParentPriceHistorySchema>;
