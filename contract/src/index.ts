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
  parseAmount,
  formatAmount,
} from './common/primitives.js';
export type { Address, TxHash, DuelId, Amount, Timestamp, CollateralStack } from './common/primitives.js';
export { MAX_PAGE, MAX_PAGE_SIZE, PaginationQuerySchema, PaginationSchema, paginated } from './common/pagination.js';
export type { PaginationQuery, Pagination } from './common/pagination.js';
export { HEADER, IdempotencyKeySchema, RequestIdSchema } from './common/headers.js';
export { meta, routeMeta } from './common/route-meta.js';
export type { AuthKind, GeoRule, RouteMeta } from './common/route-meta.js';
export { commonResponses } from './common/responses.js';
export { HealthSchema, ReadinessSchema, DependencyCheckSchema } from './common/health.js';
export type { Health, Readiness } from './common/health.js';
export { namedSchemas } from './named-schemas.js';
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
