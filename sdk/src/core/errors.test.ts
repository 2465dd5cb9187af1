import { ERROR_TABLE, type ErrorCode } from '@duelkit/contract';
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  ApiError,
  ConflictError,
  ConnectionError,
  DuelkitError,
  GeoBlockedError,
  isApiError,
  isDuelkitError,
  isRetryable,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  ValidationError,
} from './errors.js';

const answer = (status: number, code?: string, headers: Record<string, string> = {}) =>
  ApiError.generate(status, code ? { code, message: code, requestId: 'r' } : undefined, new Headers(headers));

describe('ApiError.generate', () => {
  it('builds the class from the status', () => {
    expect(answer(400, 'VALIDATION_FAILED')).toBeInstanceOf(ValidationError);
    expect(answer(422, 'IDEMPOTENCY_KEY_REUSED')).toBeInstanceOf(ValidationError);
    expect(answer(403, 'GEO_BLOCKED')).toBeInstanceOf(GeoBlockedError);
    expect(answer(404, 'NOT_FOUND')).toBeInstanceOf(NotFoundError);
    expect(answer(409, 'INVALID_STATE')).toBeInstanceOf(ConflictError);
    expect(answer(429, 'RATE_LIMITED')).toBeInstanceOf(RateLimitError);
    expect(answer(503, 'CHAIN_UNAVAILABLE')).toBeInstanceOf(ServerError);
  });

  it('reads Retry-After in seconds, as a date, and retry-after-ms first', () => {
    expect(answer(429, 'RATE_LIMITED', { 'retry-after': '3' }).retryAfterMs).toBe(3_000);
    expect(answer(429, 'RATE_LIMITED', { 'retry-after': '3', 'retry-after-ms': '250' }).retryAfterMs).toBe(250);
    const date = new Date(Date.now() + 60_000).toUTCString();
    expect(answer(503, 'SERVICE_UNAVAILABLE', { 'retry-after': date }).retryAfterMs).toBeGreaterThan(50_000);
    expect(answer(503, 'SERVICE_UNAVAILABLE').retryAfterMs).toBeUndefined();
  });
});

describe('isRetryable', () => {
  it('follows the contract’s table for every known code', () => {
    for (const [code, { status, retryable }] of Object.entries(ERROR_TABLE)) {
      expect([code, isRetryable(answer(status, code as ErrorCode))]).toEqual([code, retryable]);
    }
  });

  it('retries the in-flight and pending-join conflicts and never GEO_BLOCKED', () => {
    expect(isRetryable(answer(409, 'IDEMPOTENCY_KEY_IN_FLIGHT'))).toBe(true);
    expect(isRetryable(answer(409, 'JOIN_TX_PENDING'))).toBe(true);
    expect(isRetryable(answer(409, 'CONFLICT'))).toBe(false);
    expect(isRetryable(answer(403, 'GEO_BLOCKED'))).toBe(false);
  });

  it('falls back on the status for codes it does not know', () => {
    expect(isRetryable(answer(503, 'SOMETHING_NEW'))).toBe(true);
    expect(isRetryable(answer(502))).toBe(true);
    expect(isRetryable(answer(408))).toBe(true);
    expect(isRetryable(answer(409, 'SOMETHING_NEW'))).toBe(false);
    expect(isRetryable(answer(400))).toBe(false);
  });

  it('retries connection failures and timeouts, never aborts, contract breaks or foreign errors', () => {
    expect(isRetryable(new ConnectionError('down'))).toBe(true);
    expect(isRetryable(new TimeoutError('slow'))).toBe(true);
    expect(isRetryable(new AbortError('stop'))).toBe(false);
    expect(isRetryable(new ResponseValidationError('bad', 200, {}))).toBe(false);
    expect(isRetryable(new Error('ECONNRESET'))).toBe(false);
    expect(isRetryable('timeout')).toBe(false);
  });

  it('recognises errors from another copy of the SDK by their brands, whatever their name', () => {
    // A minified copy: its classes, and so the names it would have given them, are renamed.
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('duelkit.error')]: true,
      [Symbol.for('duelkit.error.no-answer')]: true,
      name: 'e',
    });
    expect(isDuelkitError(foreign)).toBe(true);
    expect(isRetryable(foreign)).toBe(true);
    expect(isApiError(new DuelkitError('x'))).toBe(false);
  });

  it('never classifies by name: an error merely named ConnectionError is not retried', () => {
    const impostor = Object.assign(new DuelkitError('x'), { name: 'ConnectionError' });
    expect(isRetryable(impostor)).toBe(false);
    expect(isRetryable(Object.assign(new ConnectionError('down'), { name: 'e' }))).toBe(true);
  });
});

describe('error names', () => {
  it('are the class names as written, set on each prototype', () => {
    expect(new ConnectionError('down').name).toBe('ConnectionError');
    expect(answer(503, 'CHAIN_UNAVAILABLE').name).toBe('ServerError');
    expect(answer(403, 'GEO_BLOCKED').name).toBe('GeoBlockedError');
    expect(new DuelkitError('x').name).toBe('DuelkitError');
    expect(String(new TimeoutError('slow'))).toBe('TimeoutError: slow');
  });
});
