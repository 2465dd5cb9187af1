import type { Request, RequestHandler } from 'express';
import { isDomainError } from '../../errors.js';
import { statusOf } from '../send-error.js';

/** A 4xx raised below the routes: a body parser's (http-errors, with `status`) or the input guard's. */
function isClientError(err: unknown): boolean {
  if (isDomainError(err)) {
    const status = statusOf(err);
    return status >= 400 && status < 500;
  }
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * Runs `inner` (body parsing, the input guard) but keeps a client error it raises on the request
 * instead of answering it, so route authentication still comes first: a caller without the
 * credentials a route requires is refused with 401 whatever its body. `raiseDeferredError` answers
 * the kept error right after authentication (and before the 404 of an unknown route).
 */
export function deferClientError(inner: RequestHandler): RequestHandler {
  return (req, res, next) => {
    inner(req, res, (err?: unknown) => {
      if (err instanceof Error && isClientError(err)) {
        req.deferredError ??= err;
        next();
        return;
      }
      next(err);
    });
  };
}

/** Answers the client error `deferClientError` kept, if any. */
export function raiseDeferredError(): RequestHandler {
  return (req: Request, _res, next) => {
    if (req.deferredError !== undefined) next(req.deferredError);
    else next();
  };
}
