import { z } from 'zod';
import {
  AddressSchema,
  AmountSchema,
  CollateralStackSchema,
  HexSchema,
  TimestampSchema,
  TxHashSchema,
} from '../common/primitives.js';
import {
  ChipBalanceSchema,
  ContractCallSchema,
  ParticipantStatusSchema,
  ReasonSchema,
  StageSchema,
  StageStatusSchema,
  TournamentFormatSchema,
  TournamentIdSchema,
  TournamentSchema,
} from './tournaments.schemas.js';

/**
 * A whole number in a query string. An empty value is refused rather than read as 0 (which is
 * what `Number('')` gives).
 */
export function queryInt(min: number, max: number) {
  return z.preprocess((v) => (v === '' ? Number.NaN : v), z.coerce.number().int().min(min).max(max));
}

/** Page size and offset of the tournaments host's lists (`{ …, total }` envelopes). */
export const limit = queryInt(1, 100).default(20).describe('Page size, at most 100');
export const offset = queryInt(0, 100_000).default(0).describe('Rows to skip');

export const TournamentParamsSchema = z.object({ tournamentId: TournamentIdSchema }).strict();
export const StageParamsSchema = z.object({ tournamentId: TournamentIdSchema, stageId: z.string().uuid() }).strict();
export const PickParamsSchema = z.object({ tournamentId: TournamentIdSchema, pickId: z.string().uuid() }).strict();
export const AddressParamsSchema = z.object({ address: AddressSchema }).strict();

export const PageQuerySchema = z.object({ limit, offset }).strict();

export const StatusFilterSchema = z
  .enum(['active', 'live', 'completed', 'canceled', 'LIVE', 'COMPLETED', 'CANCELED'])
  .describe('active and live: LIVE (not finished, not cancelled); completed; canceled');

export const ListTournamentsQuerySchema = z
  .object({
    status: StatusFilterSchema.optional(),
    gameType: z.enum(['CLASSIC', 'F1_GRID_PREDICTOR']).optional(),
    sport: z.string().trim().min(1).max(40).optional(),
    ownerWallet: AddressSchema.optional(),
    limit,
    offset,
  })
  .strict();

export const TournamentListSchema = z
  .object({ tournaments: z.array(TournamentSchema), total: z.number().int().min(0) })
  .strict();

export const TournamentDetailSchema = z.object({ tournament: TournamentSchema, stages: z.array(StageSchema) }).strict();

export const StageInputSchema = z
  .object({
    stageIndex: z.number().int().min(1).max(7),
    buyinUsdc: AmountSchema.describe('Buy-in in base units of the stake asset; stage 1 at least 5 units'),
    multiplier: z.number().int().min(1).max(100).default(1),
    isFinal: z.boolean(),
    startTime: TimestampSchema.optional().describe('Fixtures kicking off from here (default: after the stage before)'),
    endTime: TimestampSchema.optional().describe('… until here (default: startTime + TOURNAMENT_STAGE_HOURS)'),
  })
  .strict();

export const CreateTournamentRequestSchema = z
  .object({
    ownerWallet: AddressSchema.optional().describe('Must be the caller’s wallet when given'),
    name: z.string().trim().min(3).max(120),
    description: z.string().trim().max(2_000).optional(),
    type: z.enum(['PROTOCOL', 'COMMUNITY']).default('COMMUNITY'),
    sport: z.enum(['Football']).default('Football'),
    league: z.string().trim().min(1).max(80).optional(),
    category: z.string().trim().min(1).max(50).optional(),
    gameType: z.enum(['CLASSIC']).default('CLASSIC'),
    format: TournamentFormatSchema.default('GROUP_KNOCKOUT'),
    stakeAsset: CollateralStackSchema,
    vaultStack: CollateralStackSchema.optional().describe('Must equal stakeAsset when given'),
    clientTournamentId: TournamentIdSchema.optional().describe('Required: the id the stage-1 deposit was made for'),
    creatorDepositTxHash: TxHashSchema.optional().describe('Required: the vault deposit of the stage-1 buy-in'),
    totalStages: z.number().int().min(1).max(7),
    startTime: TimestampSchema.optional().describe(
      'Start of the stage-1 fixture window (default: now + the start lead)',
    ),
    stages: z.array(StageInputSchema).min(1).max(7),
    config: z
      .object({
        minEntriesToActivate: z.number().int().min(2).max(256),
        stakeAsset: CollateralStackSchema.optional(),
        maxEntrants: z.number().int().min(2).max(256).optional(),
        chipsPerStage: z.number().int().min(1).max(1_000_000).optional(),
        groupSize: z.number().int().min(2).max(16).optional(),
        advancePerGroup: z.number().int().min(1).max(15).optional(),
        fixturesPerStage: z.number().int().min(1).max(20).optional(),
        leagueId: z.number().int().min(1).optional(),
        payoutBps: z.array(z.number().int().min(0).max(10_000)).min(1).max(8).optional(),
      })
      .strict()
      .superRefine((config, ctx) => {
        if (config.maxEntrants !== undefined && config.minEntriesToActivate > config.maxEntrants) {
          const message = `minEntriesToActivate (${config.minEntriesToActivate}) must not exceed maxEntrants (${config.maxEntrants})`;
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['minEntriesToActivate'], message });
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['maxEntrants'], message });
        }
      })
      .describe(
        'minEntriesToActivate must not exceed maxEntrants; without maxEntrants, not the deployment’s limit ' +
          '(TOURNAMENT_MAX_ENTRANTS) nor, for KNOCKOUT, the bracket of totalStages. VALIDATION_FAILED (400) with ' +
          'a field error on both otherwise.',
      ),
  })
  .strict();
export type CreateTournamentRequest = z.infer<typeof CreateTournamentRequestSchema>;

export const CreateTournamentResponseSchema = z
  .object({
    tournament: TournamentSchema,
    stages: z.array(StageSchema),
    created: z.boolean().describe('false when this answers a replay of the same create'),
  })
  .strict();

export const DepositRequestSchema = z
  .object({
    stageIndex: z.number().int().min(1).max(7).optional().describe('Default: the stage the caller has to pay next'),
    stakeAsset: CollateralStackSchema.optional().describe('Required before the tournament exists (paid create)'),
    amount: AmountSchema.optional().describe('Required before the tournament exists: the stage-1 buy-in'),
    execute: z
      .boolean()
      .default(false)
      .describe('Deposit now from the caller’s managed wallet (bearer token) and answer its txHash'),
  })
  .strict();

export const DepositResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    tournamentExists: z.boolean(),
    stageIndex: z.number().int().min(1),
    stakeAsset: CollateralStackSchema,
    amount: AmountSchema,
    decimals: z.literal(18),
    token: AddressSchema.describe('The collateral token'),
    vault: AddressSchema,
    poolId: HexSchema,
    calls: z.array(ContractCallSchema).describe('approve(vault, amount) then deposit(poolId, stage, amount)'),
    executed: z.boolean(),
    txHash: TxHashSchema.nullable().describe('The deposit sent for you (execute: true)'),
  })
  .strict();

export const EnterRequestSchema = z
  .object({
    depositTxHash: TxHashSchema,
    wallet: AddressSchema.optional().describe('Must be the caller’s wallet when given'),
    stageIndex: z.number().int().min(1).max(7).default(1).describe('1 to enter; a later paid stage to pay for it'),
  })
  .strict();

export const EntrySchema = z
  .object({
    wallet: AddressSchema,
    seed: z.number().int().min(1),
    isCreator: z.boolean(),
    enteredAt: TimestampSchema,
    depositTxHash: TxHashSchema,
  })
  .strict();

export const EnterResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    hasEntry: z.literal(true),
    stageIndex: z.number().int().min(1),
    created: z.boolean().describe('false when the same deposit had already been recorded'),
    entry: EntrySchema,
  })
  .strict();

export const WithdrawResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    wallet: AddressSchema,
    refunded: AmountSchema,
    txHash: TxHashSchema.nullable().describe('The release from the vault; null while it is still being sent'),
    hasEntry: z.literal(false),
  })
  .strict();

export const WalletQuerySchema = z
  .object({ wallet: AddressSchema.optional().describe('Whose view, when no bearer token is sent') })
  .strict();

export const EligibilitySchema = z
  .object({
    tournamentId: TournamentIdSchema,
    wallet: AddressSchema.nullable(),
    eligible: z.boolean(),
    stageIndex: z.number().int().min(1),
    buyin: AmountSchema,
    reasons: z.array(ReasonSchema).describe('Every reason the wallet cannot enter now; empty when eligible'),
  })
  .strict();

export const MyStatusSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    wallet: AddressSchema,
    hasEntry: z.boolean(),
    entry: EntrySchema.nullable(),
    stage: z
      .object({
        stageId: z.string().uuid(),
        stageIndex: z.number().int().min(1),
        status: StageStatusSchema,
        chips: ChipBalanceSchema,
        rank: z.number().int().min(1),
        group: z.string().nullable(),
        paid: z.boolean(),
        participantStatus: ParticipantStatusSchema,
      })
      .strict()
      .nullable()
      .describe('The latest stage the caller plays or played'),
    eliminated: z.boolean(),
    eliminatedAtStage: z.number().int().min(1).nullable(),
    champion: z.boolean(),
    canWithdraw: z.boolean(),
  })
  .strict();

export const PayoutTierSchema = z
  .object({
    place: z.number().int().min(1),
    label: z.string(),
    players: z.number().int().min(1),
    shareBps: z.number().int().min(0).describe('Of the distributable pool, for each player of the tier'),
    amountEach: AmountSchema,
  })
  .strict();

export const EstimatePayoutRequestSchema = z
  .object({ entrants: z.number().int().min(1).max(256).optional().describe('Default: the entries so far') })
  .strict();

export const EstimatePayoutResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    stakeAsset: CollateralStackSchema,
    entrants: z.number().int().min(1),
    projectedPool: AmountSchema.describe('Stage-1 buy-ins of every entrant plus later paid stages at full brackets'),
    fee: AmountSchema,
    distributable: AmountSchema,
    tiers: z.array(PayoutTierSchema),
    caller: z
      .object({
        wallet: AddressSchema,
        hasEntry: z.boolean(),
        alive: z.boolean(),
        bestCase: AmountSchema.describe('The champion’s amount, while the caller can still win'),
        guaranteed: AmountSchema.describe('The amount already secured by the round reached'),
      })
      .strict(),
  })
  .strict();

export const PrizePoolSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    stakeAsset: CollateralStackSchema,
    total: AmountSchema,
    feeBps: z.number().int().min(0),
    fee: AmountSchema,
    distributable: AmountSchema,
    byStage: z.array(
      z
        .object({
          stageIndex: z.number().int().min(1),
          buyinUsdc: AmountSchema,
          deposits: z.number().int().min(0),
          amount: AmountSchema,
        })
        .strict(),
    ),
    tiers: z.array(PayoutTierSchema),
    vault: z.object({ address: AddressSchema, poolId: HexSchema, balance: AmountSchema }).strict(),
  })
  .strict();
