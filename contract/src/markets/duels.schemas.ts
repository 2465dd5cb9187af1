import { z } from 'zod';
import {
  AddressSchema,
  AmountSchema,
  CollateralStackSchema,
  DuelIdSchema,
  SignedAmountSchema,
  TimestampSchema,
  TxHashSchema,
} from '../common/primitives.js';
import { PaginationQuerySchema, paginated } from '../common/pagination.js';

/**
 * Life of a market. `open` covers bootstrapping (before `startTime`) and live trading; `pending`
 * means ended and awaiting resolution; `pending_contest` resolved and inside the contest period;
 * `settled` final; `cancelled` refunded (docs/duel-lifecycle.md).
 */
export const DuelStatusSchema = z
  .enum(['open', 'pending', 'pending_contest', 'settled', 'cancelled'])
  .describe('open (bootstrapping or live), pending (ended, awaiting resolution), pending_contest, settled, cancelled');
export type DuelStatus = z.infer<typeof DuelStatusSchema>;

/** Whether the chain has confirmed what the accepted request asked for. */
export const ChainStateSchema = z
  .enum(['pending', 'confirmed', 'failed'])
  .describe('pending until the chain confirms the write; failed when it reverted after acceptance');

export const DuelTypeSchema = z
  .enum(['PREDICTION', 'VERSUS'])
  .describe('PREDICTION (yes/no style question) or VERSUS (named sides)');

/** A bare boolean flag in a query string: `true`/`false` (also `1`/`0`). */
export const QueryBooleanSchema = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .describe('true or false');

const OptionLabelSchema = z.string().trim().min(1).max(60);

/** A market ("duel") as every read returns it. Amounts are base-unit strings; times ISO-8601. */
export const DuelSchema = z
  .object({
    id: z.string().uuid().describe('Database row id. Never pass it where a duelId is expected'),
    duelId: DuelIdSchema,
    question: z.string(),
    description: z.string().nullable(),
    category: z.string(),
    tags: z.array(z.string()),
    options: z.array(z.string()).min(2).max(8).describe('Option labels; index 0 is YES for prediction markets'),
    duelType: DuelTypeSchema,
    collateralStack: CollateralStackSchema,
    isPrivate: z.boolean(),
    leagueId: z.string().nullable(),
    parentMarketId: z.string().uuid().nullable(),
    coverImageUrl: z.string().nullable(),
    creatorAddress: AddressSchema.describe('Managed wallet of the creator'),
    startTime: TimestampSchema,
    endTime: TimestampSchema,
    createdAt: TimestampSchema,
    status: DuelStatusSchema,
    chainState: ChainStateSchema,
    txHash: TxHashSchema.nullable().describe('Transaction that created the market on chain'),
    chainError: z.string().nullable().describe('Why the chain rejected the creation, when chainState is failed'),
    winningOptionIndex: z.number().int().min(0).nullable(),
    poolBalances: z.array(AmountSchema).describe('Market-maker pool balance per option'),
    prices: z
      .array(AmountSchema)
      .describe('Marginal price per option scaled by 1e18 ("1000000000000000000" = 1 collateral unit per share)'),
    yesPercentage: z.number().min(0).max(100).describe('Price of option 0 in percent, two decimals; display only'),
    totalVolume: AmountSchema.describe('Sum of all trade amounts (buys and sells)'),
    uniqueParticipants: z.number().int().min(0),
    extMarketId: z.string().nullable().describe('Paired external market of a canonical duel'),
    extMarketVolume24h: AmountSchema.nullable().describe('24 h volume of the paired external market'),
    extLive: z.boolean(),
    isCanonical: z.boolean(),
    userParticipated: z
      .boolean()
      .optional()
      .describe('Whether `userAddress` (query) has traded this market; present only when it was given'),
  })
  .strict();
export type DuelDto = z.infer<typeof DuelSchema>;

/** §4.6: the query shared by every duel list. */
/**
 * A position in a duel list for keyset pagination: the `nextCursor` of the page before, opaque to
 * clients. It belongs to one `sortBy` and `sortOrder`.
 */
export const DuelListCursorSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[A-Za-z0-9_-]+$/, 'is not a cursor this service issued')
  .describe('Opaque keyset position: the nextCursor of the previous page');

export const DuelListQuerySchema = PaginationQuerySchema.extend({
  cursor: DuelListCursorSchema.optional().describe(
    'Continue after the page that returned this nextCursor (same sortBy and sortOrder); `page` is then not used. ' +
      'Unlike page numbers, a cursor neither repeats nor skips rows when duels are added meanwhile. ' +
      'A cursor this service did not issue, or one issued for another sort, is 400 CURSOR_INVALID',
  ),
  collateralStack: CollateralStackSchema.optional(),
  category: z.string().min(1).max(50).optional(),
  status: z.enum(['open', 'pending', 'settled', 'pending_contest']).optional(),
  includePrivate: QueryBooleanSchema.optional().describe('Include private duels; admin tokens only (403 otherwise)'),
  sortBy: z
    .enum(['createdAt', 'startTime', 'endTime', 'extMarketVolume24h'])
    .default('createdAt')
    .describe('extMarketVolume24h lists canonical duels only, ranked by paired volume'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
}).strict();
export type DuelListQuery = z.infer<typeof DuelListQuerySchema>;

export const DuelListResponseSchema = paginated(DuelSchema)
  .extend({
    nextCursor: DuelListCursorSchema.nullable().describe(
      'Pass as `cursor` for the page after this one, with the same sortBy and sortOrder; null on the last page',
    ),
  })
  .strict();

export const CanonicalQuerySchema = z
  .object({
    status: z
      .enum(['live', 'upcoming', 'all'])
      .default('all')
      .describe('live: external live flag set or kickoff passed; upcoming: kickoff ahead; all: every open one'),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .strict();
export const CanonicalResponseSchema = z.object({ data: z.array(DuelSchema) }).strict();

export const DuelIdParamsSchema = z.object({ duelId: DuelIdSchema }).strict();
/**
 * Detail lookups take any id-like string so that a database id gets the spec's 404 (with a
 * message naming the on-chain duelId it expects) rather than a validation error.
 */
export const DuelLookupParamsSchema = z
  .object({
    duelId: z.string().min(1).max(100).describe('On-chain duel id (0x + 64 hex); a database id answers 404 saying so'),
  })
  .strict();
export const LeagueParamsSchema = z
  .object({ leagueId: z.string().min(1).max(100).describe('`default` lists every league') })
  .strict();

export const DuelDetailQuerySchema = z
  .object({ userAddress: AddressSchema.optional().describe('Adds `userParticipated` for this address') })
  .strict();

export const CreateDuelRequestSchema = z
  .object({
    question: z.string().trim().min(3).max(200),
    description: z.string().trim().max(2_000).optional(),
    category: z.string().trim().min(1).max(50),
    tags: z.array(z.string().trim().min(1).max(40)).max(10).optional(),
    options: z
      .array(OptionLabelSchema)
      .min(2)
      .max(8)
      .refine((o) => new Set(o.map((l) => l.toLowerCase())).size === o.length, 'option labels must be unique')
      .optional()
      .describe('2–8 option labels; default ["YES", "NO"]'),
    duelType: DuelTypeSchema.optional().describe('Default PREDICTION'),
    collateralStack: CollateralStackSchema.optional().describe('Default credits; usdc is geo-gated'),
    isPrivate: z.boolean().optional().describe('Private markets are reached by invitation only; default false'),
    leagueId: z.string().trim().min(1).max(100).optional(),
    coverImageUrl: z.string().url().max(2_000).optional(),
    startTime: TimestampSchema.describe(
      'Strictly in the future, at least the lead time ahead (about 31 min public, 5 min private)',
    ),
    endTime: TimestampSchema.describe('After startTime'),
    initialLiquidity: AmountSchema.optional().describe(
      "Collateral the creator's managed wallet seeds the market maker with; default set by the server, at least 5 units",
    ),
  })
  .strict();
export type CreateDuelRequest = z.infer<typeof CreateDuelRequestSchema>;

export const CreateDuelResponseSchema = z
  .object({
    duelId: DuelIdSchema,
    txHash: TxHashSchema,
    chainState: z.literal('pending').describe('Accepted, not final: poll get-duel-by-id until it is confirmed'),
  })
  .strict();

/** One option of a participant's holdings. */
export const ParticipantPositionSchema = z
  .object({
    optionIndex: z.number().int().min(0),
    optionLabel: z.string(),
    shares: AmountSchema,
    costBasis: AmountSchema,
    currentValue: AmountSchema.describe('shares × current marginal price (or the settled payout)'),
  })
  .strict();

export const ParticipantsResponseSchema = z
  .object({
    duelId: DuelIdSchema,
    participants: z.array(
      z
        .object({
          userAddress: AddressSchema,
          username: z.string().nullable(),
          positions: z.array(ParticipantPositionSchema),
          totalCostBasis: AmountSchema,
          totalCurrentValue: AmountSchema,
          pnl: SignedAmountSchema.describe('totalCurrentValue + realized sell returns − total paid'),
        })
        .strict(),
    ),
  })
  .strict();

export const OgMetadataSchema = z
  .object({
    duelId: DuelIdSchema,
    title: z.string(),
    description: z.string(),
    imageUrl: z.string().url(),
    url: z.string().url().describe('Canonical URL of the market'),
    siteName: z.string(),
  })
  .strict();
