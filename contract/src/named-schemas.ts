import type { ZodTypeAny } from 'zod';
import { ClaimProofSchema } from './common/claim-proof.js';
import { ApiErrorSchema } from './common/errors.js';
import { DependencyCheckSchema, HealthSchema, ReadinessSchema } from './common/health.js';
import { PaginationSchema } from './common/pagination.js';
import { BuyEstimateSchema, SellEstimateSchema } from './markets/bets.schemas.js';
import { DuelSchema } from './markets/duels.schemas.js';
import { AdminSchema } from './markets/admin-auth.contract.js';
import { EoaChallengeSchema, SessionSchema, SignatureResponseSchema, UserSchema } from './markets/auth.schemas.js';
import { ClaimStatusSchema, SettlementSchema } from './markets/packs-admin.schemas.js';
import {
  DistributionSummarySchema,
  PackEntrySchema,
  PackMarketSchema,
  PackPickSchema,
  PackSchema,
  PackSummarySchema,
  StandingSchema,
} from './markets/packs.schemas.js';
import { CreatorFeeMarketSchema, MarketClaimSchema } from './markets/money.schemas.js';
import { DailyLimitSchema, WithdrawalRequestSchema, WithdrawalSchema } from './markets/withdrawals.schemas.js';
import { ProtocolStatsSchema } from './markets/stats.contract.js';
import { AdminTournamentSchema, ConfigStatusSchema } from './markets/parlay-tournaments-admin.schemas.js';
import {
  CancellationSchema,
  CancelRequestSchema,
  RefundTableSchema,
} from './tournaments/tournaments-cancel.schemas.js';
import {
  DriverSchema as RacingDriverSchema,
  PredictionSchema as RacingPredictionSchema,
  RaceEventSchema,
  RaceRoundSchema,
  RacingTournamentSchema,
  SeasonLeaderboardRowSchema,
  SideBetSchema as RacingSideBetSchema,
} from './tournaments/racing.schemas.js';
import { SportsMetaSchema, SportsProxyRequestSchema, SportsResponseSchema } from './tournaments/sports.contract.js';
import {
  ParlayConditionSchema,
  ParlayLegViewSchema,
  ParlayMarketSchema,
  ParlayQuoteSchema,
  ParlayTypedDataSchema,
} from './tournaments/parlay.schemas.js';
import { LpOutcomeExposureSchema, LpPoolSchema, LpPositionSchema } from './tournaments/lp.schemas.js';
import {
  BondSchema,
  FixtureSchema,
  LeaderboardRowSchema,
  MatchSchema,
  PickSchema,
  StageSchema,
  StandingSchema as TournamentStandingSchema,
  TournamentSchema,
} from './tournaments/tournaments.schemas.js';

/**
 * Schemas published as named OpenAPI components (`#/components/schemas/<name>`). The generator
 * replaces every inline copy of one of these with a `$ref`. Areas register their shared shapes
 * here.
 */
export const namedSchemas: Record<string, ZodTypeAny> = {
  ApiError: ApiErrorSchema,
  Pagination: PaginationSchema,
  Health: HealthSchema,
  Readiness: ReadinessSchema,
  DependencyCheck: DependencyCheckSchema,
  User: UserSchema,
  Session: SessionSchema,
  EoaChallenge: EoaChallengeSchema,
  Signature: SignatureResponseSchema,
  Admin: AdminSchema,
  Duel: DuelSchema,
  BuyEstimate: BuyEstimateSchema,
  SellEstimate: SellEstimateSchema,
  SportsProxyRequest: SportsProxyRequestSchema,
  SportsResponse: SportsResponseSchema,
  SportsMeta: SportsMetaSchema,
  ParlayMarket: ParlayMarketSchema,
  ParlayCondition: ParlayConditionSchema,
  ParlayLeg: ParlayLegViewSchema,
  ParlayQuote: ParlayQuoteSchema,
  ParlayTypedData: ParlayTypedDataSchema,
  LpPool: LpPoolSchema,
  LpPosition: LpPositionSchema,
  LpOutcomeExposure: LpOutcomeExposureSchema,
  ProtocolStats: ProtocolStatsSchema,
  MarketClaim: MarketClaimSchema,
  CreatorFeeMarket: CreatorFeeMarketSchema,
  Withdrawal: WithdrawalSchema,
  WithdrawalRequest: WithdrawalRequestSchema,
  WithdrawalDailyLimit: DailyLimitSchema,
  ClaimProof: ClaimProofSchema,
  Pack: PackSchema,
  PackSummary: PackSummarySchema,
  PackMarket: PackMarketSchema,
  PackEntry: PackEntrySchema,
  PackPick: PackPickSchema,
  PackStanding: StandingSchema,
  PackDistributionSummary: DistributionSummarySchema,
  PackSettlement: SettlementSchema,
  PackClaimStatus: ClaimStatusSchema,
  Tournament: TournamentSchema,
  TournamentStage: StageSchema,
  TournamentFixture: FixtureSchema,
  TournamentPick: PickSchema,
  TournamentStanding: TournamentStandingSchema,
  TournamentMatch: MatchSchema,
  TournamentLeaderboardRow: LeaderboardRowSchema,
  CreatorBond: BondSchema,
  TournamentCancelRequest: CancelRequestSchema,
  TournamentCancellation: CancellationSchema,
  TournamentRefundTable: RefundTableSchema,
  AdminTournament: AdminTournamentSchema,
  TournamentsConfigStatus: ConfigStatusSchema,
  RacingTournament: RacingTournamentSchema,
  RaceRound: RaceRoundSchema,
  RaceEvent: RaceEventSchema,
  RacingDriver: RacingDriverSchema,
  RacingPrediction: RacingPredictionSchema,
  RacingSideBet: RacingSideBetSchema,
  RacingSeasonLeaderboardRow: SeasonLeaderboardRowSchema,
};
