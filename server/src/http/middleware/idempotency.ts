import type { Request, RequestHandler, Response } from 'express';
import type { AppRoute } from '@ts-rest/core';
import { HEADER, IdempotencyKeySchema, routeMeta, type ApiErrorBody } from '@duelkit/contract';
import type { Logger } from '../../logger.js';
import {
  requestFingerprint,
  type IdempotencyScope,
  type IdempotencyService,
} from '../../platform/idempotency/idempotency.service.js';
import { DomainError } from '../../errors.js';
import { callerId } from '../request-context.js';

/** Responses a later retry must not be stuck with: they say nothing about the operation's effect. */
function isStorable(status: number, body: unknown): boolean {
  if (status >= 500 || status === 429 || status === 401 || status === 408) return false;
  const code = (body as Partial<ApiErrorBody> | null)?.code;
  return code !== 'VALIDATION_FAILED' && code !== 'MALFORMED_JSON' && code !== 'IDEMPOTENCY_KEY_IN_FLIGHT';
}

/**
 * Idempotency-Key handling for routes whose metadata says so. The first request with a key runs;
 * the same key and request replays its stored response (`Idempotent-Replayed: true`); a different
 * request under the same key is 422; a duplicate arriving while the first runs waits for it.
 */
export function idempotency(service: IdempotencyService, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const route = (req as Request & { tsRestRoute?: AppRoute }).tsRestRoute;
    const raw = req.headers[HEADER.idempotencyKey];
    if (!route || !routeMeta(route).idempotent || raw === undefined) {
      next();
      return;
    }
    const value = Array.isArray(raw) ? raw[0] : raw;
    const parsed = IdempotencyKeySchema.safeParse(value);
    if (!parsed.success || !req.tenant) {
      next(
        new DomainError('VALIDATION_FAILED', 'Invalid Idempotency-Key header', {
          fieldErrors: {
            'headers.idempotency-key': parsed.success
              ? ['requires a builder key']
              : parsed.error.issues.map((i) => i.message),
          },
        }),
      );
      return;
    }
    const scope: IdempotencyScope = {
      tenantId: req.tenant.builderAppId,
      caller: callerId(req.principal),
      route: `${route.method} ${route.path}`,
      key: parsed.data,
    };
    const fingerprint = requestFingerprint(req.path, req.query, req.body);
    service.begin(scope, fingerprint).then(
      (outcome) => {
        switch (outcome.kind) {
          case 'replay':
            res.setHeader('Idempotent-Replayed', 'true');
            res.status(outcome.response.status).json(outcome.response.body);
            return;
          case 'mismatch':
            next(
              new DomainError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request', {
                details: { idempotencyKey: scope.key },
              }),
            );
            return;
          case 'in_flight':
            next(
              new DomainError(
                'IDEMPOTENCY_KEY_IN_FLIGHT',
                'A request with this Idempotency-Key is still being processed; retry shortly',
                {
                  details: { idempotencyKey: scope.key },
                  retryAfterMs: 1_000,
                },
              ),
            );
            return;
          case 'proceed':
            captureResponse(
              res,
              (status, body) =>
                isStorable(status, body)
                  ? service.complete(scope, outcome.recordId, { status, body })
                  : service.release(scope, outcome.recordId),
              () => service.release(scope, outcome.recordId),
              logger,
            );
            next();
            return;
        }
      },
      (err: unknown) => next(err),
    );
  };
}

/** Stores the response before it is sent, so a retry that follows at once already replays it. */
function captureResponse(
  res: Response,
  persist: (status: number, body: unknown) => Promise<void>,
  abandon: () => Promise<void>,
  logger: Logger,
): void {
  const send = res.json.bind(res);
  let done = false;
  // A response sent without a JSON body stores nothing. A dropped connection releases nothing:
  // the handler may still be running and will store its response when it answers.
  res.on('finish', () => {
    if (done) return;
    done = true;
    abandon().catch((err: unknown) => logger.error({ err }, 'could not release idempotency key'));
  });
  res.json = (body: unknown) => {
    if (done) return send(body);
    done = true;
    persist(res.statusCode, body)
      .catch((err: unknown) => logger.error({ err }, 'could not store idempotent response'))
      .finally(() => send(body));
    return res;
  };
}
