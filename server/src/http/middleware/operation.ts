import type { RequestHandler } from 'express';
import type { Clock } from '../../platform/clock.js';
import { operationContext } from '../../platform/operation-context.js';
import { requestIdOf } from '../request-context.js';

/**
 * Builds the request's operation context once, after authentication, the geo gate and the
 * idempotency middleware have said who calls, from where, and under which run; routes hand it to
 * the service they call (`ctxOf(req)`).
 */
export function operation(clock: Clock): RequestHandler {
  return (req, _res, next) => {
    req.operation = operationContext({
      requestId: requestIdOf(req),
      clock,
      region: req.region,
      run: req.idempotentRun,
    });
    next();
  };
}
