export { DuelkitClient, DEFAULTS } from './client.js';
export type { DuelkitClientOptions } from './client.js';
export { VERSION } from './version.js';
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
export type { SessionMethods, Signer, StoredSession, TokenStore } from './core/auth.js';
export type { Logger, LogLevel } from './core/logger.js';
export type {
  Lenient,
  PagePromise,
  PaginatedRouteMethod,
  RequestOptions,
  ResponseMeta,
  RouteInput,
  RouteMethod,
  RouteOutput,
} from './core/types.js';
