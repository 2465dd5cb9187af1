import { z } from 'zod';
import { c } from '../common/contract.js';
import { paginated, PaginationQuerySchema } from '../common/pagination.js';
import { AddressSchema, AmountSchema, TimestampSchema } from '../common/primitives.js';
import { meta } from '../common/route-meta.js';
import {
  ChartQuerySchema,
  ChartWindowShape,
  CollateralFilterSchema,
  CollateralScopeSchema,
  PnlShape,
} from './analytics.schemas.js';

const tag = 'Leaderboards';

const rank = z.number().int().min(1).describe('1-based position in the whole ordering, not only this page');
const count = z.number().int().min(0);

const sortOrder = z.enum(['asc', 'desc']).default('desc').describe('desc = best first');

export const TraderLeaderboardQuerySchema = PaginationQuerySchema.extend({
  collateralStack: CollateralFilterSchema,
  sortBy: z.enum(['volume', 'trades']).default('volume'),
  sortOrder,
}).strict();

/** A trader ranked by activity in public markets. */
export const TraderRowSchema = z
  .object({
    rank,
    address: AddressSchema,
    volume: AmountSchema.describe('Collateral of all their buys and sells'),
    trades: count.describe('Buys and sells'),
    duelsTraded: count.describe('Distinct markets they traded'),
    lastTradeAt: TimestampSchema,
  })
  .strict();

export const TraderPnlQuerySchema = PaginationQuerySchema.extend({
  collateralStack: CollateralFilterSchema,
  sortBy: z.enum(['totalPnl', 'realizedPnl', 'unrealizedPnl']).default('totalPnl'),
  sortOrder,
}).strict();

/** A trader ranked by profit and loss in public markets. */
export const TraderPnlRowSchema = z
  .object({ rank, address: AddressSchema, ...PnlShape, volume: AmountSchema })
  .strict();

export const CreatorLeaderboardQuerySchema = PaginationQuerySchema.extend({
  collateralStack: CollateralFilterSchema,
  sortBy: z.enum(['volume', 'duelsCreated', 'traders']).default('volume'),
  sortOrder,
}).strict();

/** A market creator ranked by the activity of their public markets. */
export const CreatorRowSchema = z
  .object({
    rank,
    address: AddressSchema,
    duelsCreated: count.describe('Confirmed public markets they created'),
    settledDuels: count,
    volume: AmountSchema.describe('Trade collateral in their markets'),
    trades: count,
    traders: count.describe('Distinct traders in their markets'),
    feesGenerated: AmountSchema.describe('Trading fees their markets collected (before any split)'),
  })
  .strict();

export const CreatorPnlQuerySchema = PaginationQuerySchema.extend({
  collateralStack: CollateralFilterSchema,
  sortBy: z.enum(['totalPnl', 'realizedPnl', 'unrealizedPnl']).default('totalPnl'),
  sortOrder,
}).strict();

/** A market creator ranked by their own trading profit and loss in public markets. */
export const CreatorPnlRowSchema = z
  .object({
    rank,
    address: AddressSchema,
    duelsCreated: count,
    feesGenerated: AmountSchema,
    ...PnlShape,
  })
  .strict();

export const CollateralQuerySchema = z.object({ collateralStack: CollateralFilterSchema }).strict();

export const CreatorCountSchema = z
  .object({
    count: count.describe('Distinct creators of confirmed public markets'),
    collateralStack: CollateralScopeSchema,
  })
  .strict();

/** Totals over every confirmed public market. */
export const GlobalAggregateSchema = z
  .object({
    collateralStack: CollateralScopeSchema,
    totalVolume: AmountSchema,
    totalFees: AmountSchema,
    totalTrades: count,
    totalTraders: count.describe('Distinct traders'),
    totalCreators: count.describe('Distinct creators'),
    totalDuels: count,
    openDuels: count.describe('Status open, pending or pending_contest'),
    settledDuels: count,
    cancelledDuels: count,
  })
  .strict();

export const VolumePointSchema = z
  .object({
    time: TimestampSchema.describe('Start of the bucket'),
    volume: AmountSchema,
    trades: count,
  })
  .strict();

export const VolumeChartSchema = z
  .object({
    ...ChartWindowShape,
    totalVolume: AmountSchema.describe('Sum over the window'),
    points: z.array(VolumePointSchema),
  })
  .strict();

export const ParticipantsPointSchema = z
  .object({
    time: TimestampSchema.describe('Start of the bucket'),
    activeTraders: count.describe('Distinct traders who traded in the bucket'),
    newTraders: count.describe('Traders whose first trade falls in the bucket'),
    totalTraders: count.describe('Distinct traders up to the end of the bucket'),
  })
  .strict();

export const ParticipantsChartSchema = z
  .object({ ...ChartWindowShape, points: z.array(ParticipantsPointSchema) })
  .strict();

/**
 * §4.12 public leaderboards over the platform's confirmed public markets. Markets live on one
 * chain for every builder app, so no board is filtered by builder app.
 */
export const leaderboardContract = c.router({
  creators: {
    method: 'GET',
    path: '/svc/leaderboard/creators',
    query: CreatorLeaderboardQuerySchema,
    responses: { 200: paginated(CreatorRowSchema) },
    summary: 'Market creators ranked by the volume, market count or traders of their public markets',
    metadata: meta(tag, '4.12', 'public'),
  },
  creatorsCount: {
    method: 'GET',
    path: '/svc/leaderboard/creators/count',
    query: CollateralQuerySchema,
    responses: { 200: CreatorCountSchema },
    summary: 'Number of distinct creators of confirmed public markets',
    metadata: meta(tag, '4.12', 'public'),
  },
  creatorsPnl: {
    method: 'GET',
    path: '/svc/leaderboard/creators/pnl',
    query: CreatorPnlQuerySchema,
    responses: { 200: paginated(CreatorPnlRowSchema) },
    summary: 'Market creators ranked by their own trading profit and loss',
    metadata: meta(tag, '4.12', 'public'),
  },
  traders: {
    method: 'GET',
    path: '/svc/leaderboard/traders',
    query: TraderLeaderboardQuerySchema,
    responses: { 200: paginated(TraderRowSchema) },
    summary: 'Traders ranked by volume or number of trades',
    metadata: meta(tag, '4.12', 'public'),
  },
  tradersPnl: {
    method: 'GET',
    path: '/svc/leaderboard/traders/pnl',
    query: TraderPnlQuerySchema,
    responses: { 200: paginated(TraderPnlRowSchema) },
    summary: 'Traders ranked by realized, unrealized or total profit and loss',
    metadata: meta(tag, '4.12', 'public'),
  },
  globalAggregate: {
    method: 'GET',
    path: '/svc/leaderboard/global-aggregate',
    query: CollateralQuerySchema,
    responses: { 200: GlobalAggregateSchema },
    summary: 'Platform totals: volume, fees, trades, traders, creators and markets by state',
    metadata: meta(tag, '4.12', 'public'),
  },
  participantsChart: {
    method: 'GET',
    path: '/svc/leaderboard/chart/participants',
    query: ChartQuerySchema,
    responses: { 200: ParticipantsChartSchema },
    summary: 'Active, new and cumulative traders per bucket',
    metadata: meta(tag, '4.12', 'public'),
  },
  volumeChart: {
    method: 'GET',
    path: '/svc/leaderboard/chart/volume',
    query: ChartQuerySchema,
    responses: { 200: VolumeChartSchema },
    summary: 'Traded volume and trade count per bucket',
    metadata: meta(tag, '4.12', 'public'),
  },
});
