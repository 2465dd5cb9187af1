import type { Request, Response } from 'express';
import { ERROR_STATUS, type ApiErrorBody } from '@duelkit/contract';
import type { DomainError } from '../errors.js';
import { requestIdOf } from './request-context.js';

/** The HTTP status the contract's table assigns to an error's code. */
export function statusOf(err: DomainError): number {
  return ERROR_STATUS[err.code];
}

/** Writes a DomainError as the ApiError body, with its status and, when it has one, Retry-After. */
export function sendError(req: Request, res: Response, err: DomainError): void {
  const body: ApiErrorBody = {
    code: err.code,
    message: err.message,
    requestId: requestIdOf(req),
    ...(err.details ? { details: err.details } : {}),
    ...(err.fieldErrors ? { fieldErrors: err.fieldErrors } : {}),
  };
  if (err.retryAfterMs !== undefined) {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(err.retryAfterMs / 1000))));
  }
  res.status(statusOf(err)).json(body);
}
