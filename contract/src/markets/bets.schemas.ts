import { z } from 'zod';
import {
  AddressSchema,
  AmountSchema,
  DuelIdSchema,
  SignedAmountSchema,
  TimestampSchema,
  TxHashSchema,
} from '../common/primitives.js';
import { ErrorCodeSchema } from '../common/errors.js';
import { DuelTypeSchema, DuelStatusSchema } from './duels.schemas.js';

const OptionIndexSchema = z.number().int().min(0).max(7).describe('0-based option index');
const SlippageBpsSchema = z
  .number()
  .int()
  .min(0)
  .max(5_000)
  .describe('Accepted slippage in basis points (100 = 1%), at most 5000');
const PricesSchema = z
  .array(AmountSchema)
  .describe('Marginal price per option scaled by 1e18 ("1000000000000000000" = 1 collateral unit per share)');

export const EstimateBuyRequestSchema = z
  .object({
    duelId: DuelIdSchema,
    optionIndex: OptionIndexSchema,
    betAmountUsdc: AmountSchema.describe('Stake in base units (18 decimals); at least 5 units'),
    slippageBps: SlippageBpsSchema,
  })
  .strict();

/** A signed buy quote; pass it back unchanged to place the bet. */
export const BuyEstimateSchema = z
  .object({
    quoteId: z.string().describe('Signature over every other field: an altered estimate is rejected'),
    side: z.literal('buy'),
    trader: AddressSchema.nullable().describe(
      'The managed address this quote was issued to: only that trader may place it (null: a public quote, for pricing only)',
    ),
    duelId: DuelIdSchema,
    optionIndex: OptionIndexSchema,
    amountIn: AmountSchema.describe('The stake, fee included'),
    fee: AmountSchema,
    sharesOut: AmountSchema.describe('Shares the stake buys at the quoted pool state'),
    minSharesOut: AmountSchema.describe('floor(sharesOut × (10000 − slippageBps) / 10000): never above sharesOut'),
    slippageBps: SlippageBpsSchema,
    avgPrice: AmountSchema.describe('amountIn per share, scaled by 1e18'),
    pricesBefore: PricesSchema,
    pricesAfter: PricesSchema,
    priceImpactBps: z.number().int().describe('Change of the bought option’s price, basis points'),
    quotedAt: TimestampSchema,
    expiresAt: TimestampSchema,
  })
  .strict();
export type BuyEstimate = z.infer<typeof BuyEstimateSchema>;

export const EstimateSellRequestSchema = z
  .object({
    duelId: DuelIdSchema,
    optionIndex: OptionIndexSchema,
    shares: AmountSchema.describe('Shares to sell, base units'),
    slippageBps: SlippageBpsSchema,
  })
  .strict();

/** A signed sell quote; pass it back unchanged to sell. */
export const SellEstimateSchema = z
  .object({
    quoteId: z.string().describe('Signature over every other field: an altered estimate is rejected'),
    side: z.literal('sell'),
    trader: AddressSchema.nullable().describe(
      'The managed address this quote was issued to: only that trader may sell with it (null: a public quote, for pricing only)',
    ),
    duelId: DuelIdSchema,
    optionIndex: OptionIndexSchema,
    shares: AmountSchema.describe('Shares offered'),
    sharesIn: AmountSchema.describe('Shares the pool takes for amountOut (at most `shares`)'),
    amountOut: AmountSchema.describe('Collateral the seller receives, fee deducted'),
    minAmountOut: AmountSchema.describe('floor(amountOut × (10000 − slippageBps) / 10000)'),
    fee: AmountSchema,
    slippageBps: SlippageBpsSchema,
    pricesBefore: PricesSchema,
    pricesAfter: PricesSchema,
    priceImpactBps: z.number().int(),
    quotedAt: TimestampSchema,
    expiresAt: TimestampSchema,
  })
  .strict();
export type SellEstimate = z.infer<typeof SellEstimateSchema>;

/** Why an estimate could not be made; the request itself was well formed. */
const EstimateRejectionSchema = z
  .object({
    success: z.literal(false),
    code: ErrorCodeSchema.describe(
      'BET_BELOW_MINIMUM, MARKET_NOT_TRADABLE, BET_LIMIT_EXCEEDED, INSUFFICIENT_SHARES or POOL_TOO_SMALL',
    ),
    message: z.string(),
    details: z.record(z.string(), z.string()).optional(),
  })
  .strict();

export const EstimateBuyResponseSchema = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), estimate: BuyEstimateSchema }).strict(),
  EstimateRejectionSchema,
]);
export const EstimateSellResponseSchema = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), estimate: SellEstimateSchema }).strict(),
  EstimateRejectionSchema,
]);

export const CreateBetRequestSchema = z
  .object({
    estimate: BuyEstimateSchema,
    duelId: DuelIdSchema,
    duelType: DuelTypeSchema,
    bet: z.string().min(1).max(60).describe('Label of the option bought (e.g. YES)'),
    optionIndex: OptionIndexSchema,
    betAmount: AmountSchema,
    betAmountUsdc: AmountSchema.describe('Equal to betAmount and to estimate.amountIn'),
    slippageBps: SlippageBpsSchema,
    tokenDecimals: z.number().int().optional().describe('Decimals of the collateral; must be 18 when sent'),
  })
  .strict();

export const CreateBetResponseSchema = z
  .object({
    success: z.literal(true),
    txHash: TxHashSchema,
    duelId: DuelIdSchema,
    optionIndex: OptionIndexSchema,
    betAmount: AmountSchema,
    expectedSharesOut: AmountSchema.describe('Shares at the live pool state when the bet was sent'),
    minSharesOut: AmountSchema,
    chainState: z.literal('pending').describe('Accepted, not final: poll user-shares or the portfolio'),
  })
  .strict();

export const SellBetRequestSchema = z
  .object({
    estimate: SellEstimateSchema,
    duelId: DuelIdSchema,
    optionIndex: OptionIndexSchema,
    shares: AmountSchema,
    slippageBps: SlippageBpsSchema,
  })
  .strict();

export const SellBetResponseSchema = z
  .object({
    success: z.literal(true),
    txHash: TxHashSchema,
    duelId: DuelIdSchema,
    optionIndex: OptionIndexSchema,
    expectedAmountOut: AmountSchema.describe('Collateral at the live pool state when the sale was sent'),
    maxSharesIn: AmountSchema,
    chainState: z.literal('pending'),
  })
  .strict();

export const EstimatedWinRequestSchema = z
  .object({ duelId: DuelIdSchema, optionIndex: OptionIndexSchema, betAmountUsdc: AmountSchema })
  .strict();
export const EstimatedWinResponseSchema = z
  .object({
    duelId: DuelIdSchema,
    optionIndex: OptionIndexSchema,
    betAmount: AmountSchema,
    sharesOut: AmountSchema,
    estimatedWinAmountUsdc: AmountSchema.describe('Payout if the option wins: one collateral unit per share'),
    estimatedProfit: SignedAmountSchema,
  })
  .strict();

export const DuelIdAddressParamsSchema = z.object({ duelId: DuelIdSchema, address: AddressSchema }).strict();
export const AddressParamsSchema = z.object({ address: AddressSchema }).strict();

export const UserSharesResponseSchema = z
  .object({
    duelId: DuelIdSchema,
    address: AddressSchema,
    shares: z.array(
      z
        .object({
          optionIndex: OptionIndexSchema,
          label: z.string(),
          shares: AmountSchema,
          costBasis: AmountSchema,
          sellValue: AmountSchema.describe('What selling every share would return now'),
        })
        .strict(),
    ),
  })
  .strict();

export const UserBetLimitResponseSchema = z
  .object({
    address: AddressSchema,
    limit: AmountSchema.nullable().describe('Exposure limit across open markets; null when there is none'),
    used: AmountSchema.describe('Cost basis of positions in markets that are not settled or cancelled'),
    remaining: AmountSchema.nullable(),
  })
  .strict();

export const SellUnlockLiquidityResponseSchema = z
  .object({
    duelId: DuelIdSchema,
    status: DuelStatusSchema,
    sellable: z.boolean().describe('Whether sells are accepted now (open and before endTime)'),
    options: z.array(
      z
        .object({
          optionIndex: OptionIndexSchema,
          label: z.string(),
          poolBalance: AmountSchema,
          maxReturn: AmountSchema.describe(
            'Most collateral a sale of this option can release now: floor((min other pool balance − 1) × (10000 − fee) / 10000)',
          ),
        })
        .strict(),
    ),
  })
  .strict();
