import { z } from 'zod';
import { c } from '../common/contract.js';
import { AmountSchema, CollateralStackSchema, SignedAmountSchema, TimestampSchema } from '../common/primitives.js';
import { meta } from '../common/route-meta.js';

const tag = 'Protocol statistics';

const count = z.number().int().min(0);

/** One stored statistics row: a snapshot of the platform's confirmed public markets. */
export const ProtocolStatsSchema = z
  .object({
    id: z.string().uuid(),
    computedAt: TimestampSchema,
    totalVolume: AmountSchema.describe('Collateral of every buy and sell, both collaterals summed'),
    volume24h: AmountSchema.describe('Volume of the 24 hours before computedAt'),
    previousVolume24h: AmountSchema.describe('Volume of the 24 hours before that (48h–24h ago)'),
    totalFees: AmountSchema,
    totalTrades: count,
    trades24h: count,
    totalUsers: count.describe('Distinct traders'),
    activeUsers24h: count.describe('Distinct traders in the 24 hours before computedAt'),
    totalCreators: count,
    totalDuels: count,
    activeDuels: count.describe('Status open with endTime still ahead'),
    settledDuels: count,
    cancelledDuels: count,
  })
  .strict();
export type ProtocolStats = z.infer<typeof ProtocolStatsSchema>;

export const ProtocolRefreshSchema = z
  .object({
    stats: ProtocolStatsSchema,
    recomputed: z
      .boolean()
      .describe('false when a row computed inside the refresh window was returned instead of a new one'),
    nextRefreshAt: TimestampSchema.describe('Earliest time a refresh computes a new row'),
  })
  .strict();

export const ProtocolSummarySchema = z
  .object({
    computedAt: TimestampSchema,
    previousComputedAt: TimestampSchema.nullable().describe('computedAt of the row before, null when none'),
    volume24h: AmountSchema,
    previousVolume24h: AmountSchema,
    volume24hChange: SignedAmountSchema.describe('volume24h − previousVolume24h'),
    volume24hChangeBps: z
      .number()
      .int()
      .nullable()
      .describe('Change in basis points of previousVolume24h (10000 = +100%); null when previousVolume24h is 0'),
    trades24h: count,
    activeUsers24h: count,
    totalVolume: AmountSchema,
    totalUsers: count,
    activeDuels: count,
    sincePrevious: z
      .object({
        volume: AmountSchema.describe('totalVolume growth since the previous row'),
        trades: count,
        users: count,
        duels: count,
      })
      .strict()
      .nullable()
      .describe('Growth since the previous stored row; null when there is none'),
  })
  .strict();

const breakdown = {
  duels: count,
  volume: AmountSchema,
  fees: AmountSchema,
  trades: count,
  traders: count,
};

export const PlatformReportSchema = z
  .object({
    generatedAt: TimestampSchema,
    totals: z
      .object({ ...breakdown, creators: count })
      .strict()
      .describe('Every confirmed public market, both collaterals summed'),
    byCollateral: z.array(z.object({ collateralStack: CollateralStackSchema, ...breakdown }).strict()),
    byCategory: z.array(z.object({ category: z.string(), ...breakdown }).strict()).describe('Highest volume first'),
    byStatus: z.array(
      z
        .object({ status: z.enum(['open', 'pending', 'pending_contest', 'settled', 'cancelled']), duels: count })
        .strict(),
    ),
  })
  .strict();

/** §4.10 protocol statistics and the platform report. */
export const statsContract = c.router({
  current: {
    method: 'GET',
    path: '/svc/protocol-stats',
    responses: { 200: ProtocolStatsSchema },
    summary: 'The newest stored statistics row (one is computed when none exists yet)',
    metadata: meta(tag, '4.10', 'public'),
  },
  summary: {
    method: 'GET',
    path: '/svc/protocol-stats/summary',
    responses: { 200: ProtocolSummarySchema },
    summary: '24-hour figures and growth since the previous stored row',
    metadata: meta(tag, '4.10', 'public'),
  },
  refresh: {
    method: 'POST',
    path: '/svc/protocol-stats/refresh',
    body: z.object({}).strict(),
    responses: { 201: ProtocolRefreshSchema },
    summary: 'Compute and store a statistics row; at most one per refresh window',
    description:
      'Within the refresh window (docs/analytics.md) the newest row is returned with `recomputed: false`, still 201.',
    metadata: meta(tag, '4.10', 'public', { repeatable: true }),
  },
  platform: {
    method: 'GET',
    path: '/svc/analytics/platform',
    responses: { 200: PlatformReportSchema },
    summary: 'Platform report: totals and breakdowns by collateral, category and status',
    metadata: meta(tag, '4.10', 'public'),
  },
});
