import { z } from 'zod';
import {
  AddressSchema,
  AmountSchema,
  CollateralStackSchema,
  HexSchema,
  TimestampSchema,
} from '../common/primitives.js';

/** A tournament id: 12 bytes as 24 hex characters, chosen by the creator's client for a paid tournament. */
export const TournamentIdSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{24}$/, 'must be 24 hex characters (12 bytes)')
  .describe('Tournament id: 24 hex characters; for a paid tournament the clientTournamentId');

export const TournamentFormatSchema = z
  .enum(['GROUP_KNOCKOUT', 'KNOCKOUT'])
  .describe('GROUP_KNOCKOUT: a group stage, then a knockout bracket; KNOCKOUT: single elimination from stage 1');
export type TournamentFormat = z.infer<typeof TournamentFormatSchema>;

export const TournamentStatusSchema = z
  .enum(['LIVE', 'COMPLETED', 'CANCELED'])
  .describe('LIVE from creation until the final is decided (COMPLETED) or it is cancelled (CANCELED)');
export type TournamentStatus = z.infer<typeof TournamentStatusSchema>;

export const StageStatusSchema = z
  .enum(['UPCOMING', 'OPEN', 'IN_PLAY', 'COMPLETED'])
  .describe(
    'UPCOMING: the stage before it is not complete; OPEN: picks accepted on fixtures not yet locked; IN_PLAY: every fixture locked, results pending; COMPLETED: every result in',
  );

export const PickOutcomeSchema = z.enum(['HOME', 'DRAW', 'AWAY']).describe('Full-time result after regular time');

export const ChipsSchema = z.number().int().min(0).describe('Chips (whole numbers; not money)');

/** Decimal odds with two decimals, e.g. "2.10". */
export const DecimalOddsSchema = z
  .string()
  .regex(/^\d+\.\d{2}$/)
  .describe('Decimal odds, two decimals');

export const OddsSchema = z
  .object({ home: DecimalOddsSchema, draw: DecimalOddsSchema, away: DecimalOddsSchema })
  .strict()
  .describe('Pre-match full-time-result odds captured when the stage was scheduled');

export const VaultPoolSchema = z
  .object({
    address: AddressSchema.describe('The prize vault of the stake asset'),
    poolId: HexSchema.describe('bytes32 pool id: the tournament id left-padded to 32 bytes'),
  })
  .strict();

export const TournamentConfigSchema = z
  .object({
    stakeAsset: CollateralStackSchema,
    minEntriesToActivate: z.number().int().min(2),
    maxEntrants: z.number().int().min(2),
    chipsPerStage: z.number().int().min(1).describe('Chips per participant per stage, before the stage multiplier'),
    groupSize: z.number().int().min(2),
    advancePerGroup: z.number().int().min(1),
    fixturesPerStage: z.number().int().min(1),
    leagueId: z.number().int().min(1).describe('Provider league the fixtures come from'),
    feeBps: z.number().int().min(0).max(10_000).describe('Platform fee on the prize pool, basis points'),
    payoutBps: z
      .array(z.number().int().min(0).max(10_000))
      .describe('Shares of the distributable pool: champion, runner-up, losers of the round before the final, …'),
  })
  .strict();

export const TournamentSchema = z
  .object({
    id: TournamentIdSchema,
    name: z.string(),
    description: z.string().nullable(),
    sport: z.string(),
    league: z.string().nullable(),
    category: z.string().nullable(),
    gameType: z.enum(['CLASSIC', 'F1_GRID_PREDICTOR']),
    format: TournamentFormatSchema,
    type: z.enum(['PROTOCOL', 'COMMUNITY']),
    status: TournamentStatusSchema,
    stakeAsset: CollateralStackSchema,
    vaultStack: CollateralStackSchema,
    ownerWallet: AddressSchema.describe('The creator (a managed wallet, or the signing wallet of a wallet credential)'),
    entryCount: z.number().int().min(0),
    maxEntrants: z.number().int().min(2),
    minEntriesToActivate: z.number().int().min(2),
    meetsMinimum: z.boolean().describe('entryCount ≥ minEntriesToActivate'),
    entriesOpen: z.boolean().describe('Entries are taken until the first fixture locks'),
    prizePool: AmountSchema.describe('Every buy-in deposited so far, base units'),
    totalStages: z.number().int().min(1),
    currentStageIndex: z.number().int().min(1).nullable().describe('The stage being played; null once finished'),
    startTime: TimestampSchema.describe(
      'First fixture lock: entries close, and below the minimum the tournament is cancelled',
    ),
    endTime: TimestampSchema.describe('Expected end of the final stage’s last fixture'),
    createdAt: TimestampSchema,
    activatedAt: TimestampSchema.nullable().describe('When the first lock passed with enough entries'),
    completedAt: TimestampSchema.nullable(),
    championWallet: AddressSchema.nullable(),
    config: TournamentConfigSchema,
    vault: VaultPoolSchema,
  })
  .strict();
export type TournamentDto = z.infer<typeof TournamentSchema>;

export const FixtureResultSchema = z
  .object({
    outcome: z.enum(['HOME', 'DRAW', 'AWAY', 'VOID']).describe('VOID: cancelled, abandoned or never finished'),
    score: z
      .object({ home: z.number().int().min(0), away: z.number().int().min(0) })
      .strict()
      .nullable(),
    settledAt: TimestampSchema.nullable().describe(
      'When the fixture’s picks were settled; null just after the result arrives',
    ),
  })
  .strict();

export const FixtureSchema = z
  .object({
    id: z.string().uuid(),
    stageId: z.string().uuid(),
    providerFixtureId: z.number().int().describe('The sports-data provider’s fixture id'),
    title: z.string(),
    teamAName: z.string().describe('Home team'),
    teamBName: z.string().describe('Away team'),
    startTime: TimestampSchema.describe('Kick-off'),
    lockTime: TimestampSchema.describe('Picks on this fixture close (kick-off)'),
    endTime: TimestampSchema.describe('Expected full time; results are fetched from then on'),
    expiryTime: TimestampSchema.describe('Without a result by then the fixture is void'),
    status: z.enum(['SCHEDULED', 'LOCKED', 'FINISHED', 'VOID']),
    odds: OddsSchema,
    result: FixtureResultSchema.nullable(),
  })
  .strict();

export const StageSchema = z
  .object({
    id: z.string().uuid(),
    tournamentId: TournamentIdSchema,
    stageIndex: z.number().int().min(1),
    stageName: z.string(),
    kind: z.enum(['GROUP', 'KNOCKOUT']),
    status: StageStatusSchema,
    buyinUsdc: AmountSchema.describe('Buy-in of this stage in base units of the stake asset (the historical name)'),
    multiplier: z.number().int().min(1).describe('Scales the stage’s chips'),
    isFinal: z.boolean(),
    chips: ChipsSchema.describe('Chips each participant starts the stage with (chipsPerStage × multiplier)'),
    participants: z.number().int().min(0).describe('Players of the stage; 0 until it is drawn'),
    startTime: TimestampSchema.describe('First kick-off'),
    lockTime: TimestampSchema.describe('First fixture lock; a paid stage’s deposit is due by then'),
    endTime: TimestampSchema.describe('Expected full time of the last fixture'),
    fixtures: z.array(FixtureSchema),
  })
  .strict();

export const PickSchema = z
  .object({
    id: z.string().uuid(),
    tournamentId: TournamentIdSchema,
    stageId: z.string().uuid(),
    fixtureId: z.string().uuid(),
    wallet: AddressSchema,
    outcome: PickOutcomeSchema,
    stake: ChipsSchema,
    odds: DecimalOddsSchema.describe('Odds the pick was taken at'),
    status: z.enum(['OPEN', 'WON', 'LOST', 'VOID']),
    payout: ChipsSchema.nullable().describe('Chips returned once settled: stake × odds, 0, or the stake on a void'),
    createdAt: TimestampSchema,
    settledAt: TimestampSchema.nullable(),
  })
  .strict();

export const ChipBalanceSchema = z
  .object({
    available: ChipsSchema.describe('Chips that can still be staked'),
    stack: ChipsSchema.describe('Chips standings rank by: open stakes count at face value'),
  })
  .strict();

export const ParticipantStatusSchema = z.enum(['ALIVE', 'ADVANCED', 'ELIMINATED', 'FORFEITED', 'CHAMPION']);

export const StandingSchema = z
  .object({
    rank: z.number().int().min(1),
    wallet: AddressSchema,
    username: z.string().nullable(),
    seed: z.number().int().min(1).describe('Entry order; the better seed wins a tie'),
    group: z.string().nullable(),
    chips: ChipsSchema.describe('The stack'),
    available: ChipsSchema,
    startChips: ChipsSchema,
    picks: z.number().int().min(0),
    wonPicks: z.number().int().min(0),
    paid: z.boolean().describe('False for a participant of a paid stage who has not deposited its buy-in'),
    status: ParticipantStatusSchema,
  })
  .strict();

export const MatchSideSchema = z
  .object({
    wallet: AddressSchema,
    username: z.string().nullable(),
    seed: z.number().int().min(1).describe('Seed in the bracket'),
    chips: ChipsSchema.nullable().describe('Stack in this stage'),
  })
  .strict();

export const MatchSchema = z
  .object({
    slot: z.number().int().min(1),
    a: MatchSideSchema.nullable().describe('null: a bye'),
    b: MatchSideSchema.nullable(),
    winner: AddressSchema.nullable(),
    status: z.enum(['PENDING', 'DECIDED', 'BYE']),
  })
  .strict();

export const LeaderboardRowSchema = z
  .object({
    rank: z.number().int().min(1),
    username: z.string().nullable(),
    wallet: AddressSchema,
    avatarUrl: z.string().nullable(),
    points: z.number().int().min(0).describe('Sum of the final stacks of every stage played'),
    stagesPlayed: z.number().int().min(0),
    status: z.enum(['ALIVE', 'ELIMINATED', 'CHAMPION']),
  })
  .strict();

export const BondSchema = z
  .object({
    wallet: AddressSchema,
    asset: CollateralStackSchema,
    required: AmountSchema,
    deposited: AmountSchema.describe('Bond held in the vault for this wallet'),
    sufficient: z.boolean(),
    locked: z.boolean().describe('A bond cannot be withdrawn while the creator has a LIVE tournament'),
    liveTournaments: z.number().int().min(0),
    vault: AddressSchema,
    poolId: HexSchema.describe('keccak256("duelkit:bond:" + lowercase wallet)'),
  })
  .strict();

export const ReasonSchema = z
  .object({
    code: z.string().describe('Stable reason code (see docs/tournaments.md)'),
    message: z.string(),
  })
  .strict();

export { ContractCallSchema } from '../common/claim-proof.js';
