import { z } from 'zod';
import { ErrorCodeSchema } from '../common/errors.js';
import { PaginationQuerySchema, paginated } from '../common/pagination.js';
import { AddressSchema, AmountSchema, DuelIdSchema, TimestampSchema, TxHashSchema } from '../common/primitives.js';
import { DuelSchema, DuelStatusSchema } from './duels.schemas.js';
import { ContestWithAddressSchema, OptionIndexSchema } from './resolution.schemas.js';

const unique = (ids: readonly string[]) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length;

const DuelIdListSchema = (max: number) =>
  z
    .array(DuelIdSchema)
    .min(1)
    .max(max)
    .refine(unique, 'each duelId may appear once')
    .describe(`1–${max} on-chain duel ids, each named once`);

/** A batch of work the admin started: refunds, payouts or cancellations. */
const BatchIdSchema = z.string().uuid().describe('Id of the batch this request started (audit trail)');

/** What a distribution is: a settlement payout or a cancellation refund. */
export const DistributionKindSchema = z
  .enum(['payout', 'refund'])
  .describe('payout: winnings of a settled market; refund: net deposit back after a cancellation');

/** Why a market was cancelled. */
export const CancellationSourceSchema = z
  .enum(['discard', 'bootstrap_threshold', 'unresolved'])
  .describe(
    'discard: an admin discarded it; bootstrap_threshold: too few participants or too little volume by its start; ' +
      'unresolved: not resolved within the grace period after its end',
  );

/** Progress of the payouts or refunds of one market. */
export const DistributionStatusSchema = z
  .object({
    duelId: DuelIdSchema,
    duelStatus: DuelStatusSchema,
    kind: DistributionKindSchema.nullable().describe('null until a distribution was started'),
    participants: z.number().int().min(0).describe('Holders owed something (the creator included)'),
    paid: z.number().int().min(0),
    pending: z.number().int().min(0).describe('Queued or sent, not yet confirmed'),
    failed: z.number().int().min(0).describe('Gave up after retries: use continue-refunds (or auto-distribute again)'),
    totalPaid: AmountSchema.describe('Sum paid so far, as the chain reported it'),
    complete: z.boolean().describe('Every participant paid'),
    cancellation: z
      .object({
        source: CancellationSourceSchema,
        reason: z.string(),
        requestedAt: TimestampSchema,
        txHash: TxHashSchema.nullable(),
      })
      .strict()
      .nullable()
      .describe('How the market was cancelled, when it was cancelled through the admin surface'),
    entries: z
      .array(
        z
          .object({
            holder: AddressSchema,
            isCreator: z.boolean().describe('The creator is paid last: their funding comes from what remains'),
            status: z.enum(['queued', 'submitted', 'paid', 'failed']),
            amount: AmountSchema.nullable().describe('Paid amount once paid; the amount sent while submitted'),
            txHash: TxHashSchema.nullable(),
            attempts: z.number().int().min(0),
            lastError: z.string().nullable(),
          })
          .strict(),
      )
      .describe('One entry per participant, at most one payment each'),
  })
  .strict();

export const AutoDistributeRequestSchema = z
  .object({
    duelIds: DuelIdListSchema(100)
      .optional()
      .describe('Settled markets to pay out; omitted: every settled market with unpaid holders (up to 100)'),
  })
  .strict();

export const AutoDistributeResponseSchema = z
  .object({
    batchId: BatchIdSchema,
    duels: z.array(
      z
        .object({
          duelId: DuelIdSchema,
          enqueued: z.boolean().describe('false when the market is not settled: see `code`/`message`'),
          participants: z.number().int().min(0),
          queued: z.number().int().min(0).describe('Payments queued by this call'),
          alreadyPaid: z.number().int().min(0),
          code: ErrorCodeSchema.optional(),
          message: z.string().optional(),
        })
        .strict(),
    ),
  })
  .strict();

export const CancelExpiredRequestSchema = z
  .object({
    dryRun: z.boolean().default(false).describe('List what would be cancelled without cancelling'),
    limit: z.number().int().min(1).max(100).default(50).describe('At most this many markets per call'),
  })
  .strict();

const ExpiredReasonSchema = z.enum(['bootstrap_threshold', 'unresolved']);

export const CancelExpiredResponseSchema = z
  .object({
    batchId: BatchIdSchema.nullable().describe('null on a dry run'),
    dryRun: z.boolean(),
    results: z.array(
      z.discriminatedUnion('success', [
        z
          .object({
            duelId: DuelIdSchema,
            reason: ExpiredReasonSchema,
            success: z.literal(true),
            txHash: TxHashSchema.nullable().describe('null on a dry run'),
          })
          .strict(),
        z
          .object({
            duelId: DuelIdSchema,
            reason: ExpiredReasonSchema,
            success: z.literal(false),
            code: ErrorCodeSchema,
            message: z.string(),
          })
          .strict(),
      ]),
    ),
  })
  .strict();

export const DiscardRequestSchema = z
  .object({
    duelIds: DuelIdListSchema(50),
    reason: z.string().trim().min(3).max(500).describe('Why the markets are discarded; kept for the audit trail'),
  })
  .strict();

export const DiscardResponseSchema = z
  .object({
    batchId: BatchIdSchema.describe('Refunds follow automatically; follow them with discard-status/{duelId}'),
    results: z.array(
      z.discriminatedUnion('success', [
        z.object({ duelId: DuelIdSchema, success: z.literal(true), txHash: TxHashSchema }).strict(),
        z
          .object({ duelId: DuelIdSchema, success: z.literal(false), code: ErrorCodeSchema, message: z.string() })
          .strict(),
      ]),
    ),
  })
  .strict();

export const AdminFinalizeRequestSchema = z
  .object({
    duelId: DuelIdSchema,
    winningOptionIndex: OptionIndexSchema.optional().describe(
      'The final outcome; omitted: the resolved outcome stands. Admins may correct with or without a contest',
    ),
  })
  .strict();

/** The platform's run-time market timings (POST /duration). */
export const MarketTimingsSchema = z
  .object({
    contestPeriodSeconds: z
      .number()
      .int()
      .min(0)
      .max(30 * 86_400)
      .describe(
        'Contest period of markets created from now on (fixed on chain at creation; 0: resolve settles at once)',
      ),
    publicLeadSeconds: z
      .number()
      .int()
      .min(0)
      .max(30 * 86_400)
      .describe('Minimum lead between creation and start of a public market (its bootstrap window)'),
    privateLeadSeconds: z
      .number()
      .int()
      .min(0)
      .max(30 * 86_400)
      .describe('Minimum lead of a private market'),
    resolutionGraceSeconds: z
      .number()
      .int()
      .min(0)
      .max(365 * 86_400)
      .describe('How long after its end a market may stay unresolved before cancel-expired cancels it'),
  })
  .strict();

export const DurationRequestSchema = MarketTimingsSchema.partial()
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'name at least one timing');

export const DurationResponseSchema = MarketTimingsSchema.extend({
  updatedAt: TimestampSchema.nullable().describe('null while the configured defaults apply'),
  updatedBy: z.string().nullable().describe('Email of the admin who changed them last'),
}).strict();

export const ContinueRefundsResponseSchema = z
  .object({
    duelId: DuelIdSchema,
    requeued: z.number().int().min(0).describe('Refunds put back on the queue'),
    alreadyPaid: z.number().int().min(0).describe('Found paid on chain and recorded, without paying again'),
    status: DistributionStatusSchema,
  })
  .strict();

const RefundSummarySchema = z
  .object({
    participants: z.number().int().min(0),
    paid: z.number().int().min(0),
    pending: z.number().int().min(0),
    failed: z.number().int().min(0),
  })
  .strict();

export const CancelledDuelSchema = z
  .object({
    duelId: DuelIdSchema,
    question: z.string(),
    isPrivate: z.boolean(),
    creatorAddress: AddressSchema,
    endTime: TimestampSchema,
    source: CancellationSourceSchema.nullable().describe('null when cancelled outside the admin surface'),
    reason: z.string().nullable(),
    cancelledAt: TimestampSchema.nullable(),
    refunds: RefundSummarySchema,
  })
  .strict();

export const AdminListQuerySchema = PaginationQuerySchema.strict();

export const ExpiredQuerySchema = PaginationQuerySchema.extend({
  reason: ExpiredReasonSchema.optional().describe('Only this kind of expiry'),
}).strict();

export const ExpiredDuelSchema = z
  .object({
    duelId: DuelIdSchema,
    question: z.string(),
    status: DuelStatusSchema,
    isPrivate: z.boolean(),
    reason: ExpiredReasonSchema,
    startTime: TimestampSchema,
    endTime: TimestampSchema,
    participants: z.number().int().min(0),
    totalVolume: AmountSchema,
  })
  .strict();

export const AdminContestsQuerySchema = PaginationQuerySchema.extend({
  state: z
    .enum(['open', 'closed', 'all'])
    .default('all')
    .describe('open: the market is still in its contest period or awaits finalization; closed: settled or cancelled'),
}).strict();

export const AdminContestSchema = ContestWithAddressSchema.extend({
  question: z.string(),
  duelStatus: DuelStatusSchema,
  resolvedOptionIndex: OptionIndexSchema.nullable(),
  contestEndsAt: TimestampSchema.nullable(),
}).strict();

export const AdminParticipantSchema = z
  .object({
    userAddress: AddressSchema,
    username: z.string().nullable(),
    isCreator: z.boolean(),
    bought: AmountSchema.describe('Collateral paid into the market'),
    sold: AmountSchema.describe('Collateral received from sales'),
    netDeposit: AmountSchema.describe('bought − sold, floored at 0: the refund basis on cancellation'),
    shares: z.array(AmountSchema).describe('Shares held per option'),
    distribution: z
      .object({
        kind: DistributionKindSchema,
        status: z.enum(['queued', 'submitted', 'paid', 'failed']),
        amount: AmountSchema.nullable(),
      })
      .strict()
      .nullable(),
  })
  .strict();

export const PendingDuelsCountSchema = z
  .object({
    awaitingResolution: z.number().int().min(0).describe('Ended (pending, or open past the end) and not resolved'),
    overdue: z.number().int().min(0).describe('Awaiting resolution past the resolution grace period'),
    inContestPeriod: z.number().int().min(0),
    awaitingFinalization: z.number().int().min(0).describe('Contest period over, not yet settled'),
  })
  .strict();

export const BootstrappingLiveQuerySchema = PaginationQuerySchema.extend({
  phase: z
    .enum(['bootstrapping', 'live', 'all'])
    .default('all')
    .describe('bootstrapping: open before its start; live: open between start and end'),
}).strict();

export const BootstrappingLiveItemSchema = z
  .object({
    duel: DuelSchema,
    phase: z.enum(['bootstrapping', 'live']),
    meetsThreshold: z
      .boolean()
      .describe(
        'Whether it has the participants and volume a public market needs by its start (always true if private)',
      ),
  })
  .strict();

export const PendingDuelsResponseSchema = paginated(DuelSchema);
export const CancelledListResponseSchema = paginated(CancelledDuelSchema);
export const ExpiredListResponseSchema = paginated(ExpiredDuelSchema);
export const AdminContestListResponseSchema = paginated(AdminContestSchema);
export const DuelContestsResponseSchema = paginated(ContestWithAddressSchema);
export const AdminParticipantsResponseSchema = paginated(AdminParticipantSchema);
export const BootstrappingLiveResponseSchema = paginated(BootstrappingLiveItemSchema);
