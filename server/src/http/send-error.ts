import type { Request, Response } from 'express';
import type { ApiErrorBody } from '@duelkit/contract';
import type { AppError } from './app-error.js';
import { requestIdOf } from './request-context.js';

/** Writes an AppError as the ApiError body with its status and headers. */
export function sendError(req: Request, res: Response, err: AppError): void {
  const body: ApiErrorBody = {
    code: err.code,
    message: err.message,
    requestId: requestIdOf(req),
    ...(err.details ? { details: err.details } : {}),
    ...(err.fieldErrors ? { fieldErrors: err.fieldErrors } : {}),
  };
  if (err.headers) {
    for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  }
  res.status(err.status).json(body);
}
