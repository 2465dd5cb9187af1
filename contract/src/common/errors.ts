import { z } from 'zod';

/**
 * Every machine-readable error code the service returns, with the one HTTP status it maps to and
 * whether the same request may be sent again as it is (with the same Idempotency-Key) and succeed:
 * the condition is temporary (a limit, an outage, work still in progress). Clients branch on
 * `code`, never on `message`. Later areas add their codes here, so the server, the OpenAPI
 * documents and the SDK share one table.
 */
export const ERROR_TABLE = {
  VALIDATION_FAILED: { status: 400, retryable: false },
  MALFORMED_JSON: { status: 400, retryable: false },
  MALFORMED_REQUEST: { status: 400, retryable: false },
  CURSOR_INVALID: { status: 400, retryable: false },
  INVALID_PROXY_PATH: { status: 400, retryable: false },
  USERNAME_INVALID: { status: 400, retryable: false },
  BET_BELOW_MINIMUM: { status: 400, retryable: false },
  SLIPPAGE_EXCEEDED: { status: 400, retryable: false },
  START_TIME_TOO_SOON: { status: 400, retryable: false },
  INSUFFICIENT_CREDITS: { status: 400, retryable: false },
  INSUFFICIENT_SHARES: { status: 400, retryable: false },
  CHAIN_REVERTED: { status: 400, retryable: false },
  BET_LIMIT_EXCEEDED: { status: 400, retryable: false },
  POOL_TOO_SMALL: { status: 400, retryable: false },
  QUOTE_EXPIRED: { status: 400, retryable: false },
  QUOTE_INVALID: { status: 400, retryable: false },
  INVALID_PROOF: { status: 400, retryable: false },
  METHOD_NOT_ALLOWED: { status: 400, retryable: false },
  JOIN_NOT_VERIFIED: { status: 400, retryable: false },
  ALL_CHILDREN_FAILED: { status: 400, retryable: false },
  PAID_TOURNAMENT_REQUIRES_DEPOSIT: { status: 400, retryable: false },
  PREDICTION_WRONG_LENGTH: { status: 400, retryable: false },
  PREDICTION_DUPLICATE_DRIVER: { status: 400, retryable: false },
  PREDICTION_UNKNOWN_DRIVER: { status: 400, retryable: false },
  SEASON_UNAVAILABLE: { status: 400, retryable: false },
  BUYIN_BELOW_MINIMUM: { status: 400, retryable: false },
  DEPOSIT_MISMATCH: { status: 400, retryable: false },
  DEPOSIT_ALREADY_USED: { status: 400, retryable: false },
  NO_FIXTURES: { status: 400, retryable: false },
  INSUFFICIENT_CHIPS: { status: 400, retryable: false },
  INSUFFICIENT_BOND: { status: 400, retryable: false },
  CLAIM_MISMATCH: { status: 400, retryable: false },
  INSUFFICIENT_BALANCE: { status: 400, retryable: false },
  WEBHOOK_URL_FORBIDDEN: { status: 400, retryable: false },
  BUILDER_KEY_INVALID: { status: 401, retryable: false },
  UNAUTHENTICATED: { status: 401, retryable: false },
  TOKEN_EXPIRED: { status: 401, retryable: false },
  TOKEN_INVALID: { status: 401, retryable: false },
  TOKEN_REVOKED: { status: 401, retryable: false },
  TENANT_MISMATCH: { status: 401, retryable: false },
  SIGNATURE_INVALID: { status: 401, retryable: false },
  NONCE_EXPIRED: { status: 401, retryable: false },
  NONCE_REUSED: { status: 401, retryable: false },
  IDENTITY_TOKEN_INVALID: { status: 401, retryable: false },
  WALLET_CREDENTIAL_INVALID: { status: 401, retryable: false },
  INVALID_CREDENTIALS: { status: 401, retryable: false },
  TWO_FACTOR_REQUIRED: { status: 401, retryable: false },
  TWO_FACTOR_INVALID: { status: 401, retryable: false },
  FORBIDDEN: { status: 403, retryable: false },
  NOT_ENTERED: { status: 403, retryable: false },
  NOT_PARTICIPANT: { status: 403, retryable: false },
  QUOTE_NOT_YOURS: { status: 403, retryable: false },
  GEO_BLOCKED: { status: 403, retryable: false },
  PRIVATE_MARKET: { status: 403, retryable: false },
  INVITE_REQUIRED: { status: 403, retryable: false },
  NOT_FOUND: { status: 404, retryable: false },
  ROUTE_NOT_FOUND: { status: 404, retryable: false },
  INVITE_NOT_FOUND: { status: 404, retryable: false },
  ARCHIVE_NOT_FOUND: { status: 404, retryable: false },
  REQUEST_TIMEOUT: { status: 408, retryable: true },
  CONFLICT: { status: 409, retryable: false },
  INVALID_STATE: { status: 409, retryable: false },
  CONTEST_EXISTS: { status: 409, retryable: false },
  WEBHOOK_LIMIT: { status: 409, retryable: false },
  ALREADY_PAID: { status: 409, retryable: false },
  ALREADY_CLAIMED: { status: 409, retryable: false },
  MARKET_NOT_TRADABLE: { status: 409, retryable: false },
  USERNAME_TAKEN: { status: 409, retryable: false },
  ACCOUNT_EXISTS: { status: 409, retryable: false },
  IDENTITY_ALREADY_LINKED: { status: 409, retryable: false },
  TWO_FACTOR_ALREADY_ENABLED: { status: 409, retryable: false },
  TWO_FACTOR_NOT_ENABLED: { status: 409, retryable: false },
  IDEMPOTENCY_KEY_IN_FLIGHT: { status: 409, retryable: true },
  WEBHOOK_EVENT_CONFLICT: { status: 409, retryable: false },
  INVITE_EXPIRED: { status: 409, retryable: false },
  INVITE_EXHAUSTED: { status: 409, retryable: false },
  INVITE_REVOKED: { status: 409, retryable: false },
  INVITE_CODE_TAKEN: { status: 409, retryable: false },
  ALREADY_MEMBER: { status: 409, retryable: false },
  NOT_MEMBER: { status: 409, retryable: false },
  JOIN_TX_PENDING: { status: 409, retryable: true },
  PACK_NOT_OPEN: { status: 409, retryable: false },
  PACK_LOCKED: { status: 409, retryable: false },
  ALREADY_ENTERED: { status: 409, retryable: false },
  ENTRY_PENDING: { status: 409, retryable: true },
  DEPOSIT_PENDING: { status: 409, retryable: true },
  TOURNAMENT_ID_TAKEN: { status: 409, retryable: false },
  TOURNAMENT_FULL: { status: 409, retryable: false },
  ENTRIES_CLOSED: { status: 409, retryable: false },
  ENTRY_LOCKED: { status: 409, retryable: false },
  STAGE_NOT_OPEN: { status: 409, retryable: false },
  ELIMINATED: { status: 409, retryable: false },
  STAGE_DEPOSIT_REQUIRED: { status: 409, retryable: false },
  PICK_LOCKED: { status: 409, retryable: false },
  PREDICTION_LOCKED: { status: 409, retryable: false },
  REENTRY_NOT_ALLOWED: { status: 409, retryable: false },
  ALREADY_PICKED: { status: 409, retryable: false },
  BOND_REQUIRED: { status: 409, retryable: false },
  BOND_LOCKED: { status: 409, retryable: false },
  MARKET_NOT_DISPUTEABLE: { status: 409, retryable: false },
  DISPUTE_WINDOW_CLOSED: { status: 409, retryable: false },
  ALREADY_DISPUTED: { status: 409, retryable: false },
  DISPUTE_CLOSED: { status: 409, retryable: false },
  PAYOUT_NOT_READY: { status: 409, retryable: false },
  CLAIM_PENDING: { status: 409, retryable: true },
  CANCEL_REQUEST_EXISTS: { status: 409, retryable: false },
  TOURNAMENT_HAS_ENTRIES: { status: 409, retryable: false },
  WITHDRAWAL_UNSUPPORTED: { status: 409, retryable: false },
  EXPOSURE_LIMIT: { status: 409, retryable: false },
  NONCE_USED: { status: 409, retryable: false },
  ODDS_DRIFTED: { status: 409, retryable: false },
  LIQUIDITY_LOCKED: { status: 409, retryable: false },
  TICKET_NOT_SETTLED: { status: 409, retryable: true },
  TICKET_NOT_CLAIMABLE: { status: 409, retryable: false },
  IMPORT_TARGET_NOT_EMPTY: { status: 409, retryable: false },
  EXTMARKET_INVALID_TICK: { status: 400, retryable: false },
  EXTMARKET_BELOW_MIN_SIZE: { status: 400, retryable: false },
  EXTMARKET_INSUFFICIENT_BALANCE: { status: 400, retryable: false },
  EXTMARKET_POST_ONLY_CROSSES: { status: 400, retryable: false },
  EXTMARKET_ORDER_NOT_FILLED: { status: 400, retryable: false },
  EXTMARKET_ORDER_REJECTED: { status: 400, retryable: false },
  EXTMARKET_TOKEN_UNKNOWN: { status: 404, retryable: false },
  EXTMARKET_ORDER_NOT_FOUND: { status: 404, retryable: false },
  EXTMARKET_RELAYER_TX_NOT_FOUND: { status: 404, retryable: false },
  EXTMARKET_DEPOSIT_NOT_FOUND: { status: 404, retryable: false },
  EXTMARKET_NO_CREDENTIALS: { status: 409, retryable: false },
  EXTMARKET_WALLET_NOT_DEPLOYED: { status: 409, retryable: false },
  EXTMARKET_WALLET_ALREADY_DEPLOYED: { status: 409, retryable: false },
  EXTMARKET_WALLET_KIND_MISMATCH: { status: 409, retryable: false },
  EXTMARKET_NOTHING_TO_REDEEM: { status: 409, retryable: false },
  EXTMARKET_VERSION_MISMATCH: { status: 409, retryable: true },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false },
  UNSUPPORTED_IMAGE: { status: 415, retryable: false },
  IDEMPOTENCY_KEY_REUSED: { status: 422, retryable: false },
  DAILY_LIMIT_EXCEEDED: { status: 422, retryable: false },
  LEGS_INVALID: { status: 422, retryable: false },
  PARLAY_LIMIT: { status: 422, retryable: false },
  ARCHIVE_CORRUPT: { status: 422, retryable: false },
  ARCHIVE_VERSION_UNSUPPORTED: { status: 422, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
  HEADERS_TOO_LARGE: { status: 431, retryable: false },
  INTERNAL: { status: 500, retryable: true },
  UPSTREAM_ERROR: { status: 502, retryable: true },
  UPSTREAM_UNAVAILABLE: { status: 503, retryable: true },
  UPSTREAM_TIMEOUT: { status: 504, retryable: true },
  DATABASE_UNAVAILABLE: { status: 503, retryable: true },
  CHAIN_UNAVAILABLE: { status: 503, retryable: true },
  SERVICE_UNAVAILABLE: { status: 503, retryable: true },
  TOURNAMENTS_UNAVAILABLE: { status: 503, retryable: true },
  PUSH_PROVIDER_NOT_CONFIGURED: { status: 503, retryable: false },
} as const satisfies Record<string, { readonly status: number; readonly retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_TABLE;

/** HTTP status of every error code. */
export const ERROR_STATUS = Object.fromEntries(
  Object.entries(ERROR_TABLE).map(([code, { status }]) => [code, status]),
) as { readonly [K in ErrorCode]: (typeof ERROR_TABLE)[K]['status'] };

/** Whether a request that failed with `code` may be retried unchanged. */
export function isRetryableCode(code: ErrorCode): boolean {
  return ERROR_TABLE[code].retryable;
}

const codes = Object.keys(ERROR_TABLE) as [ErrorCode, ...ErrorCode[]];

/** Zod enum of all error codes. */
export const ErrorCodeSchema = z.enum(codes).describe('Stable machine-readable error code');

/** HTTP status a given error code is always returned with. */
export function statusForCode(code: ErrorCode): (typeof ERROR_STATUS)[ErrorCode] {
  return ERROR_STATUS[code];
}

/** Error codes returned with a given HTTP status. */
export function codesForStatus(status: number): ErrorCode[] {
  return codes.filter((code) => ERROR_STATUS[code] === status);
}

/** Per-field validation messages, keyed by a dotted path such as `body.startTime` or `query.limit`. */
export const FieldErrorsSchema = z
  .record(z.string(), z.array(z.string()))
  .describe('Validation messages keyed by the dotted path of the offending field');
export type FieldErrors = z.infer<typeof FieldErrorsSchema>;

/** The body of every non-2xx response on both hosts. */
export interface ApiErrorBody {
  /** Stable machine-readable code; branch on it. */
  code: ErrorCode;
  /** Human-readable explanation; do not branch on it. */
  message: string;
  /** Correlation id, also sent as the x-request-id header. */
  requestId: string;
  /** Structured context for the error, specific to the code. */
  details?: Record<string, unknown> | undefined;
  /** Validation messages keyed by the dotted path of the offending field. */
  fieldErrors?: FieldErrors | undefined;
}

// Typed through the named interface: every route lists this schema for every error status, and
// an inferred type would repeat the whole code union in each of them in the published d.ts.
export const ApiErrorSchema: z.ZodType<ApiErrorBody> = z
  .object({
    code: ErrorCodeSchema,
    message: z.string().describe('Human-readable explanation; do not branch on it'),
    requestId: z.string().describe('Correlation id, also sent as the x-request-id header'),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Structured context for the error, specific to the code'),
    fieldErrors: FieldErrorsSchema.optional(),
  })
  .strict();
