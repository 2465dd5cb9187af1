import { z } from 'zod';
import {
  AddressSchema,
  AmountSchema,
  Bytes32Schema,
  SignedAmountSchema,
  TimestampSchema,
} from '../common/primitives.js';

/** Base units per share, 18 decimals, e.g. "1.000000000000000000". */
export const SharePriceSchema = z
  .string()
  .regex(/^[0-9]+\.[0-9]{18}$/)
  .describe('Base units per share (18 decimals)');

export const LpPoolSchema = z.object({
  asset: z.enum(['credits', 'usdc']),
  decimals: z.number().int(),
  cash: AmountSchema,
  expectedLiability: AmountSchema,
  nav: AmountSchema,
  totalShares: AmountSchema,
  sharePrice: SharePriceSchema,
  lockedExposure: AmountSchema,
  freeLiquidity: AmountSchema,
  maxTicketPayout: AmountSchema,
  liveQuotes: z.number().int(),
  openTickets: z.number().int(),
  lockupSeconds: z.number().int(),
  asOf: TimestampSchema,
});

export const LpApySchema = z.object({
  windowDays: z.number().int(),
  from: TimestampSchema,
  to: TimestampSchema,
  realisedResult: SignedAmountSchema,
  nav: AmountSchema,
  apyBps: z
    .string()
    .regex(/^-?[0-9]+$/)
    .describe('Annualised, basis points'),
});

export const LpOutcomeExposureSchema = z.object({
  conditionId: Bytes32Schema,
  outcomeId: z.number().int(),
  marketId: z.string(),
  exposure: AmountSchema,
  cap: AmountSchema,
});

export const LpExposureBreakdownSchema = z.object({
  total: AmountSchema,
  byOutcome: z.array(LpOutcomeExposureSchema),
  byGame: z.array(z.object({ marketId: z.string(), exposure: AmountSchema, cap: AmountSchema })),
});

export const LpBettorExposureSchema = z.object({
  address: AddressSchema,
  total: AmountSchema,
  liveQuotes: z.number().int(),
  openTickets: z.number().int(),
  byOutcome: z.array(LpOutcomeExposureSchema),
});

export const LpPositionSchema = z.object({
  address: AddressSchema,
  shares: AmountSchema,
  value: AmountSchema,
  deposited: AmountSchema,
  withdrawn: AmountSchema,
  pnl: SignedAmountSchema,
  sharePrice: SharePriceSchema,
  lockedUntil: TimestampSchema.nullable(),
});

export const LpAddressParamsSchema = z.object({ address: AddressSchema });

export const LpAddQuoteBodySchema = z.object({ amount: AmountSchema });
export const LpAddQuoteSchema = z.object({
  amount: AmountSchema,
  shares: AmountSchema,
  sharePrice: SharePriceSchema,
  nav: AmountSchema,
  totalShares: AmountSchema,
  lockupSeconds: z.number().int(),
  lockedUntil: TimestampSchema,
});

export const LpRemoveQuoteBodySchema = z.object({ shares: AmountSchema });
export const LpRemoveQuoteSchema = z.object({
  address: AddressSchema,
  shares: AmountSchema,
  amountOut: AmountSchema,
  sharePrice: SharePriceSchema,
  nav: AmountSchema,
  totalShares: AmountSchema,
});

export const LpCompartmentSchema = z.object({
  id: z.string().describe('The ISO week the tickets were placed in, e.g. 2026-W48'),
  startsAt: TimestampSchema,
  endsAt: TimestampSchema,
  status: z.enum(['open', 'closed']).describe('open while it has open tickets or the week has not ended'),
  tickets: z.number().int(),
  openTickets: z.number().int(),
  stake: AmountSchema,
  lockedExposure: AmountSchema.describe('Σ (payout − net stake) of its open tickets'),
  expectedLiability: AmountSchema.describe('Σ expected liability of its open tickets'),
  realisedResult: SignedAmountSchema.describe('Σ pool result of its settled tickets'),
});
export const LpCompartmentListSchema = z.object({
  model: z.literal('weekly-ticket-rounds'),
  compartments: z.array(LpCompartmentSchema),
});
