import { z } from 'zod';

/**
 * Every machine-readable error code the service returns, with the one HTTP status it maps to.
 * Clients branch on `code`, never on `message`. Later areas add their codes here, so the
 * server, the OpenAPI documents and the SDK share one table.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  INVALID_PROXY_PATH: 400,
  USERNAME_INVALID: 400,
  BET_BELOW_MINIMUM: 400,
  SLIPPAGE_EXCEEDED: 400,
  START_TIME_TOO_SOON: 400,
  INSUFFICIENT_CREDITS: 400,
  INSUFFICIENT_SHARES: 400,
  CHAIN_REVERTED: 400,
  BET_LIMIT_EXCEEDED: 400,
  POOL_TOO_SMALL: 400,
  QUOTE_EXPIRED: 400,
  QUOTE_INVALID: 400,
  METHOD_NOT_ALLOWED: 400,
  JOIN_NOT_VERIFIED: 400,
  ALL_CHILDREN_FAILED: 400,
  BUILDER_KEY_INVALID: 401,
  UNAUTHENTICATED: 401,
  TOKEN_EXPIRED: 401,
  TOKEN_INVALID: 401,
  TOKEN_REVOKED: 401,
  TENANT_MISMATCH: 401,
  SIGNATURE_INVALID: 401,
  NONCE_EXPIRED: 401,
  NONCE_REUSED: 401,
  IDENTITY_TOKEN_INVALID: 401,
  WALLET_CREDENTIAL_INVALID: 401,
  INVALID_CREDENTIALS: 401,
  TWO_FACTOR_REQUIRED: 401,
  TWO_FACTOR_INVALID: 401,
  FORBIDDEN: 403,
  NOT_PARTICIPANT: 403,
  GEO_BLOCKED: 403,
  PRIVATE_MARKET: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  INVITE_NOT_FOUND: 404,
  CONFLICT: 409,
  INVALID_STATE: 409,
  CONTEST_EXISTS: 409,
  ALREADY_PAID: 409,
  MARKET_NOT_TRADABLE: 409,
  USERNAME_TAKEN: 409,
  ACCOUNT_EXISTS: 409,
  IDENTITY_ALREADY_LINKED: 409,
  TWO_FACTOR_ALREADY_ENABLED: 409,
  TWO_FACTOR_NOT_ENABLED: 409,
  IDEMPOTENCY_KEY_IN_FLIGHT: 409,
  INVITE_EXPIRED: 409,
  INVITE_EXHAUSTED: 409,
  INVITE_REVOKED: 409,
  INVITE_CODE_TAKEN: 409,
  ALREADY_MEMBER: 409,
  NOT_MEMBER: 409,
  JOIN_TX_PENDING: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNSUPPORTED_IMAGE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UPSTREAM_ERROR: 502,
  UPSTREAM_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const codes = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

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
