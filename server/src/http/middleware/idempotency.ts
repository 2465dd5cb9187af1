import type { Request, RequestHandler, Response } from 'express';
import type { AppRoute } from '@ts-rest/core';
import type { ZodError } from 'zod';
import { HEADER, IdempotencyKeySchema, routeMeta, type ApiErrorBody } from '@duelkit/contract';
import type { Logger } from '../../logger.js';
import {
  requestFingerprint,
  type IdempotencyScope,
  type IdempotencyService,
} from '../../platform/idempotency/idempotency.service.js';
import type { IdempotentRun } from '../../platform/idempotency/idempotent-run.js';
import { DomainError } from '../../errors.js';
import { ResponseSchemaError } from '../response-schema-error.js';
import { callerId } from '../request-context.js';

/** Responses a later retry must not be stuck with: they say nothing about the operation's effect. */
function isStorable(status: number, body: unknown): boolean {
  if (status >= 500 || status === 429 || status === 401 || status === 408) return false;
  const code = (body as Partial<ApiErrorBody> | null)?.code;
  return code !== 'VALIDATION_FAILED' && code !== 'MALFORMED_JSON' && code !== 'IDEMPOTENCY_KEY_IN_FLIGHT';
}

interface ZodLike {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: ZodError };
}

/** The route's success status (its lowest 2xx) and how it shapes that answer (its response schema). */
function successOf(route: AppRoute): { status: number; shape: (body: unknown) => unknown } {
  const responses = route.responses as Record<string, unknown>;
  const status = Object.keys(responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b)[0];
  const schema = status === undefined ? undefined : (responses[String(status)] as Partial<ZodLike> | undefined);
  if (status === undefined || typeof schema?.safeParse !== 'function')
    return { status: status ?? 200, shape: (b) => b };
  const parser = schema as ZodLike;
  return {
    status,
    // An answer the route's own schema rejects is a server bug (500), not a validation failure.
    shape: (body) => {
      const parsed = parser.safeParse(body);
      if (!parsed.success) throw new ResponseSchemaError(route, status, parsed.error);
      return parsed.data;
    },
  };
}

/**
 * Idempotency-Key handling for routes whose metadata says so. The first request with a key runs;
 * the same key and request replays its stored response (`Idempotent-Replayed: true`); a different
 * request under the same key is 422; a duplicate arriving while the first runs waits for it.
 * Once a request's chain write is recorded its key is never released: an error after that point
 * answers the pending answer recorded with the write, and a retry never runs the effect again.
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
          case 'pending':
            // Accepted, still running elsewhere: the answer it will give, and when to look again.
            res.setHeader('Idempotent-Replayed', 'true');
            res.setHeader('Retry-After', '1');
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
          case 'proceed': {
            const success = successOf(route);
            const run: IdempotentRun = {
              recordId: outcome.recordId,
              successStatus: success.status,
              shape: success.shape,
              resumed: outcome.resumed,
              names: new Set(),
              scoped: new Map(),
              effectStarted: false,
              pending: undefined,
            };
            captureResponse(
              res,
              run,
              (status, body) => {
                // The answer recorded with the chain write completed the key already.
                if (run.pending && sameAnswer(run.pending, status, body)) {
                  service.completedWithWrite(scope, outcome.recordId);
                  return Promise.resolve();
                }
                return isStorable(status, body)
                  ? service.complete(scope, outcome.recordId, { status, body })
                  : service.release(scope, outcome.recordId);
              },
              () => service.release(scope, outcome.recordId),
              logger,
            );
            req.idempotentRun = run;
            next();
            return;
          }
        }
      },
      (err: unknown) => next(err),
    );
  };
}

/** Whether a response is the pending answer stored with the request's chain write (same status, same JSON). */
function sameAnswer(pending: { status: number; body: unknown }, status: number, body: unknown): boolean {
  return pending.status === status && (pending.body === body || JSON.stringify(pending.body) === JSON.stringify(body));
}

/**
 * A 5xx of a request whose effect had started (its chain write was recorded, its answer not yet
 * known): "retry shortly" would not say that the write may go through. The body says so, and
 * `details.outcome: "unknown"`; a retry with the same key answers the outcome, never a second effect.
 */
function outcomeUnknown(body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  const error = body as Partial<ApiErrorBody>;
  return {
    ...error,
    message:
      `${error.message ?? 'The request failed'}. Its effect had already started, so its outcome is unknown: ` +
      'retry with the same Idempotency-Key to get it (the effect is never repeated).',
    details: { ...error.details, outcome: 'unknown' },
  };
}

/**
 * Stores the response before it is sent, so a retry that follows at once already replays it. An
 * error after the run's effect started is replaced by the pending answer recorded with the effect
 * (the effect was accepted; the error is about what came after), or, without one, leaves the key
 * held so a retry resumes instead of running again.
 */
function captureResponse(
  res: Response,
  run: IdempotentRun,
  persist: (status: number, body: unknown) => Promise<void>,
  abandon: () => Promise<void>,
  logger: Logger,
): void {
  const json = res.json.bind(res);
  const send = (body: unknown) => {
    if (res.statusCode >= 400 && run.pending) {
      res.removeHeader('Retry-After');
      res.status(run.pending.status);
      return json(run.pending.body);
    }
    if (res.statusCode >= 500 && run.effectStarted) return json(outcomeUnknown(body));
    return json(body);
  };
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
    // Without a pending answer, an unstorable error "releases" the key, which the database refuses
    // once the effect started: the key stays held and a retry after the lock timeout resumes.
    const answer = res.statusCode >= 400 && run.pending ? run.pending : { status: res.statusCode, body };
    persist(answer.status, answer.body)
      .catch((err: unknown) => logger.error({ err }, 'could not store idempotent response'))
      .finally(() => send(body));
    return res;
  };
}
