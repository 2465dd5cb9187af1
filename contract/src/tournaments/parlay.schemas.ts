import { z } from 'zod';
import { AddressSchema, AmountSchema, Bytes32Schema, TimestampSchema } from '../common/primitives.js';

/** Decimal odds as a string with two to 18 decimals, e.g. "2.10". */
export const DecimalOddsSchema = z
  .string()
  .regex(/^[1-9][0-9]*\.[0-9]{2,18}$/)
  .describe('Decimal odds, e.g. "2.10"');

export const ParlayMarketIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, 'must be a market id (the provider fixture id)')
  .describe('Parlay market id: the sports provider fixture id');

export const ConditionKindSchema = z
  .enum(['FULL_TIME_RESULT', 'GOALS_OVER_UNDER', 'ANYTIME_GOALSCORER'])
  .describe('What a condition asks about the game');

export const OpenStateSchema = z.enum(['open', 'closed']).describe('open until closesAt, a lead before kick-off');

export const ParlayMarketSchema = z.object({
  marketId: ParlayMarketIdSchema,
  fixtureId: z.number().int(),
  leagueId: z.number().int(),
  name: z.string(),
  homeTeam: z.string(),
  awayTeam: z.string(),
  startsAt: TimestampSchema,
  closesAt: TimestampSchema,
  status: OpenStateSchema,
});

export const ParlayOutcomeSchema = z.object({
  outcomeId: z.number().int().min(0),
  label: z.string(),
  odds: DecimalOddsSchema,
});

export const ParlayConditionSchema = z.object({
  conditionId: Bytes32Schema,
  marketId: ParlayMarketIdSchema,
  kind: ConditionKindSchema,
  label: z.string(),
  playerId: z.number().int().nullable(),
  status: OpenStateSchema,
  closesAt: TimestampSchema,
  outcomes: z.array(ParlayOutcomeSchema),
});

export const ParlayMarketListSchema = z.object({ markets: z.array(ParlayMarketSchema) });
export const ParlayMarketDetailSchema = ParlayMarketSchema.extend({ conditions: z.array(ParlayConditionSchema) });
export const ParlayPlayerPropsSchema = z.object({
  marketId: ParlayMarketIdSchema,
  props: z.array(ParlayConditionSchema),
});
export const ParlayConditionListSchema = z.object({ conditions: z.array(ParlayConditionSchema) });
export const ParlayConditionsQuerySchema = z.object({ marketId: ParlayMarketIdSchema.optional() });

export const ParlayLegViewSchema = z.object({
  conditionId: Bytes32Schema,
  outcomeId: z.number().int().min(0),
  marketId: ParlayMarketIdSchema,
  kind: ConditionKindSchema,
  label: z.string(),
  outcomeLabel: z.string(),
  odds: DecimalOddsSchema,
});

export const ParlaySgpMenuSchema = z.object({
  marketId: ParlayMarketIdSchema,
  status: OpenStateSchema,
  maxSameGameLegs: z.number().int(),
  rules: z.array(z.string()),
  legs: z.array(ParlayLegViewSchema),
});

export const ParlayOddsSchema = z.object({
  marketId: ParlayMarketIdSchema,
  asOf: TimestampSchema,
  conditions: z.array(
    z.object({
      conditionId: Bytes32Schema,
      status: OpenStateSchema,
      outcomes: z.array(z.object({ outcomeId: z.number().int(), odds: DecimalOddsSchema })),
    }),
  ),
});
export const ParlayOddsParamsSchema = z.object({
  marketId: z
    .string()
    .regex(/^([1-9][0-9]{0,15}|0x[0-9a-fA-F]{1,64})$/, 'a market id or a condition id')
    .describe('A market id, or a condition id for that condition alone'),
});

export const ParlayEuropeanSaturdaySchema = z.object({
  builder: z.literal('european-saturday'),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  legs: z.array(ParlayLegViewSchema),
  combinedOdds: DecimalOddsSchema,
});
export const ParlaySameTeamRunSchema = z.object({
  builder: z.literal('same-team-run'),
  team: z.string(),
  legs: z.array(ParlayLegViewSchema),
  combinedOdds: DecimalOddsSchema,
});
export const ParlaySameTeamRunQuerySchema = z.object({
  team: z
    .string()
    .min(1)
    .max(80)
    .optional()
    .describe('Team name (case-insensitive); default: the home side of the next open game'),
});

/** A leg as a bettor sends it: a condition id (padded to 32 bytes here when shorter) and one of its outcomes. */
export const ParlayLegInputSchema = z.object({
  conditionId: z
    .string()
    .regex(/^0x[0-9a-fA-F]{1,64}$/, 'a condition id: 0x-prefixed hex, up to 32 bytes')
    .describe('bytes32 condition id (shorter hex is left-padded)'),
  outcomeId: z.number().int().min(0).max(255),
});
export const ParlayLegsBodySchema = z.object({ legs: z.array(ParlayLegInputSchema).min(1).max(50) });
export const ParlayLegsValidationSchema = z.object({
  valid: z.literal(true),
  legs: z.array(ParlayLegViewSchema),
  combinedOdds: DecimalOddsSchema,
});

export const ParlayQuoteRequestSchema = z.object({
  bettor: AddressSchema.describe('The wallet that will place the ticket: the caller’s own'),
  legs: z.array(ParlayLegInputSchema).min(1).max(50),
  stake: AmountSchema,
  slippageBps: z.number().int().min(0).max(10_000).optional().describe('Odds drift the bettor accepts, for minOdds'),
});

export const ParlayQuoteMessageSchema = z.object({
  bettor: AddressSchema,
  legs: z
    .array(
      z.object({
        conditionId: Bytes32Schema,
        outcomeId: z.number().int().min(0).max(255),
        odds: z
          .string()
          .regex(/^[1-9][0-9]{18,77}$/)
          .describe(
            'The leg’s decimal odds at the quote, 1e18 fixed point: the ticket re-prices with it when a leg is void',
          ),
      }),
    )
    .min(1)
    .max(50),
  stake: AmountSchema,
  payout: AmountSchema,
  nonce: z.string().regex(/^(0|[1-9][0-9]{0,77})$/),
  expiresAt: z.number().int().min(0).describe('Unix seconds'),
});

export const ParlayTypedDataSchema = z.object({
  domain: z.object({
    name: z.string(),
    version: z.string(),
    chainId: z.number().int(),
    verifyingContract: AddressSchema,
  }),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.literal('ParlayQuote'),
  message: ParlayQuoteMessageSchema,
});

export const ParlayQuoteSchema = z.object({
  quoteId: z.string(),
  bettor: AddressSchema,
  legs: z.array(ParlayLegViewSchema),
  stake: AmountSchema,
  fee: AmountSchema,
  netStake: AmountSchema,
  odds: DecimalOddsSchema,
  minOdds: DecimalOddsSchema,
  payout: AmountSchema,
  exposure: AmountSchema,
  nonce: z.string(),
  expiresAt: TimestampSchema,
  status: z.enum(['quoted', 'expired', 'placed']),
  signer: AddressSchema,
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/),
  typedData: ParlayTypedDataSchema,
});
export const ParlayQuoteParamsSchema = z.object({ quoteId: z.string().regex(/^pq_[0-9a-f]{24}$/, 'a quote id') });

export const ParlayQuoteValidateBodySchema = z.object({
  quote: ParlayQuoteMessageSchema,
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'a 65-byte signature'),
});
export const ParlayQuoteValidationSchema = z.object({
  valid: z.literal(true),
  quoteId: z.string(),
  quotedOdds: DecimalOddsSchema,
  currentOdds: DecimalOddsSchema,
  expiresAt: TimestampSchema,
  secondsLeft: z.number().int(),
});

export const ParlayAddressParamsSchema = z.object({ address: AddressSchema });
export const ParlayNonceSchema = z.object({ address: AddressSchema, nonce: z.string() });

export const ParlayFeesConfigSchema = z.object({
  feeBps: z.number().int(),
  marginBps: z.number().int(),
  decimals: z.number().int(),
  minStake: AmountSchema,
  maxPayout: AmountSchema,
  maxLegs: z.number().int(),
  maxOdds: DecimalOddsSchema,
  quoteTtlSeconds: z.number().int(),
  maxDriftBps: z.number().int(),
});
export const ParlayFeePreviewParamsSchema = z.object({ amount: AmountSchema });
export const ParlayFeePreviewSchema = z.object({
  amount: AmountSchema,
  fee: AmountSchema,
  netStake: AmountSchema,
  feeBps: z.number().int(),
});
