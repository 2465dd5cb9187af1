import { z } from 'zod';
import { PaginationQuerySchema, paginated } from '../common/pagination.js';
import {
  AddressSchema,
  AmountSchema,
  Bytes32Schema,
  SignedAmountSchema,
  TimestampSchema,
  TxHashSchema,
} from '../common/primitives.js';

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

/** A ticket id: keccak256(abi.encode(bettor, nonce)), known before the placement is mined. */
export const ParlayTicketIdSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'a ticket id: 0x-prefixed 32 bytes')
  .describe('Ticket id: keccak256(abi.encode(bettor, nonce))');
export const ParlayTicketParamsSchema = z.object({ ticketId: ParlayTicketIdSchema });

export const ParlayTicketStatusSchema = z
  .enum(['open', 'won', 'lost', 'void', 'claimed'])
  .describe('open until settled; won, lost or void (every leg void: the stake is refunded); claimed once paid');

export const ParlayTicketLegSchema = z.object({
  conditionId: Bytes32Schema,
  outcomeId: z.number().int().min(0),
  odds: DecimalOddsSchema,
  result: z
    .enum(['pending', 'won', 'lost', 'void'])
    .describe('pending until the condition’s result is posted on chain'),
});

export const ParlayTicketSchema = z.object({
  ticketId: ParlayTicketIdSchema,
  bettor: AddressSchema,
  nonce: z.string(),
  quoteId: z.string().nullable(),
  legs: z.array(ParlayTicketLegSchema),
  stake: AmountSchema,
  fee: AmountSchema,
  netStake: AmountSchema,
  payout: AmountSchema.describe('The quoted payout (all legs won)'),
  owed: AmountSchema.describe('Once settled: the payout re-priced without void legs, the refunded stake, or 0'),
  status: ParlayTicketStatusSchema,
  claimable: z.boolean(),
  placedTx: TxHashSchema,
  claimTx: TxHashSchema.nullable(),
  placedAt: TimestampSchema,
  settledAt: TimestampSchema.nullable(),
  claimedAt: TimestampSchema.nullable(),
});

export const ParlayTicketStatusViewSchema = z.object({
  ticketId: ParlayTicketIdSchema,
  status: ParlayTicketStatusSchema,
  claimable: z.boolean(),
  legs: z.number().int(),
  legsResulted: z.number().int(),
  owed: AmountSchema,
});

export const ParlayTicketListQuerySchema = PaginationQuerySchema.extend({
  bettor: AddressSchema.optional().describe('Whose tickets; default: the caller’s wallets'),
  status: ParlayTicketStatusSchema.optional(),
});
export const ParlayHistoryQuerySchema = PaginationQuerySchema.extend({
  bettor: AddressSchema.optional().describe('Whose history; default: the caller’s wallets'),
});
export const ParlayTicketListSchema = paginated(ParlayTicketSchema);

export const ParlayWinningsQuerySchema = z.object({
  bettor: AddressSchema.optional().describe('Whose winnings; default: the caller’s wallets'),
});
export const ParlayWinningsSchema = z.object({
  bettors: z.array(AddressSchema),
  won: AmountSchema.describe('Σ owed to won tickets'),
  refunded: AmountSchema.describe('Σ stakes refunded to all-void tickets'),
  claimed: AmountSchema,
  unclaimed: AmountSchema,
  claimable: z.array(ParlayTicketSchema),
});

export const ParlayUserStatsSchema = z.object({
  address: AddressSchema,
  tickets: z.number().int(),
  byStatus: z.object({
    open: z.number().int(),
    won: z.number().int(),
    lost: z.number().int(),
    void: z.number().int(),
    claimed: z.number().int(),
  }),
  staked: AmountSchema,
  fees: AmountSchema,
  won: AmountSchema,
  refunded: AmountSchema,
  pnl: SignedAmountSchema.describe('won + refunded − staked'),
});

export const ParlayFeeStatsSchema = z.object({
  feeBps: z.number().int(),
  earned: AmountSchema.describe('Fees of settled won and lost tickets'),
  pending: AmountSchema.describe('Fees of open tickets (refunded if every leg is void)'),
  refunded: AmountSchema,
  tickets: z.number().int(),
  volume: AmountSchema.describe('Σ stakes'),
});

export const ParlayClaimSchema = z.object({
  ticketId: ParlayTicketIdSchema,
  bettor: AddressSchema,
  amount: AmountSchema,
  txHash: TxHashSchema,
  status: z.literal('submitted').describe('The claim is recorded and sent; the ticket reads claimed once indexed'),
});
