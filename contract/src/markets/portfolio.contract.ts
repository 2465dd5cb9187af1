import { z } from 'zod';
import { c } from '../common/contract.js';
import { paginated } from '../common/pagination.js';
import {
  AddressSchema,
  AmountSchema,
  CollateralStackSchema,
  DuelIdSchema,
  TimestampSchema,
  TxHashSchema,
} from '../common/primitives.js';
import { meta } from '../common/route-meta.js';
import {
  BodyPaginationShape,
  ChartIntervalSchema,
  CollateralFilterSchema,
  CollateralScopeSchema,
  PnlShape,
  TimeRangeSchema,
} from './analytics.schemas.js';

const tag = 'Portfolio';

const count = z.number().int().min(0);
const userAddress = AddressSchema.describe(
  'Wallet whose portfolio to read (positions are public on chain); private markets only appear for your own address',
);
const DuelStatusSchema = z.enum(['open', 'pending', 'pending_contest', 'settled', 'cancelled']);

export const AccountDetailsRequestSchema = z.object({ userAddress, collateralStack: CollateralFilterSchema }).strict();

export const AccountDetailsSchema = z
  .object({
    userAddress: AddressSchema,
    collateralStack: CollateralScopeSchema,
    positionValue: AmountSchema.describe('Value of open positions at the marginal price'),
    openCostBasis: AmountSchema.describe('Cost basis of open positions'),
    ...PnlShape,
    totalVolume: AmountSchema.describe('Collateral of all their buys and sells'),
    totalBets: count.describe('Buys'),
    totalTrades: count.describe('Buys and sells'),
    duelsTraded: count,
    openPositions: count.describe('Options held with shares > 0 in markets not yet settled or cancelled'),
    duelsCreated: count.describe('Confirmed markets created by this address'),
  })
  .strict();

export const PortfolioListRequestSchema = z
  .object({ userAddress, collateralStack: CollateralFilterSchema, ...BodyPaginationShape })
  .strict();

/** A market the address created. */
export const CreatedDuelRowSchema = z
  .object({
    duelId: DuelIdSchema,
    question: z.string(),
    category: z.string(),
    options: z.array(z.string()),
    collateralStack: CollateralStackSchema,
    isPrivate: z.boolean(),
    status: DuelStatusSchema,
    winningOptionIndex: z.number().int().min(0).nullable(),
    startTime: TimestampSchema,
    endTime: TimestampSchema,
    createdAt: TimestampSchema,
    volume: AmountSchema,
    trades: count,
    traders: count,
    feesGenerated: AmountSchema,
  })
  .strict();

/** One market the address traded, with its profit and loss there. */
export const TradedDuelRowSchema = z
  .object({
    duelId: DuelIdSchema,
    question: z.string(),
    category: z.string(),
    collateralStack: CollateralStackSchema,
    status: DuelStatusSchema,
    winningOptionIndex: z.number().int().min(0).nullable(),
    endTime: TimestampSchema,
    bought: AmountSchema.describe('Collateral paid for buys, fees included'),
    sold: AmountSchema.describe('Collateral received from sells'),
    costBasis: AmountSchema.describe('Cost basis still held'),
    currentValue: AmountSchema.describe(
      'Open market: held shares at the marginal price; settled: winning shares; cancelled: the refund (cost basis)',
    ),
    ...PnlShape,
    trades: count,
    lastTradeAt: TimestampSchema,
  })
  .strict();

/** One executed buy or sell. */
export const HistoryRowSchema = z
  .object({
    txHash: TxHashSchema,
    logIndex: z.number().int().min(0),
    duelId: DuelIdSchema,
    question: z.string(),
    collateralStack: CollateralStackSchema,
    side: z.enum(['buy', 'sell']),
    optionIndex: z.number().int().min(0),
    optionLabel: z.string(),
    collateral: AmountSchema.describe('buy: investment incl. fee; sell: amount returned to the seller'),
    fee: AmountSchema,
    shares: AmountSchema,
    createdAt: TimestampSchema,
  })
  .strict();

export const PnlChartRequestSchema = z
  .object({ userAddress, collateralStack: CollateralFilterSchema, timeRange: TimeRangeSchema.default('1W') })
  .strict();

export const PnlChartSchema = z
  .object({
    userAddress: AddressSchema,
    timeRange: TimeRangeSchema,
    interval: ChartIntervalSchema,
    from: TimestampSchema,
    to: TimestampSchema,
    collateralStack: CollateralScopeSchema,
    ...PnlShape,
    points: z.array(
      z
        .object({
          time: TimestampSchema.describe('Start of the bucket'),
          realizedPnl: PnlShape.realizedPnl.describe('Cumulative realized PnL at the end of the bucket'),
        })
        .strict(),
    ),
  })
  .strict();

export const PositionsParamsSchema = z.object({ address: AddressSchema }).strict();
export const PositionsQuerySchema = z.object({ collateralStack: CollateralFilterSchema }).strict();

export const PositionOptionSchema = z
  .object({
    optionIndex: z.number().int().min(0),
    optionLabel: z.string(),
    shares: AmountSchema,
    costBasis: AmountSchema,
    price: AmountSchema.describe('Marginal price scaled by 10^18'),
    currentValue: AmountSchema.describe('shares × price / 10^18, rounded down'),
    unrealizedPnl: PnlShape.unrealizedPnl,
  })
  .strict();

const positionTotals = {
  totalCostBasis: AmountSchema,
  totalCurrentValue: AmountSchema,
  totalUnrealizedPnl: PnlShape.unrealizedPnl,
};

export const PositionsSchema = z
  .object({
    address: AddressSchema,
    collateralStack: CollateralScopeSchema,
    positions: z.array(
      z
        .object({
          duelId: DuelIdSchema,
          question: z.string(),
          category: z.string(),
          collateralStack: CollateralStackSchema,
          status: DuelStatusSchema,
          endTime: TimestampSchema,
          options: z.array(PositionOptionSchema).describe('Options held with shares > 0'),
          ...positionTotals,
        })
        .strict(),
    ),
    ...positionTotals,
  })
  .strict();

/**
 * §4.14 portfolio of any wallet (positions are public on chain); a signed-in user is required.
 * Private markets appear only when `userAddress` is the caller's own managed wallet.
 */
export const portfolioContract = c.router({
  accountDetails: {
    method: 'POST',
    path: '/svc/user/portfolio/accountDetails',
    body: AccountDetailsRequestSchema,
    responses: { 200: AccountDetailsSchema },
    summary: 'Position value, profit and loss, volume and counts of a wallet',
    metadata: meta(tag, '4.14', 'bearer', { repeatable: true }),
  },
  duels: {
    method: 'POST',
    path: '/svc/user/portfolio/duels',
    body: PortfolioListRequestSchema,
    responses: { 200: paginated(CreatedDuelRowSchema) },
    summary: 'Markets the wallet created, newest first',
    metadata: meta(tag, '4.14', 'bearer', { repeatable: true }),
  },
  duelsTable: {
    method: 'POST',
    path: '/svc/user/portfolio/table/duels',
    body: PortfolioListRequestSchema,
    responses: { 200: paginated(TradedDuelRowSchema) },
    summary: 'Markets the wallet traded with profit and loss per market, most recently traded first',
    metadata: meta(tag, '4.14', 'bearer', { repeatable: true }),
  },
  historyTable: {
    method: 'POST',
    path: '/svc/user/portfolio/table/history',
    body: PortfolioListRequestSchema,
    responses: { 200: paginated(HistoryRowSchema) },
    summary: "The wallet's buys and sells, newest first",
    metadata: meta(tag, '4.14', 'bearer', { repeatable: true }),
  },
  pnlChart: {
    method: 'POST',
    path: '/svc/user/portfolio/pnl-chart',
    body: PnlChartRequestSchema,
    responses: { 200: PnlChartSchema },
    summary: 'Cumulative realized profit and loss per bucket, with current totals',
    metadata: meta(tag, '4.14', 'bearer', { repeatable: true }),
  },
  positions: {
    method: 'GET',
    path: '/svc/user/portfolio/positions/:address',
    pathParams: PositionsParamsSchema,
    query: PositionsQuerySchema,
    responses: { 200: PositionsSchema },
    summary: 'Open positions of a wallet valued at the marginal price',
    metadata: meta(tag, '4.14', 'bearer'),
  },
});
