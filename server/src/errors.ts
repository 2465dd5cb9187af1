import type { ErrorCode, FieldErrors } from '@duelkit/contract';

export interface DomainErrorOptions {
  /** Structured context, specific to the code. */
  details?: Record<string, unknown>;
  /** Validation messages keyed by the dotted path of the offending field (`body.startTime`). */
  fieldErrors?: FieldErrors;
  /** How long the caller should wait before trying again, when waiting helps. */
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * The one error type services and adapters throw. It knows nothing of HTTP: the transport maps
 * `code` to a status (the contract's table) and `retryAfterMs` to a Retry-After header.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly fieldErrors: FieldErrors | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(code: ErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.code = code;
    this.details = options.details;
    this.fieldErrors = options.fieldErrors;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export function isDomainError(value: unknown): value is DomainError {
  return value instanceof DomainError;
}
