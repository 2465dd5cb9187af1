export { DuelkitClient, DEFAULTS } from './client.js';
export type { DuelkitClientOptions } from './client.js';
export { VERSION } from './version.js';
export { QuoteRejectedError } from './trade.js';
export { DuelWaitTimeoutError } from './wait-for-duel.js';
export type { WaitForDuelOptions } from './wait-for-duel.js';
export type {
  BetFailureSnapshot,
  BetSnapshot,
  ContestSnapshot,
  DepositCreditedSnapshot,
  DuelSnapshot,
  PayoutClaimableSnapshot,
  TournamentStageSettledSnapshot,
  DuelkitEvent,
  EventDataMap,
  EventType,
  EventsNamespace,
  EventStreamMethods,
  PriceUpdate,
  StreamEvent,
  StreamOptions,
} from './events.js';
export type { BuyInput, BuyResult, Position, Stake, TradeNamespace, WaitOptions } from './trade.js';
export { DECIMALS, fromBaseUnits, toBaseUnits } from './core/units.js';
export {
  DuelkitError,
  ApiError,
  ValidationError,
  AuthenticationError,
  PermissionDeniedError,
  GeoBlockedError,
  NotFoundError,
  ConflictError,
  LegalBlockError,
  RateLimitError,
  ServerError,
  ConnectionError,
  TimeoutError,
  AbortError,
  ResponseValidationError,
  RegistrationRequiredError,
  isDuelkitError,
  isApiError,
  isRetryable,
} from './core/errors.js';
export { memoryTokenStore } from './core/auth.js';
export { verifyWebhookSignature } from './core/webhooks.js';
export type { VerifyWebhookOptions } from './core/webhooks.js';
export type { SessionMethods, Signer, StoredSession, TokenStore } from './core/auth.js';
export type { Logger, LogLevel } from './core/logger.js';
export type {
  InputOf,
  Method,
  OutputOf,
  PagePromise,
  PaginatedMethod,
  RequestOptions,
  ResponseMeta,
} from './core/types.js';
// The contract's named shapes as plain types (what the service answers, read leniently).
export type {
  ApiError as ApiErrorBody,
  ErrorCode,
  FieldErrors,
  Pagination,
  Health,
  DependencyCheck,
  Readiness,
  User,
  Session,
  EoaChallenge,
  Signature,
  Admin,
  Duel,
  BuyEstimate,
  SellEstimate,
  SportsProxyRequest,
  SportsMeta,
  SportsResponse,
  ProtocolStats,
  MarketClaim,
  CreatorFeeMarket,
  Withdrawal,
  WithdrawalRequest,
  WithdrawalDailyLimit,
  ClaimProof,
  PackMarket,
  Pack,
  PackSummary,
  PackEntry,
  PackPick,
  PackStanding,
  PackDistributionSummary,
  PackSettlement,
  PackClaimStatus,
  Tournament,
  TournamentFixture,
  TournamentStage,
  TournamentPick,
  TournamentStanding,
  TournamentMatch,
  TournamentLeaderboardRow,
  CreatorBond,
  TournamentCancelRequest,
  TournamentRefundTable,
  TournamentCancellation,
  AdminTournament,
  TournamentsConfigStatus,
} from './api.generated.js';
