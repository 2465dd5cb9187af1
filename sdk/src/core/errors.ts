import { ERROR_TABLE } from '@duelkit/contract';
import type { ErrorCode, FieldErrors } from '../api.generated.js';

const BRAND = Symbol.for('duelkit.error');
/** Marks the errors of a request that got no answer (connection failures, timeouts), in every copy of the package. */
const NO_ANSWER = Symbol.for('duelkit.error.no-answer');

/** Root of every error the SDK throws. Recognise it with {@link isDuelkitError}, which works across copies of the package. */
export class DuelkitError extends Error {
  readonly [BRAND] = true;
  /** The Idempotency-Key the failed call used, when it had one: persist it to retry safely later. */
  idempotencyKey: string | undefined;

  constructor(message: string, options?: { cause?: unknown; idempotencyKey?: string | undefined }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.idempotencyKey = options?.idempotencyKey;
  }
}

interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  requestId?: string | undefined;
  details?: Record<string, unknown> | undefined;
  fieldErrors?: FieldErrors | undefined;
  headers: Headers;
  idempotencyKey?: string | undefined;
}

/** An answer from the service with a non-2xx status. */
export class ApiError extends DuelkitError {
  /** HTTP status. */
  readonly status: number;
  /**
   * Stable machine code (the contract's `ERROR_TABLE`). A code this SDK version does not know yet
   * is kept as sent; `UNKNOWN` when the body had none (an HTML page from a proxy, say).
   */
  readonly code: ErrorCode | 'UNKNOWN' | (string & {});
  /** Correlation id: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  /** Validation messages keyed by field path, e.g. `body.startTime`. */
  readonly fieldErrors: FieldErrors | undefined;
  /** How long the service asked to wait before sending the request again (`Retry-After`), if it did. */
  readonly retryAfterMs: number | undefined;
  readonly headers: Headers;

  constructor(init: ApiErrorInit) {
    super(init.message, { idempotencyKey: init.idempotencyKey });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.fieldErrors = init.fieldErrors;
    this.headers = init.headers;
    this.retryAfterMs = retryAfterMs(init.headers);
  }

  /** The one place an HTTP answer becomes an error class. */
  static generate(status: number, body: unknown, headers: Headers, idempotencyKey?: string): ApiError {
    const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const init: ApiErrorInit = {
      status,
      code: typeof b['code'] === 'string' && b['code'] !== '' ? b['code'] : 'UNKNOWN',
      message: typeof b['message'] === 'string' ? b['message'] : `HTTP ${status}`,
      requestId: typeof b['requestId'] === 'string' ? b['requestId'] : (headers.get('x-request-id') ?? undefined),
      details: b['details'] && typeof b['details'] === 'object' ? (b['details'] as Record<string, unknown>) : undefined,
      fieldErrors:
        b['fieldErrors'] && typeof b['fieldErrors'] === 'object' ? (b['fieldErrors'] as FieldErrors) : undefined,
      headers,
      idempotencyKey,
    };
    if (status === 400 || status === 422) return new ValidationError(init);
    if (status === 401) return new AuthenticationError(init);
    if (status === 403)
      return init.code === 'GEO_BLOCKED' ? new GeoBlockedError(init) : new PermissionDeniedError(init);
    if (status === 404) return new NotFoundError(init);
    if (status === 409) return new ConflictError(init);
    if (status === 429) return new RateLimitError(init);
    if (status === 451) return new LegalBlockError(init);
    if (status >= 500) return new ServerError(init);
    return new ApiError(init);
  }
}

/** 400 or 422: the request is malformed or breaks a rule; `fieldErrors` says where. */
export class ValidationError extends ApiError {}
/** 401: missing, expired or invalid credentials (builder key, user or admin token, signature). */
export class AuthenticationError extends ApiError {}
/** 403: the caller is known but may not do this. */
export class PermissionDeniedError extends ApiError {}
/** 403 `GEO_BLOCKED`: `usdc` collateral refused in the caller's region; `credits` are never gated. */
export class GeoBlockedError extends PermissionDeniedError {}
/** 404. */
export class NotFoundError extends ApiError {}
/** 409: the resource's state does not allow this, or the same Idempotency-Key is still running. */
export class ConflictError extends ApiError {}
/** 451. */
export class LegalBlockError extends ApiError {}
/** 429: the builder key's budget is spent; `retryAfterMs` says for how long. */
export class RateLimitError extends ApiError {}
/** 5xx. */
export class ServerError extends ApiError {}

/** The request never got an answer (DNS, refused, reset). */
export class ConnectionError extends DuelkitError {
  readonly [NO_ANSWER] = true;
}
/** No answer within the attempt's `timeoutMs`. */
export class TimeoutError extends DuelkitError {
  readonly [NO_ANSWER] = true;
}
/** The caller's AbortSignal fired. */
export class AbortError extends DuelkitError {}
/** A 2xx answer whose body breaks the contract beyond what an older SDK tolerates (a missing field, a wrong type). */
export class ResponseValidationError extends DuelkitError {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
    options?: { cause?: unknown; idempotencyKey?: string | undefined },
  ) {
    super(message, options);
  }
}
/** Sign-in found no account for the wallet and no username was given to register one. */
export class RegistrationRequiredError extends DuelkitError {}

/**
 * Gives an error class its `name` on the prototype, spelled out: a bundler that minifies class
 * names (esbuild `--minify`, terser) would otherwise turn `err.name` into `e`.
 */
export function nameErrorClass(cls: abstract new (...args: never[]) => Error, name: string): void {
  Object.defineProperty(cls.prototype, 'name', { value: name, writable: true, configurable: true, enumerable: false });
}

nameErrorClass(DuelkitError, 'DuelkitError');
nameErrorClass(ApiError, 'ApiError');
nameErrorClass(ValidationError, 'ValidationError');
nameErrorClass(AuthenticationError, 'AuthenticationError');
nameErrorClass(PermissionDeniedError, 'PermissionDeniedError');
nameErrorClass(GeoBlockedError, 'GeoBlockedError');
nameErrorClass(NotFoundError, 'NotFoundError');
nameErrorClass(ConflictError, 'ConflictError');
nameErrorClass(LegalBlockError, 'LegalBlockError');
nameErrorClass(RateLimitError, 'RateLimitError');
nameErrorClass(ServerError, 'ServerError');
nameErrorClass(ConnectionError, 'ConnectionError');
nameErrorClass(TimeoutError, 'TimeoutError');
nameErrorClass(AbortError, 'AbortError');
nameErrorClass(ResponseValidationError, 'ResponseValidationError');
nameErrorClass(RegistrationRequiredError, 'RegistrationRequiredError');

/** Milliseconds to wait from `retry-after-ms`, or `Retry-After` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const precise = headers.get('retry-after-ms');
  if (precise !== null && precise.trim() !== '' && Number.isFinite(Number(precise)) && Number(precise) >= 0) {
    return Number(precise);
  }
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function isDuelkitError(value: unknown): value is DuelkitError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

export function isApiError(value: unknown): value is ApiError {
  return isDuelkitError(value) && typeof (value as { status?: unknown }).status === 'number' && 'code' in value;
}

/** Statuses that signal a passing condition, for codes this SDK version does not know. */
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/** A connection failure or a timeout: by class, or by its brand when it comes from another copy of the SDK. */
function isNoAnswer(err: DuelkitError): boolean {
  return (
    err instanceof ConnectionError ||
    err instanceof TimeoutError ||
    (err as unknown as Record<symbol, unknown>)[NO_ANSWER] === true
  );
}

/**
 * The single classification point: whether sending the same request again, with the same
 * Idempotency-Key, can succeed without a double effect. Known codes follow the contract's
 * `ERROR_TABLE[code].retryable` (so 409 `IDEMPOTENCY_KEY_IN_FLIGHT` and `JOIN_TX_PENDING` are
 * retried, `GEO_BLOCKED` never); unknown ones fall back on the status. Connection failures and
 * timeouts are retryable because every request is either a GET or carries an Idempotency-Key.
 * It decides by class (or brand), status and code, never by `err.name`, which a minifier may
 * have renamed in the application's bundle.
 */
export function isRetryable(err: unknown): boolean {
  if (!isDuelkitError(err)) return false;
  if (isNoAnswer(err)) return true;
  if (!isApiError(err)) return false;
  if (Object.hasOwn(ERROR_TABLE, err.code)) return ERROR_TABLE[err.code as ErrorCode].retryable;
  return RETRYABLE_STATUS.has(err.status);
}
