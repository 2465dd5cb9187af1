import { ERROR_STATUS, type ErrorCode, type FieldErrors } from '@duelkit/contract';

const BRAND = Symbol.for('duelkit.error');

/** Root of every error the SDK throws. Recognise it with {@link isDuelkitError}, which works across copies of the package. */
export class DuelkitError extends Error {
  readonly [BRAND] = true;
  /** The Idempotency-Key the failed call used, when it had one: persist it to retry safely later. */
  idempotencyKey: string | undefined;

  constructor(message: string, options?: { cause?: unknown; idempotencyKey?: string | undefined }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.idempotencyKey = options?.idempotencyKey;
  }
}

/** An answer from the service with a non-2xx status. */
export class ApiError extends DuelkitError {
  /** HTTP status. */
  readonly status: number;
  /** Stable machine code (see the contract's ERROR_STATUS); `UNKNOWN` when the body had none. */
  readonly code: ErrorCode | 'UNKNOWN';
  /** Correlation id: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  /** Validation messages keyed by field path, e.g. `body.startTime`. */
  readonly fieldErrors: FieldErrors | undefined;
  readonly headers: Headers;

  constructor(init: {
    status: number;
    code: ErrorCode | 'UNKNOWN';
    message: string;
    requestId?: string | undefined;
    details?: Record<string, unknown> | undefined;
    fieldErrors?: FieldErrors | undefined;
    headers: Headers;
    idempotencyKey?: string | undefined;
  }) {
    super(init.message, { idempotencyKey: init.idempotencyKey });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.fieldErrors = init.fieldErrors;
    this.headers = init.headers;
  }

  /** The one place an HTTP answer becomes an error class. */
  static generate(status: number, body: unknown, headers: Headers, idempotencyKey?: string): ApiError {
    const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const rawCode = typeof b['code'] === 'string' ? b['code'] : undefined;
    const code: ErrorCode | 'UNKNOWN' = rawCode && rawCode in ERROR_STATUS ? (rawCode as ErrorCode) : 'UNKNOWN';
    const init = {
      status,
      code,
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
    if (status === 403) return code === 'GEO_BLOCKED' ? new GeoBlockedError(init) : new PermissionDeniedError(init);
    if (status === 404) return new NotFoundError(init);
    if (status === 409) return new ConflictError(init);
    if (status === 429) return new RateLimitError({ ...init, retryAfterMs: retryAfterMs(headers) });
    if (status === 451) return new LegalBlockError(init);
    if (status >= 500) return new ServerError(init);
    return new ApiError(init);
  }
}

export class ValidationError extends ApiError {}
export class AuthenticationError extends ApiError {}
export class PermissionDeniedError extends ApiError {}
/** `usdc` collateral refused in the caller's region; `credits` are never gated. Never retried. */
export class GeoBlockedError extends PermissionDeniedError {}
export class NotFoundError extends ApiError {}
export class ConflictError extends ApiError {}
export class LegalBlockError extends ApiError {}
export class ServerError extends ApiError {}

/** 429: the key's budget is spent. `retryAfterMs` says how long to wait. */
export class RateLimitError extends ApiError {
  readonly retryAfterMs: number | undefined;

  constructor(init: ConstructorParameters<typeof ApiError>[0] & { retryAfterMs: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** The request never got an answer (DNS, refused, reset). */
export class ConnectionError extends DuelkitError {}
/** No answer within `timeoutMs`. */
export class TimeoutError extends DuelkitError {}
/** The caller's AbortSignal fired. */
export class AbortError extends DuelkitError {}
/** A 2xx answer whose body breaks the contract. */
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

/** Milliseconds to wait from `retry-after-ms`, or `Retry-After` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
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

const RETRYABLE_STATUS = new Set([408, 429, 502, 503, 504]);

/**
 * The single classification point: whether repeating the same request can succeed without a
 * double effect. A 500 is retried only when the request is a GET or carries an idempotency key.
 */
export function isRetryable(
  err: unknown,
  request: { method: string; idempotencyKey?: string | undefined } = { method: 'GET' },
): boolean {
  if (!isDuelkitError(err)) return false;
  const name = err.name;
  if (name === 'ConnectionError' || name === 'TimeoutError') return true;
  if (!isApiError(err)) return false;
  if (err.code === 'GEO_BLOCKED') return false;
  if (RETRYABLE_STATUS.has(err.status)) return true;
  return err.status === 500 && (request.method === 'GET' || Boolean(request.idempotencyKey));
}
