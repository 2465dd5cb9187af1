import { z } from 'zod';
import { AddressSchema, AmountSchema, HexSchema, TimestampSchema } from '../common/primitives.js';
import { limit, offset } from './tournaments-io.schemas.js';
import { TournamentIdSchema, TournamentStatusSchema } from './tournaments.schemas.js';

const Reason = z.string().trim().min(3).max(500);

export const CancelRequestStatusSchema = z
  .enum(['OPEN', 'REJECTED', 'ACCEPTED'])
  .describe('OPEN until an admin rejects it (REJECTED) or the tournament is cancelled (ACCEPTED)');

export const CancelRequestSchema = z
  .object({
    id: z.string().uuid(),
    tournamentId: TournamentIdSchema,
    wallet: AddressSchema.describe('Who asked'),
    role: z.enum(['creator', 'entrant']),
    reason: z.string(),
    status: CancelRequestStatusSchema,
    createdAt: TimestampSchema,
    decidedAt: TimestampSchema.nullable(),
    decidedBy: z.string().nullable().describe('`admin:<adminId>` or `system:<rule>` once decided'),
    decisionReason: z.string().nullable(),
  })
  .strict();
export type CancelRequestDto = z.infer<typeof CancelRequestSchema>;

export const CreateCancelRequestBodySchema = z
  .object({ reason: Reason.describe('Why the tournament should be cancelled (3–500 characters)') })
  .strict();

export const CancelRequestStateSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    tournamentStatus: TournamentStatusSchema,
    wallet: AddressSchema.nullable().describe('The bearer token’s managed wallet, or `wallet`; null for neither'),
    request: CancelRequestSchema.nullable().describe('The wallet’s latest request'),
    openRequests: z.number().int().min(0).describe('Open requests of everyone for this tournament'),
    canRequest: z.boolean().describe('Whether the wallet may send a request now'),
  })
  .strict();

export const CancelRequestParamsSchema = z.object({ requestId: z.string().uuid() }).strict();

export const CancelRequestListQuerySchema = z
  .object({
    status: CancelRequestStatusSchema.optional(),
    tournamentId: TournamentIdSchema.optional(),
    limit,
    offset,
  })
  .strict();

export const CancelRequestListSchema = z
  .object({ requests: z.array(CancelRequestSchema), total: z.number().int().min(0) })
  .strict();

export const RejectCancelRequestBodySchema = z
  .object({ reason: Reason.describe('Why the request is rejected; shown to the requester') })
  .strict();

export const CancelTournamentBodySchema = z
  .object({ reason: Reason.describe('Why the tournament is cancelled; recorded and shown to entrants') })
  .strict();

export const DiscardTournamentBodySchema = z
  .object({ reason: Reason.optional().describe('Recorded as the cancellation reason when discard cancels') })
  .strict();

export const RefundTableSchema = z
  .object({
    root: HexSchema.describe('Merkle root of the refund distribution'),
    total: AmountSchema.describe('Sum of every refund, base units'),
    leafCount: z.number().int().min(1),
    published: z.boolean().describe('Whether the root is set on the vault (claims need it)'),
    publishTxHash: HexSchema.nullable(),
  })
  .strict()
  .describe('The refund distribution of a cancelled tournament: every recorded deposit not already returned');

export const CancellationSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    status: TournamentStatusSchema,
    alreadyCancelled: z.boolean().describe('true when the tournament was cancelled before this call (nothing changed)'),
    cancelledAt: TimestampSchema,
    reason: z.string(),
    cancelledBy: z.string().describe('`admin:<adminId>` or `system:<rule>`'),
    acceptedRequests: z.number().int().min(0).describe('Open cancel requests granted by this cancellation'),
    refund: RefundTableSchema.nullable().describe('null when nothing was deposited that is still in the pool'),
  })
  .strict();
export type CancellationDto = z.infer<typeof CancellationSchema>;

export const DiscardResultSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    status: TournamentStatusSchema,
    discardedAt: TimestampSchema,
    alreadyDiscarded: z.boolean(),
    cancellation: CancellationSchema.nullable().describe('The cancellation discard made or found (null if completed)'),
  })
  .strict();
export type DiscardResultDto = z.infer<typeof DiscardResultSchema>;

export const SetRefundRootResultSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    kind: z.literal('refund'),
    kindIndex: z.literal(1).describe('PrizeVault kind: 1 = refund'),
    root: HexSchema,
    total: AmountSchema,
    leafCount: z.number().int().min(1),
    poolId: HexSchema,
    vaultAddress: AddressSchema,
    txHash: HexSchema.describe('The setRoot transaction (the same one on every repeat)'),
  })
  .strict();

export const RefundProofQuerySchema = z
  .object({ wallet: AddressSchema.optional().describe('Default: the bearer token’s managed wallet') })
  .strict();

export const CancelledForMinimumSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    entries: z.number().int().min(0),
    minEntriesToActivate: z.number().int().min(0),
  })
  .strict();

export const ProcessTimeoutsResultSchema = z
  .object({
    checkedAt: TimestampSchema,
    cancelled: z
      .array(CancelledForMinimumSchema)
      .describe('Tournaments cancelled by this run: below the minimum at the first lock'),
    stagesLocked: z.number().int().min(0).describe('Stages whose lock time passed, recorded by this run'),
    refundTablesBuilt: z.number().int().min(0).describe('Refund tables of earlier cancellations completed by this run'),
  })
  .strict();
export type ProcessTimeoutsResult = z.infer<typeof ProcessTimeoutsResultSchema>;
