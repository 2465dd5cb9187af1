import { z } from 'zod';
import {
  AddressSchema,
  AmountSchema,
  CollateralStackSchema,
  HexSchema,
  TimestampSchema,
  TxHashSchema,
} from '../common/primitives.js';
import { limit, offset } from './tournaments-io.schemas.js';
import { ReasonSchema, TournamentIdSchema, TournamentStatusSchema } from './tournaments.schemas.js';

/*
 * Closing a tournament: dispute windows and disputes, stage settlement, the payout table and its
 * Merkle root, claims, and the automation that drives them (docs/tournaments.md).
 */

export const CloseEmptyBodySchema = z.object({}).strict();

export const MarketParamsSchema = z
  .object({ tournamentId: TournamentIdSchema, marketId: z.string().uuid().describe('A fixture id of the tournament') })
  .strict();
export const StageMarketParamsSchema = z
  .object({ tournamentId: TournamentIdSchema, stageId: z.string().uuid(), marketId: z.string().uuid() })
  .strict();
export const AdminStageParamsSchema = z.object({ stageId: z.string().uuid() }).strict();
export const DisputeParamsSchema = z.object({ disputeId: z.string().uuid() }).strict();

export const MarketResultSchema = z
  .enum(['HOME', 'DRAW', 'AWAY', 'VOID'])
  .describe('A fixture’s full-time result after regular time, or VOID');

export const DisputeWindowSchema = z
  .object({
    opensAt: TimestampSchema.nullable().describe('When the first result arrived; null before'),
    closesAt: TimestampSchema.nullable().describe('null until it can be known (a result is missing)'),
    status: z.enum(['PENDING', 'OPEN', 'CLOSED']).describe('CLOSED also once the stage is settled'),
    overridden: z.boolean().describe('An admin set the end'),
  })
  .strict();

export const DisputeStatusSchema = z
  .enum(['OPEN', 'UPHELD', 'REJECTED', 'EXPIRED'])
  .describe('OPEN until an admin upholds or rejects it, or its deadline passes (EXPIRED: the result stands)');

export const DisputeSchema = z
  .object({
    id: z.string().uuid(),
    tournamentId: TournamentIdSchema,
    stageId: z.string().uuid(),
    marketId: z.string().uuid(),
    wallet: AddressSchema,
    reason: z.string(),
    proposedResult: MarketResultSchema.nullable(),
    status: DisputeStatusSchema,
    originalResult: MarketResultSchema.describe('The result when the dispute was filed'),
    correctedResult: MarketResultSchema.nullable().describe('Set when upheld'),
    resolutionNote: z.string().nullable(),
    resolvedBy: z.string().nullable().describe('The admin’s e-mail, or `automation` for an expiry'),
    createdAt: TimestampSchema,
    expiresAt: TimestampSchema.describe('Undecided by then, the dispute expires'),
    resolvedAt: TimestampSchema.nullable(),
  })
  .strict();

export const DisputeListSchema = z
  .object({ disputes: z.array(DisputeSchema), total: z.number().int().min(0) })
  .strict();

export const FileDisputeRequestSchema = z
  .object({
    reason: z.string().trim().min(10).max(2000).describe('Why the recorded result is wrong'),
    proposedResult: MarketResultSchema.optional().describe('The result the entrant believes is right'),
  })
  .strict();

export const FileDisputeResponseSchema = z.object({ dispute: DisputeSchema }).strict();

export const MarketWindowSchema = z
  .object({
    marketId: z.string().uuid(),
    stageId: z.string().uuid(),
    title: z.string(),
    result: MarketResultSchema.nullable(),
    disputeable: z.boolean().describe('A result is in and the window is open'),
    window: DisputeWindowSchema,
  })
  .strict();

export const MarketDisputeWindowSchema = MarketWindowSchema.extend({ tournamentId: TournamentIdSchema }).strict();

export const StageDisputeWindowSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    stageId: z.string().uuid(),
    stageIndex: z.number().int().min(1),
    settled: z.boolean(),
    settledAt: TimestampSchema.nullable(),
    window: DisputeWindowSchema,
  })
  .strict();

export const DisputeWindowsSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    defaults: z
      .object({
        marketHours: z.number().describe('A market’s window after its result'),
        finalHours: z.number().describe('The final window after the final stage settles'),
        resolveHours: z.number().describe('An admin’s time to decide after a window closes'),
      })
      .strict(),
    stages: z.array(
      StageDisputeWindowSchema.omit({ tournamentId: true }).extend({ markets: z.array(MarketWindowSchema) }),
    ),
    final: DisputeWindowSchema,
  })
  .strict();

export const DisputeableMarketsSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    stageId: z.string().uuid(),
    markets: z.array(MarketWindowSchema).describe('Markets of the stage with a result and an open window'),
  })
  .strict();

// ---- admin: disputes ----

export const AdminDisputesQuerySchema = z.object({ status: DisputeStatusSchema.optional(), limit, offset }).strict();
export const AdminDisputeListQuerySchema = AdminDisputesQuerySchema;

export const ResolveDisputeRequestSchema = z
  .object({
    decision: z.enum(['UPHOLD', 'REJECT']),
    correctedResult: MarketResultSchema.optional().describe('Upholding: the right result (default: the proposed one)'),
    note: z.string().trim().max(2000).optional(),
  })
  .strict();

export const ResolveDisputeResponseSchema = z
  .object({
    dispute: DisputeSchema,
    changed: z.boolean().describe('The market’s result changed and the standings were recomputed'),
    result: MarketResultSchema.describe('The market’s result now'),
  })
  .strict();

export const ProcessExpiredResponseSchema = z
  .object({ expired: z.number().int().min(0), disputeIds: z.array(z.string().uuid()) })
  .strict();

export const DisputeStatsSchema = z
  .object({
    total: z.number().int().min(0),
    byStatus: z
      .object({
        OPEN: z.number().int().min(0),
        UPHELD: z.number().int().min(0),
        REJECTED: z.number().int().min(0),
        EXPIRED: z.number().int().min(0),
      })
      .strict(),
    tournamentsWithOpen: z.number().int().min(0),
    oldestOpenAt: TimestampSchema.nullable(),
  })
  .strict();

export const SetWindowRequestSchema = z
  .object({
    endsAt: TimestampSchema.describe('The window’s new end; a time already passed closes it'),
    reason: z.string().trim().max(2000).optional(),
  })
  .strict();

export const FinalWindowSchema = z.object({ tournamentId: TournamentIdSchema, window: DisputeWindowSchema }).strict();

// ---- admin: settlement ----

export const CanProceedSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    stageId: z.string().uuid(),
    stageIndex: z.number().int().min(1),
    canProceed: z.boolean().describe('The stage may settle now (or has settled)'),
    settled: z.boolean(),
    settledAt: TimestampSchema.nullable(),
    reasons: z
      .array(ReasonSchema)
      .describe(
        'What blocks it: TOURNAMENT_CANCELED, PREVIOUS_STAGE_UNSETTLED, MARKETS_UNRESOLVED, DISPUTE_WINDOW_OPEN, DISPUTES_PENDING',
      ),
    unresolvedMarkets: z.array(z.string().uuid()),
    pendingDisputes: z.array(z.string().uuid()),
    window: DisputeWindowSchema,
  })
  .strict();

export const ForceSettleRequestSchema = z
  .object({ reason: z.string().trim().min(3).max(2000).describe('Kept in the audit entry') })
  .strict();

export const SettlementSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    stageId: z.string().uuid(),
    stageIndex: z.number().int().min(1),
    mode: z.enum(['auto', 'force']),
    actor: z.string().describe('`automation`, or the admin’s e-mail'),
    reason: z.string().nullable(),
    settledAt: TimestampSchema,
    overriddenBlockers: z.array(ReasonSchema).describe('What a forced settlement overrode'),
    rejectedDisputes: z.array(z.string().uuid()).describe('Open disputes a forced settlement rejected'),
  })
  .strict();

const StepValueSchema = z.union([
  z.number(),
  z.string(),
  z.array(z.union([z.string(), z.record(z.string(), z.union([z.string(), z.number()]))])),
]);
const StepSummarySchema = z
  .record(z.string(), StepValueSchema)
  .describe('What the step did: counts, times, and the ids (or small records) it touched');

export const SettleReadyResponseSchema = z
  .object({
    checked: z.number().int().min(0).describe('Tournaments with an unsettled stage whose results are all in'),
    settled: z.number().int().min(0),
    stageIds: z.array(z.string().uuid()),
  })
  .strict();

export const AutomationRunSchema = z
  .object({
    runId: z.string().uuid(),
    trigger: z.string().describe('`admin`, `schedule`, or the single step an admin ran'),
    startedAt: TimestampSchema,
    finishedAt: TimestampSchema.nullable(),
    steps: z.record(z.string(), StepSummarySchema).describe('processTimeouts, processExpired, settleReady'),
  })
  .strict();

export const DeadlineSchema = z
  .object({
    kind: z.enum(['MARKET_LOCK', 'RESULT_DUE', 'DISPUTE_WINDOW_CLOSES', 'DISPUTE_EXPIRES', 'FINAL_WINDOW_CLOSES']),
    at: TimestampSchema,
    stageId: z.string().uuid().nullable(),
    marketId: z.string().uuid().nullable(),
    disputeId: z.string().uuid().nullable(),
  })
  .strict();

export const AutomationStatusSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    status: TournamentStatusSchema,
    lastRun: AutomationRunSchema.nullable().describe('The automation’s last run (it runs over every tournament)'),
    nextDeadlines: z.array(DeadlineSchema).describe('The coming deadlines, soonest first'),
    blockers: z.array(
      z
        .object({ stageId: z.string().uuid(), stageIndex: z.number().int().min(1), reasons: z.array(ReasonSchema) })
        .strict(),
    ),
    payout: z
      .object({
        ready: z.boolean().describe('set-root would build the payout table now'),
        reasons: z.array(ReasonSchema),
        rootStatus: z.enum(['none', 'built', 'published']),
      })
      .strict(),
  })
  .strict();

// ---- payouts ----

export const PayoutRowSchema = z
  .object({
    wallet: AddressSchema,
    placement: z.number().int().min(1).nullable(),
    tier: z.string().describe('Champion, Runner-up, Semi-final losers, …'),
    amount: AmountSchema,
    claimed: z.boolean(),
    claimTxHash: TxHashSchema.nullable(),
  })
  .strict();

export const PayoutsSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    status: z
      .enum(['projected', 'built', 'published'])
      .describe(
        'projected: from the current standings, not final; built: the Merkle root exists; published: set on the vault',
      ),
    stakeAsset: CollateralStackSchema,
    prizePool: AmountSchema.describe('Every deposit not refunded'),
    fee: AmountSchema,
    distributable: AmountSchema.describe('prizePool − fee: the sum of the payouts'),
    root: HexSchema.nullable(),
    payouts: z.array(PayoutRowSchema),
  })
  .strict();

export const PayoutStatusSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    rootSet: z.boolean().describe('The payout table and its root are built'),
    rootOnChain: z.boolean().describe('The root is set on the vault'),
    root: HexSchema.nullable(),
    publishTxHash: TxHashSchema.nullable(),
    total: AmountSchema,
    claimedOnChain: AmountSchema.describe('What the vault has paid out of this distribution'),
    leafCount: z.number().int().min(0),
    leavesClaimed: z.number().int().min(0).describe('Claims confirmed through confirm-claim'),
    complete: z.boolean().describe('Every leaf was paid on chain'),
    leaves: z.array(
      z
        .object({
          wallet: AddressSchema,
          amount: AmountSchema,
          claimed: z.boolean(),
          claimTxHash: TxHashSchema.nullable(),
        })
        .strict(),
    ),
  })
  .strict();

export const ClaimProofQuerySchema = z
  .object({ wallet: AddressSchema.optional().describe('Without a bearer token: whose leaf') })
  .strict();

export const ConfirmClaimRequestSchema = z.object({ txHash: TxHashSchema }).strict();

export const ConfirmClaimResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    account: AddressSchema,
    amount: AmountSchema,
    txHash: TxHashSchema,
    claimed: z.literal(true),
    recorded: z.boolean().describe('false when this claim was confirmed before'),
  })
  .strict();

export const SetRootResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    status: z.enum(['built', 'published']),
    root: HexSchema,
    total: AmountSchema,
    fee: AmountSchema,
    leafCount: z.number().int().min(1),
    poolId: HexSchema,
    vaultAddress: AddressSchema,
    payouts: z.array(PayoutRowSchema),
  })
  .strict();

export const PublishRootResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    root: HexSchema,
    total: AmountSchema,
    txHash: TxHashSchema.describe('PrizeVault.setRoot; a repeat answers the same transaction'),
    fee: z
      .object({ amount: AmountSchema, to: AddressSchema, txHash: TxHashSchema.nullable().describe('null when no fee') })
      .strict(),
  })
  .strict();

export const PayoutRootSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    status: z.enum(['none', 'built', 'published']),
    ready: z.boolean().describe('set-root may build the table now'),
    reasons: z.array(ReasonSchema),
    root: HexSchema.nullable(),
    total: AmountSchema,
    leafCount: z.number().int().min(0),
    publishTxHash: TxHashSchema.nullable(),
    onChain: z.object({ root: HexSchema.nullable(), total: AmountSchema, claimed: AmountSchema }).strict().nullable(),
  })
  .strict();
