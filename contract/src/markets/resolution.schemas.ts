import { z } from 'zod';
import { ErrorCodeSchema } from '../common/errors.js';
import { PaginationQuerySchema, paginated } from '../common/pagination.js';
import { AddressSchema, DuelIdSchema, TimestampSchema, TxHashSchema } from '../common/primitives.js';

/** An option of a market: markets have 2–8 options, numbered from 0. */
export const OptionIndexSchema = z.number().int().min(0).max(7).describe('Option index (0-based; markets have 2–8)');

const unique = (ids: readonly string[]) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length;

export const ResolveItemSchema = z
  .object({
    duelId: DuelIdSchema,
    winningOptionIndex: OptionIndexSchema.describe('The option that won'),
  })
  .strict();

/** ResolveDuelDto: a batch of 1–50 markets the caller created, each with its outcome. */
export const ResolveRequestSchema = z
  .object({
    duelIds: z
      .array(ResolveItemSchema)
      .min(1)
      .max(50)
      .refine((items) => unique(items.map((i) => i.duelId)), 'each duelId may appear once')
      .describe('1–50 markets, each named once'),
  })
  .strict();
export type ResolveRequest = z.infer<typeof ResolveRequestSchema>;

/** Outcome of one item of a batch sent to the chain. */
export const ResolveResultSchema = z.discriminatedUnion('success', [
  z
    .object({
      duelId: DuelIdSchema,
      success: z.literal(true),
      txHash: TxHashSchema,
      chainState: z.literal('pending').describe('Accepted, not final: the status moves when the chain confirms'),
    })
    .strict(),
  z
    .object({
      duelId: DuelIdSchema,
      success: z.literal(false),
      code: ErrorCodeSchema,
      message: z.string(),
    })
    .strict(),
]);

export const ResolveResponseSchema = z
  .object({ results: z.array(ResolveResultSchema).describe('One result per requested duel, in request order') })
  .strict();

/** SubmitContestDto. */
export const SubmitContestRequestSchema = z
  .object({
    duelId: DuelIdSchema,
    reason: z.string().trim().min(10).max(1_000).describe('Why the resolution is wrong, 10–1000 characters'),
    proposedOptionIndex: OptionIndexSchema.optional().describe(
      'The outcome the participant believes is right; must differ from the resolved one',
    ),
  })
  .strict();
export type SubmitContestRequest = z.infer<typeof SubmitContestRequestSchema>;

/** A contest as everyone may see it: no addresses. */
export const ContestSchema = z
  .object({
    id: z.string().uuid(),
    duelId: DuelIdSchema,
    reason: z.string(),
    proposedOptionIndex: OptionIndexSchema.nullable(),
    createdAt: TimestampSchema,
  })
  .strict();
export type Contest = z.infer<typeof ContestSchema>;

/** A contest with the participant who filed it (the creator's, the filer's and admins' view). */
export const ContestWithAddressSchema = ContestSchema.extend({
  userAddress: AddressSchema.describe('Managed wallet of the participant who filed it'),
}).strict();
export type ContestWithAddress = z.infer<typeof ContestWithAddressSchema>;

export const ContestListQuerySchema = PaginationQuerySchema.strict();

/** Contests of one market, with the market's contest window. */
export const ContestListResponseSchema = paginated(ContestSchema);
export const ContestWithAddressListResponseSchema = paginated(ContestWithAddressSchema);

export const MyContestResponseSchema = z
  .object({
    duelId: DuelIdSchema,
    contest: ContestWithAddressSchema.nullable().describe('The caller’s contest, or null when they filed none'),
    canContest: z
      .boolean()
      .describe('Whether the caller may file one now: a participant, inside the contest period, none filed yet'),
    contestEndsAt: TimestampSchema.nullable().describe('End of the contest period, once the market is resolved'),
  })
  .strict();

/** FinalizeContestDto. */
export const FinalizeContestRequestSchema = z
  .object({
    duelId: DuelIdSchema,
    winningOptionIndex: OptionIndexSchema.optional().describe(
      'A corrected outcome. The creator may correct only when at least one contest was filed; omitted: the resolved outcome stands',
    ),
  })
  .strict();
export type FinalizeContestRequest = z.infer<typeof FinalizeContestRequestSchema>;

export const FinalizeContestResponseSchema = z
  .object({
    duelId: DuelIdSchema,
    winningOptionIndex: OptionIndexSchema.describe('The final outcome sent to the chain'),
    resolvedOptionIndex: OptionIndexSchema.describe('The outcome named at resolution'),
    corrected: z.boolean().describe('Whether the final outcome differs from the resolved one'),
    contests: z.number().int().min(0).describe('Contests filed during the period'),
    txHash: TxHashSchema,
    chainState: z.literal('pending').describe('Accepted, not final: the duel reads `settled` once the chain confirms'),
  })
  .strict();
