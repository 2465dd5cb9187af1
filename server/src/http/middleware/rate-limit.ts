import type { Request, RequestHandler, Response } from 'express';
import type { RateLimitDecision, RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { DomainError } from '../../errors.js';

function setRateLimitHeaders(res: Response, d: RateLimitDecision): void {
  res.setHeader('RateLimit-Limit', String(d.limit));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, d.remaining)));
  res.setHeader('RateLimit-Reset', String(Math.ceil(d.resetMs / 1000)));
}

function limited(what: string, d: RateLimitDecision): DomainError {
  const retryAfter = Math.max(1, Math.ceil(d.resetMs / 1000));
  return new DomainError('RATE_LIMITED', `Rate limit exceeded for this ${what}; retry after ${retryAfter} s`, {
    details: { limit: d.limit, scope: what, retryAfterSeconds: retryAfter },
    retryAfterMs: retryAfter * 1_000,
  });
}

/**
 * Counts the request against `pick(req)`'s limiter under `keyOf(req)`. With `headers`, the
 * RateLimit-* headers describe this limit (used for the per-key budget).
 */
export function rateLimit(options: {
  scope: string;
  pick: (req: Request) => RateLimiter | undefined;
  keyOf: (req: Request) => string | undefined;
  headers: boolean;
}): RequestHandler {
  return (req, res, next) => {
    const limiter = options.pick(req);
    const key = options.keyOf(req);
    if (!limiter || !key) {
      next();
      return;
    }
    if (limiter.consumeNow) {
      const decision = limiter.consumeNow(key);
      if (options.headers) setRateLimitHeaders(res, decision);
      next(decision.allowed ? undefined : limited(options.scope, decision));
      return;
    }
    limiter.consume(key).then(
      (decision) => {
        if (options.headers) setRateLimitHeaders(res, decision);
        next(decision.allowed ? undefined : limited(options.scope, decision));
      },
      (err: unknown) => next(err),
    );
  };
}
