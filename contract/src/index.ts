export { marketsContract } from './markets/index.js';
export { tournamentsContract } from './tournaments/index.js';
export {
  ERROR_STATUS,
  ERROR_TABLE,
  isRetryableCode,
  ErrorCodeSchema,
  ApiErrorSchema,
  FieldErrorsSchema,
  statusForCode,
  codesForStatus,
} from './common/errors.js';
export type { ErrorCode, ApiErrorBody, FieldErrors } from './common/errors.js';
export {
  AddressSchema,
  TxHashSchema,
  DuelIdSchema,
  AmountSchema,
  SignedAmountSchema,
  TimestampSchema,
  CollateralStackSchema,
  HexSchema,
  Bytes32Schema,
  parseAmount,
  formatAmount,
} from './common/primitives.js';
export type { Address, TxHash, DuelId, Amount, Timestamp, CollateralStack } from './common/primitives.js';
export { MAX_PAGE, MAX_PAGE_SIZE, PaginationQuerySchema, PaginationSchema, paginated } from './common/pagination.js';
export type { PaginationQuery, Pagination } from './common/pagination.js';
export { HEADER, IdempotencyKeySchema, RequestIdSchema } from './common/headers.js';
export { enforcedAuth, meta, routeMeta } from './common/route-meta.js';
export type { AuthKind, GeoRule, RouteMeta } from './common/route-meta.js';
export { commonResponses } from './common/responses.js';
export { HealthSchema, ReadinessSchema, DependencyCheckSchema } from './common/health.js';
export type { Health, Readiness } from './common/health.js';
export { namedSchemas } from './named-schemas.js';
export { ClaimProofSchema, ClaimKindSchema, ContractCallSchema } from './common/claim-proof.js';
export type { ClaimProof } from './common/claim-proof.js';
export {
  JsonValueSchema,
  MAX_PROXY_PARAMS,
  SportsTtlSchema,
  SportsProxyRequestSchema,
  SportsMetaSchema,
  SportsResponseSchema,
} from './tournaments/sports.contract.js';
export type { SportsTtl, SportsProxyRequest, SportsResponse } from './tournaments/sports.contract.js';
export { UserSchema, UsernameSchema, SessionSchema, EoaChallengeSchema } from './markets/auth.schemas.js';
export type { User } from './markets/auth.schemas.js';
export { AdminSchema } from './markets/admin-auth.contract.js';
export {
  DuelSchema,
  DuelStatusSchema,
  DuelListQuerySchema,
  CreateDuelRequestSchema,
  QueryBooleanSchema,
} from './markets/duels.schemas.js';
export type { DuelDto, DuelStatus, DuelListQuery, CreateDuelRequest } from './markets/duels.schemas.js';
export { BuyEstimateSchema, SellEstimateSchema } from './markets/bets.schemas.js';
export type { BuyEstimate, SellEstimate } from './markets/bets.schemas.js';
export {
  ResolveRequestSchema,
  SubmitContestRequestSchema,
  FinalizeContestRequestSchema,
  ContestSchema,
  ContestWithAddressSchema,
} from './markets/resolution.schemas.js';
export type {
  ResolveRequest,
  SubmitContestRequest,
  FinalizeContestRequest,
  Contest,
  ContestWithAddress,
} from './markets/resolution.schemas.js';
export {
  PACK_MAX_MARKETS,
  PACK_MIN_ENTRY_FEE,
  PACK_POINTS_SCALE,
  PackSchema,
  PackStatusSchema,
  PackMarketSchema,
} from './markets/packs.schemas.js';
export type { Pack, PackMarket, PackStatus, PackSummary } from './markets/packs.schemas.js';
export {
  TournamentSchema,
  StageSchema as TournamentStageSchema,
  FixtureSchema as TournamentFixtureSchema,
  PickSchema as TournamentPickSchema,
  TournamentIdSchema,
  TournamentFormatSchema,
  TournamentStatusSchema,
} from './tournaments/tournaments.schemas.js';
export type { TournamentDto, TournamentFormat, TournamentStatus } from './tournaments/tournaments.schemas.js';
export { CreateTournamentRequestSchema } from './tournaments/tournaments-io.schemas.js';
export type { CreateTournamentRequest } from './tournaments/tournaments-io.schemas.js';
export { tournamentsCatalogContract } from './tournaments/tournaments.contract.js';
export { tournamentsAdminContract, tournamentsRouterContract } from './tournaments/tournaments-router.contract.js';
export { tournamentsPlayContract } from './tournaments/tournaments-play.contract.js';
export { parlayContract } from './tournaments/parlay.contract.js';
export { lpContract } from './tournaments/lp.contract.js';
export { tournamentsAdminCloseContract } from './tournaments/tournaments-admin-close.contract.js';
export { tournamentDisputesContract } from './tournaments/tournament-disputes.contract.js';
export { tournamentPayoutsContract } from './tournaments/tournament-payouts.contract.js';
export { tournamentsCancelContract } from './tournaments/tournaments-cancel.contract.js';
export { tournamentsAdminCancelContract } from './tournaments/tournaments-admin-cancel.contract.js';
export {
  CancelRequestSchema as TournamentCancelRequestSchema,
  CancelRequestListSchema as TournamentCancelRequestListSchema,
  CancellationSchema as TournamentCancellationSchema,
  DiscardResultSchema as TournamentDiscardResultSchema,
  ProcessTimeoutsResultSchema,
  CancelRequestListQuerySchema as TournamentCancelRequestListQuerySchema,
  CancelTournamentBodySchema,
  DiscardTournamentBodySchema,
  RejectCancelRequestBodySchema,
} from './tournaments/tournaments-cancel.schemas.js';
export type {
  CancelRequestDto as TournamentCancelRequest,
  CancellationDto as TournamentCancellation,
  DiscardResultDto as TournamentDiscardResult,
  ProcessTimeoutsResult,
} from './tournaments/tournaments-cancel.schemas.js';
export {
  AdminTournamentListQuerySchema,
  AdminTournamentListSchema,
  ConfigStatusSchema,
} from './markets/parlay-tournaments-admin.schemas.js';
export type {
  AdminTournamentDto,
  AdminTournamentListDto,
  ConfigStatusDto,
} from './markets/parlay-tournaments-admin.schemas.js';
export {
  ClaimStatusSchema,
  ClaimWinningsRequestSchema,
  ClaimWinningsResponseSchema,
  CreatorFeesQuerySchema,
  CreatorFeesResponseSchema,
  CreatorFeeMarketSchema,
  ClaimFeesRequestSchema,
  ClaimFeesResponseSchema,
  MarketClaimSchema,
} from './markets/money.schemas.js';
export type {
  ClaimWinningsRequest,
  ClaimWinningsResponse,
  CreatorFeesQuery,
  CreatorFeesResponse,
  CreatorFeeMarket,
  ClaimFeesRequest,
  ClaimFeesResponse,
  MarketClaim,
} from './markets/money.schemas.js';
export {
  WithdrawRequestSchema,
  WithdrawalSchema,
  DailyLimitSchema,
  PreValidateResponseSchema,
  WithdrawalRequestSchema,
  CreateWithdrawalRequestSchema,
  DecideWithdrawalRequestSchema,
} from './markets/withdrawals.schemas.js';
export type {
  WithdrawRequest,
  Withdrawal,
  DailyLimit,
  DailyLimitQuery,
  PreValidateResponse,
  WithdrawalRequestDto,
  CreateWithdrawalRequest,
  WithdrawalRequestListQuery,
  AdminWithdrawalRequestListQuery,
  WithdrawalRequestList,
  DecideWithdrawalRequest,
} from './markets/withdrawals.schemas.js';
export {
  ReferralAnalyticsSchema,
  ReferralSummarySchema,
  ReferrerListSchema,
  MarketCreationSchema,
} from './markets/referrals.schemas.js';
export type {
  ReferralQuery,
  Referee,
  ReferralAnalytics,
  ReferrerRow,
  ReferrerList,
  ReferralSummary,
  MarketCreation,
} from './markets/referrals.schemas.js';
export { BridgeDepositEventSchema, BridgeDepositReceiptSchema } from './markets/bridge-webhook.schemas.js';
export type { BridgeDepositEvent, BridgeDepositReceipt } from './markets/bridge-webhook.schemas.js';
export { PresignedUrlRequestSchema, PresignedUrlSchema, UPLOAD_CONTENT_TYPES } from './markets/uploads.schemas.js';
export type { PresignedUrlRequest, PresignedUrl } from './markets/uploads.schemas.js';
export {
  PLATFORM_INVITE_BULK_MAX,
  PlatformInviteSchema,
  PlatformInviteDetailsSchema,
  CreatePlatformInviteSchema,
  CreatePlatformInvitesBulkSchema,
} from './markets/platform-invites.schemas.js';
export type {
  PlatformInvite,
  CreatePlatformInvite,
  CreatePlatformInvitesBulk,
} from './markets/platform-invites.schemas.js';
export { REPORT_NAMES, REPORT_ROWS } from './markets/reports.schemas.js';
export type { ReportName } from './markets/reports.schemas.js';
export { MIGRATION_FORMAT_VERSION } from './tournaments/operations.schemas.js';
export { racingContract } from './tournaments/racing.contract.js';
export { CreateRacingRequestSchema, RaceEventTypeSchema, SideBetPropSchema } from './tournaments/racing.schemas.js';
export type { CreateRacingRequest } from './tournaments/racing.schemas.js';
export {
  EVENT_CATALOGUE,
  EVENT_TYPES,
  EVENT_VERSION,
  EventTypeSchema,
  DuelkitEventSchema,
  DuelSnapshotSchema,
  BetSnapshotSchema,
  BetFailureSnapshotSchema,
  ContestSnapshotSchema,
  EventStreamQuerySchema,
  PayoutClaimableSnapshotSchema,
  DepositCreditedSnapshotSchema,
  TournamentStageSettledSnapshotSchema,
  EventStreamHeadersSchema,
} from './markets/events.schemas.js';
export type {
  EventType,
  DuelkitEvent,
  DuelSnapshot,
  BetSnapshot,
  BetFailureSnapshot,
  ContestSnapshot,
  EventStreamQuery,
  PayoutClaimableSnapshot,
  DepositCreditedSnapshot,
  TournamentStageSettledSnapshot,
} from './markets/events.schemas.js';
export {
  CreateWebhookEndpointRequestSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookDeliverySchema,
} from './markets/webhooks.schemas.js';
export type { CreateWebhookEndpointRequest, WebhookEndpoint, WebhookDelivery } from './markets/webhooks.schemas.js';
