import { ERROR_STATUS, type ErrorCode, type FieldErrors } from '@duelkit/contract';

export interface AppErrorOptions {
  details?: Record<string, unknown>;
  fieldErrors?: FieldErrors;
  cause?: unknown;
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;
}

/**
 * The one error type services throw. The error middleware turns it into an ApiError body with
 * the HTTP status the contract's table assigns to `code`.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly fieldErrors: FieldErrors | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details;
    this.fieldErrors = options.fieldErrors;
    this.headers = options.headers;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
