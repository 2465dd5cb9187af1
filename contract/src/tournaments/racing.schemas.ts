import { z } from 'zod';
import {
  AddressSchema,
  AmountSchema,
  CollateralStackSchema,
  TimestampSchema,
  TxHashSchema,
} from '../common/primitives.js';
import { TournamentIdSchema, TournamentStatusSchema } from './tournaments.schemas.js';
import { PageQuerySchema } from './tournaments-io.schemas.js';

const Id = z.coerce.number().int().min(1).max(2_147_483_647);

export const RaceEventTypeSchema = z
  .enum(['QUALIFYING', 'SPRINT_QUALIFYING', 'SPRINT', 'RACE'])
  .describe('The session: qualifying (top 5 predicted), sprint qualifying (top 5), sprint (top 8), race (top 10)');
export const RaceEventStatusSchema = z
  .enum(['OPEN', 'LIVE', 'FINISHED', 'CANCELLED'])
  .describe(
    'OPEN until the lock time (the session start), LIVE until its results are settled, then FINISHED (or CANCELLED)',
  );
export const RoundStatusSchema = z
  .enum(['UPCOMING', 'LIVE', 'COMPLETED'])
  .describe('UPCOMING before its first session, LIVE until every session is settled, then COMPLETED');
export const SideBetPropSchema = z
  .enum(['FASTEST_LAP', 'SAFETY_CAR', 'DNF_COUNT'])
  .describe(
    'FASTEST_LAP: driverId of the race’s fastest lap; SAFETY_CAR: whether the race has one; DNF_COUNT: retirements in the race',
  );

export const RacingParamsSchema = z.object({ tournamentId: TournamentIdSchema }).strict();
export const RacingRoundParamsSchema = z.object({ tournamentId: TournamentIdSchema, roundId: Id }).strict();
export const RacingEventParamsSchema = z.object({ tournamentId: TournamentIdSchema, eventId: Id }).strict();
export const RacingAddressParamsSchema = z
  .object({ tournamentId: TournamentIdSchema, address: AddressSchema })
  .strict();
export const RacingUserEventParamsSchema = z
  .object({ tournamentId: TournamentIdSchema, address: AddressSchema, eventId: Id })
  .strict();
export const RacingPredictionParamsSchema = z
  .object({ tournamentId: TournamentIdSchema, predictionId: z.string().uuid() })
  .strict();
export const RacingWalletQuerySchema = z
  .object({ wallet: AddressSchema.optional().describe('Whose view, when no bearer token is sent') })
  .strict();
export const RacingPageQuerySchema = PageQuerySchema;
export const ExternalDashboardQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(50).default(20).describe('Tournaments in the feed (newest first)'),
  })
  .strict();

export const RaceEventSchema = z
  .object({
    id: z.number().int(),
    roundId: z.number().int(),
    eventType: RaceEventTypeSchema,
    lockTime: TimestampSchema.describe('Predictions lock here: the session start'),
    startTime: TimestampSchema,
    endTime: TimestampSchema,
    status: RaceEventStatusSchema,
    positions: z.number().int().describe('How many places a prediction lists'),
  })
  .strict();

export const RaceRoundSchema = z
  .object({
    id: z.number().int(),
    roundNumber: z.number().int(),
    gpName: z.string(),
    circuitName: z.string(),
    country: z.string(),
    sprint: z.boolean(),
    status: RoundStatusSchema,
    startDate: TimestampSchema,
    endDate: TimestampSchema,
    events: z.array(RaceEventSchema),
  })
  .strict();

const NextEventSchema = z
  .object({
    eventId: z.number().int(),
    roundId: z.number().int(),
    eventType: RaceEventTypeSchema,
    gpName: z.string(),
    lockTime: TimestampSchema,
  })
  .strict();

const RacingSummaryShape = {
  id: TournamentIdSchema,
  name: z.string(),
  description: z.string().nullable(),
  sport: z.string(),
  gameType: z.literal('F1_GRID_PREDICTOR'),
  status: TournamentStatusSchema,
  stakeAsset: CollateralStackSchema,
  buyinUsdc: AmountSchema.describe('The buy-in in base units, whatever the asset (historical name)'),
  entryCount: z.number().int(),
  prizePool: AmountSchema,
  ownerWallet: AddressSchema,
  seasonId: z.number().int(),
  seasonName: z.string(),
  startsAt: TimestampSchema.describe('The first lock of the season: entries close here'),
  endsAt: TimestampSchema,
  completedAt: TimestampSchema.nullable(),
  minEntriesToActivate: z.number().int(),
  maxEntrants: z.number().int(),
  feeBps: z.number().int(),
  payoutBps: z.array(z.number().int()),
  totalRounds: z.number().int(),
  roundsCompleted: z.number().int(),
  nextEvent: NextEventSchema.nullable(),
};

export const RacingSummarySchema = z.object(RacingSummaryShape).strict();

export const RacingScoringSchema = z
  .object({
    positions: z
      .object({
        QUALIFYING: z.number().int(),
        SPRINT_QUALIFYING: z.number().int(),
        SPRINT: z.number().int(),
        RACE: z.number().int(),
      })
      .strict(),
    exact: z.number().int(),
    inTopN: z.number().int(),
    podium: z.number().int(),
    earlyLockBonusPct: z.number().int(),
    sideBets: z
      .object({ FASTEST_LAP: z.number().int(), SAFETY_CAR: z.number().int(), DNF_COUNT: z.number().int() })
      .strict(),
    eloStart: z.number(),
    eloK: z.number(),
  })
  .strict();

export const RacingTournamentSchema = z.object({ ...RacingSummaryShape, scoring: RacingScoringSchema }).strict();

export const CreateRacingRequestSchema = z
  .object({
    name: z.string().trim().min(3).max(120),
    description: z.string().max(2_000).optional(),
    stakeAsset: CollateralStackSchema,
    buyinUsdc: AmountSchema.describe(
      'The buy-in (at least 5 units), deposited first into the vault pool of clientTournamentId',
    ),
    seasonId: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('The provider’s season; default: the next season that has not started'),
    clientTournamentId: TournamentIdSchema.optional(),
    creatorDepositTxHash: TxHashSchema.optional(),
    minEntriesToActivate: z.number().int().min(2).max(10_000).default(2),
    maxEntrants: z.number().int().min(2).max(10_000).optional(),
    payoutBps: z
      .array(z.number().int().min(0).max(10_000))
      .min(1)
      .max(20)
      .optional()
      .describe('Shares of 1st, 2nd, … in basis points; sum 10000'),
  })
  .strict();

export const CreateRacingResponseSchema = z
  .object({ ...RacingSummaryShape, scoring: RacingScoringSchema, created: z.boolean() })
  .strict();

export const RacingEnterRequestSchema = z
  .object({
    depositTxHash: TxHashSchema,
    wallet: AddressSchema.optional().describe('Must be the caller’s wallet when given'),
  })
  .strict();

export const ReenterRequestSchema = z
  .object({
    depositTxHash: TxHashSchema.optional().describe('A new vault deposit of the buy-in'),
    execute: z.boolean().default(false).describe('With a bearer token: deposit from the managed wallet now'),
  })
  .strict();

export const ReenterResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    wallet: AddressSchema,
    periodStart: TimestampSchema.describe('Sessions starting from here count for the season score'),
    reentries: z.number().int(),
    depositTxHash: TxHashSchema,
    created: z.boolean().describe('false when this deposit had already re-entered'),
  })
  .strict();

export const DriverSchema = z
  .object({
    id: z.number().int(),
    code: z.string(),
    name: z.string(),
    number: z.number().int(),
    teamId: z.number().int(),
    teamName: z.string(),
  })
  .strict();

export const DriversResponseSchema = z
  .object({
    seasonId: z.number().int(),
    drivers: z.array(DriverSchema),
    teams: z.array(z.object({ id: z.number().int(), name: z.string() }).strict()),
  })
  .strict();

export const RoundsResponseSchema = z.object({ rounds: z.array(RaceRoundSchema) }).strict();

const DriverRefSchema = z.object({ id: z.number().int(), code: z.string(), name: z.string() }).strict();

export const MatchupsResponseSchema = z
  .object({
    roundId: z.number().int(),
    raceEventId: z.number().int(),
    source: z.literal('TEAMMATES').describe('Derived: the two drivers of each team, decided by the race finish'),
    matchups: z.array(
      z
        .object({
          id: z.string(),
          teamId: z.number().int(),
          teamName: z.string(),
          driverA: DriverRefSchema,
          driverB: DriverRefSchema,
          winnerDriverId: z.number().int().nullable().describe('Null until the race is settled'),
        })
        .strict(),
    ),
  })
  .strict();

export const SideBetSchema = z
  .object({
    id: z.string().uuid(),
    roundId: z.number().int(),
    wallet: AddressSchema,
    prop: SideBetPropSchema,
    value: z.string().describe('The pick: a driver id, "true"/"false", or a count'),
    points: z.number().int().nullable().describe('Null until the race is settled'),
  })
  .strict();

export const SideBetsResponseSchema = z
  .object({
    roundId: z.number().int(),
    raceEventId: z.number().int(),
    lockTime: TimestampSchema,
    status: RaceEventStatusSchema,
    props: z.array(
      z
        .object({ prop: SideBetPropSchema, points: z.number().int(), answer: z.enum(['driverId', 'value', 'count']) })
        .strict(),
    ),
    totalBets: z.number().int(),
    mine: z.array(SideBetSchema).describe('The viewer’s bets (bearer token or ?wallet); empty otherwise'),
  })
  .strict();

export const PlaceSideBetsRequestSchema = z
  .object({
    sideBets: z
      .array(
        z
          .object({
            prop: SideBetPropSchema,
            driverId: z.number().int().optional(),
            value: z.boolean().optional(),
            count: z.number().int().min(0).max(30).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(3),
  })
  .strict();

export const PlaceSideBetsResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    roundId: z.number().int(),
    lockTime: TimestampSchema,
    sideBets: z.array(SideBetSchema),
  })
  .strict();

export const SideBetHeatmapSchema = z
  .object({
    roundId: z.number().int(),
    cachedForSeconds: z.number().int(),
    cells: z.array(
      z.object({ prop: SideBetPropSchema, value: z.string(), count: z.number().int(), share: z.number() }).strict(),
    ),
  })
  .strict();

export const EventHeatmapSchema = z
  .object({
    eventId: z.number().int(),
    eventType: RaceEventTypeSchema,
    predictions: z.number().int(),
    positions: z.number().int(),
    cachedForSeconds: z.number().int(),
    cells: z.array(
      z
        .object({
          position: z.number().int(),
          driverId: z.number().int(),
          count: z.number().int(),
          share: z.number().describe('count / predictions'),
        })
        .strict(),
    ),
  })
  .strict();

export const EventResultsSchema = z
  .object({
    eventId: z.number().int(),
    roundId: z.number().int(),
    eventType: RaceEventTypeSchema,
    status: RaceEventStatusSchema,
    classification: z.array(
      z
        .object({
          position: z.number().int(),
          driverId: z.number().int(),
          code: z.string(),
          name: z.string(),
          teamName: z.string(),
          dnf: z.boolean(),
        })
        .strict(),
    ),
    fastestLapDriverId: z.number().int().nullable(),
    safetyCar: z.boolean().nullable(),
    scores: z.array(
      z
        .object({
          wallet: AddressSchema,
          points: z.number().int(),
          exact: z.number().int(),
          inTopN: z.number().int(),
          podium: z.number().int(),
          bonus: z.number().int(),
        })
        .strict(),
    ),
  })
  .strict();

export const RaceAnalyticsSchema = z
  .object({
    eventId: z.number().int(),
    eventType: RaceEventTypeSchema,
    status: RaceEventStatusSchema,
    predictions: z.number().int(),
    earlyLocks: z.number().int(),
    mostPickedWinner: z.object({ driverId: z.number().int(), count: z.number().int() }).strict().nullable(),
    actualWinnerDriverId: z.number().int().nullable(),
    averagePoints: z.number(),
    bestPoints: z.number().int(),
    bestWallet: AddressSchema.nullable(),
    perfectPredictions: z.number().int(),
    positionAccuracy: z.array(
      z.object({ position: z.number().int(), correct: z.number().int(), share: z.number() }).strict(),
    ),
  })
  .strict();

export const SeasonLeaderboardRowSchema = z
  .object({
    rank: z.number().int(),
    wallet: AddressSchema,
    username: z.string().nullable(),
    seasonPoints: z.number().int(),
    eloRating: z.number(),
    racesParticipated: z.number().int().describe('Sessions scored in the current period'),
  })
  .strict();

export const SeasonLeaderboardSchema = z
  .object({ total: z.number().int(), rows: z.array(SeasonLeaderboardRowSchema) })
  .strict();

export const WeekendLeaderboardSchema = z
  .object({
    roundId: z.number().int(),
    gpName: z.string(),
    rows: z.array(
      z
        .object({
          rank: z.number().int(),
          wallet: AddressSchema,
          username: z.string().nullable(),
          totalPoints: z.number().int(),
          eventPoints: z.number().int(),
          sideBetPoints: z.number().int(),
        })
        .strict(),
    ),
  })
  .strict();

export const EloLeaderboardSchema = z
  .object({
    startRating: z.number(),
    k: z.number(),
    rows: z.array(
      z
        .object({
          rank: z.number().int(),
          wallet: AddressSchema,
          username: z.string().nullable(),
          eloRating: z.number(),
          eventsRated: z.number().int(),
        })
        .strict(),
    ),
  })
  .strict();

export const PredictionSchema = z
  .object({
    id: z.string().uuid(),
    tournamentId: TournamentIdSchema,
    eventId: z.number().int(),
    roundId: z.number().int(),
    wallet: AddressSchema,
    driverIds: z.array(z.number().int()).describe('Predicted finishing order, winner first'),
    lockedEarly: z.boolean(),
    lockedEarlyAt: TimestampSchema.nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .strict();

export const ScoredPredictionSchema = PredictionSchema.extend({
  points: z.number().int().nullable().describe('Null until the event is settled'),
}).strict();

export const PredictRequestSchema = z
  .object({
    driverIds: z
      .array(z.number().int())
      .min(1)
      .max(30)
      .describe('Exactly the event type’s number of distinct driver ids, predicted winner first'),
  })
  .strict();

export const LockPredictionsResponseSchema = z
  .object({
    eventId: z.number().int(),
    lockTime: TimestampSchema,
    bonusPct: z.number().int(),
    prediction: PredictionSchema,
  })
  .strict();

export const DeletePredictionResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    predictionId: z.string().uuid(),
    eventId: z.number().int(),
    deleted: z.literal(true),
  })
  .strict();

export const MyPicksSchema = z
  .object({ wallet: AddressSchema, predictions: z.array(PredictionSchema), sideBets: z.array(SideBetSchema) })
  .strict();

export const RacingUserStatsSchema = z
  .object({
    wallet: AddressSchema,
    entered: z.boolean(),
    rank: z.number().int().nullable(),
    seasonPoints: z.number().int(),
    eloRating: z.number(),
    eventsPredicted: z.number().int(),
    eventsScored: z.number().int(),
    exactHits: z.number().int(),
    podiumHits: z.number().int(),
    bestEventPoints: z.number().int(),
    earlyLocks: z.number().int(),
    reentries: z.number().int(),
  })
  .strict();

export const RacingDashboardSchema = z
  .object({
    tournament: RacingSummarySchema,
    currentRound: RaceRoundSchema.nullable(),
    leaders: z.array(SeasonLeaderboardRowSchema),
    me: RacingUserStatsSchema.nullable(),
  })
  .strict();

const ExternalRowShape = {
  ...RacingSummaryShape,
  leader: z
    .object({ wallet: AddressSchema, username: z.string().nullable(), seasonPoints: z.number().int() })
    .strict()
    .nullable(),
};

export const ExternalDashboardSchema = z
  .object({
    generatedAt: TimestampSchema,
    cachedForSeconds: z.number().int(),
    tournaments: z.array(z.object(ExternalRowShape).strict()),
  })
  .strict();

export const ExternalDashboardFullSchema = z
  .object({
    generatedAt: TimestampSchema,
    cachedForSeconds: z.number().int(),
    tournaments: z.array(
      z
        .object({
          ...ExternalRowShape,
          leaderboard: z.array(SeasonLeaderboardRowSchema),
          rounds: z.array(
            z
              .object({
                id: z.number().int(),
                roundNumber: z.number().int(),
                gpName: z.string(),
                status: RoundStatusSchema,
              })
              .strict(),
          ),
        })
        .strict(),
    ),
  })
  .strict();

const PayoutStatusEnum = z
  .enum(['projected', 'built', 'published'])
  .describe('projected from the standings until the season closes; published once the root is on the vault');

export const RacingPayoutsSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    status: PayoutStatusEnum,
    stakeAsset: CollateralStackSchema,
    prizePool: AmountSchema,
    fee: AmountSchema,
    distributable: AmountSchema,
    root: z.string().nullable(),
    payouts: z.array(
      z
        .object({
          wallet: AddressSchema,
          placement: z.number().int().nullable(),
          amount: AmountSchema,
          claimed: z.boolean(),
        })
        .strict(),
    ),
  })
  .strict();

export const RacingMyPayoutSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    wallet: AddressSchema,
    status: PayoutStatusEnum,
    placement: z.number().int().nullable(),
    amount: AmountSchema,
    claimed: z.boolean(),
    claimable: z.boolean().describe('The root is on the vault and this leaf is not claimed'),
  })
  .strict();

export type CreateRacingRequest = z.infer<typeof CreateRacingRequestSchema>;
