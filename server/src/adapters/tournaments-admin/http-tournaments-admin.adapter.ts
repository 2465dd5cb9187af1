import type { z } from 'zod';
import {
  AdminTournamentListSchema,
  ERROR_TABLE,
  TournamentCancelRequestListSchema,
  TournamentCancelRequestSchema,
  TournamentCancellationSchema,
  TournamentDiscardResultSchema,
  type ErrorCode,
} from '@duelkit/contract';
import { DomainError } from '../../errors.js';
import type { CircuitBreaker } from '../../platform/outage/circuit-breaker.js';
import type { TournamentsAdminPort } from './tournaments-admin.port.js';
import {
  ACTING_ADMIN_HEADER,
  INTERNAL_ADMIN_PREFIX,
  SERVICE_TOKEN_HEADER,
} from '../../areas/tournaments/tournament-admin-link.protocol.js';

/** An answer that says the tournaments side is not serving (as opposed to refusing the request). */
class Unavailable extends Error {
  constructor(
    readonly reason: 'unreachable' | 'timeout' | 'server-error' | 'credential-rejected' | 'bad-answer',
    message: string,
    readonly status: number | null = null,
    /**
     * Whether the call may have been applied on the other side: `not-applied` only when it provably
     * was not (no connection was made, the credential was refused); after a timeout, a dropped
     * connection, a 5xx or an answer we cannot read, the outcome is unknown.
     */
    readonly outcome: 'not-applied' | 'unknown' = 'unknown',
  ) {
    super(message);
  }
}

/** A connection that was never made: the request did not reach the tournaments host. */
function neverConnected(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause;
  return cause?.code === 'ECONNREFUSED' || cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN';
}

function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_TABLE, code);
}

/**
 * The tournaments host over HTTP, for a markets-only process. Every call carries the service
 * credential and the acting admin, has a timeout, and goes through a circuit breaker: after
 * repeated failures calls are refused at once until a trial call succeeds. A 4xx of the
 * tournaments side is its answer to the request (its code is kept, and the breaker counts a
 * success); a timeout, a refused connection, a 5xx or a rejected credential is
 * TOURNAMENTS_UNAVAILABLE (503, retryable). Every write on the other side is idempotent (cancel
 * and discard answer `already…` on a repeat), so retrying after a timeout is safe.
 */
export class HttpTournamentsAdmin implements TournamentsAdminPort {
  readonly mode = 'http' as const;
  readonly credentialConfigured: boolean;

  constructor(
    readonly url: string,
    private readonly options: {
      serviceToken: string;
      timeoutMs: number;
      breaker: CircuitBreaker;
      fetch?: typeof fetch;
    },
  ) {
    this.credentialConfigured = options.serviceToken.length > 0;
  }

  breaker() {
    return this.options.breaker.snapshot();
  }

  async ping(): Promise<void> {
    await this.call('GET', '/ping', { adminId: null }, null, undefined);
  }

  cancelRequests: TournamentsAdminPort['cancelRequests'] = (q) =>
    this.call('GET', `/cancel-requests?${query(q)}`, { adminId: null }, TournamentCancelRequestListSchema, undefined);

  tournaments: TournamentsAdminPort['tournaments'] = (q) =>
    this.call('GET', `/tournaments?${query(q)}`, { adminId: null }, AdminTournamentListSchema, undefined);

  cancel: TournamentsAdminPort['cancel'] = (admin, id, reason) =>
    this.call('POST', `/tournaments/${encodeURIComponent(id)}/cancel`, admin, TournamentCancellationSchema, { reason });

  discard: TournamentsAdminPort['discard'] = (admin, id, reason) =>
    this.call(
      'POST',
      `/tournaments/${encodeURIComponent(id)}/discard`,
      admin,
      TournamentDiscardResultSchema,
      reason === undefined ? {} : { reason },
    );

  rejectCancelRequest: TournamentsAdminPort['rejectCancelRequest'] = (admin, requestId, reason) =>
    this.call(
      'PATCH',
      `/cancel-requests/${encodeURIComponent(requestId)}/reject`,
      admin,
      TournamentCancelRequestSchema,
      {
        reason,
      },
    );

  private async call<S extends z.ZodTypeAny | null>(
    method: string,
    path: string,
    admin: { adminId: string | null },
    schema: S,
    body: unknown,
  ): Promise<S extends z.ZodTypeAny ? z.infer<S> : void> {
    const breaker = this.options.breaker;
    if (!breaker.tryAcquire()) {
      const snap = breaker.snapshot();
      throw new DomainError('TOURNAMENTS_UNAVAILABLE', 'The tournaments host is failing; calls are paused', {
        details: {
          reason: 'breaker-open',
          outcome: 'not-applied',
          url: this.url,
          openUntil: snap.openUntil ? new Date(snap.openUntil).toISOString() : null,
        },
        retryAfterMs: Math.max(1_000, (snap.openUntil ?? Date.now()) - Date.now()),
      });
    }
    try {
      const result = await this.send(method, path, admin, schema, body);
      breaker.success();
      return result;
    } catch (err) {
      if (err instanceof Unavailable) {
        breaker.failure();
        const message =
          err.outcome === 'unknown'
            ? `The tournaments host is not answering: ${err.message}; the call may have been applied there, and repeating it is safe`
            : `The tournaments host is not answering: ${err.message}; nothing was changed`;
        throw new DomainError('TOURNAMENTS_UNAVAILABLE', message, {
          details: { reason: err.reason, outcome: err.outcome, url: this.url, status: err.status },
          retryAfterMs: 1_000,
          cause: err,
        });
      }
      // The tournaments side answered (a refusal with its code): it is up.
      breaker.success();
      throw err;
    }
  }

  private async send<S extends z.ZodTypeAny | null>(
    method: string,
    path: string,
    admin: { adminId: string | null },
    schema: S,
    body: unknown,
  ): Promise<S extends z.ZodTypeAny ? z.infer<S> : void> {
    const headers: Record<string, string> = { [SERVICE_TOKEN_HEADER]: this.options.serviceToken };
    if (admin.adminId) headers[ACTING_ADMIN_HEADER] = admin.adminId;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await (this.options.fetch ?? fetch)(`${this.url.replace(/\/$/, '')}${INTERNAL_ADMIN_PREFIX}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new Unavailable(
        timedOut ? 'timeout' : 'unreachable',
        timedOut ? `no answer within ${this.options.timeoutMs} ms` : 'connection failed',
        null,
        !timedOut && neverConnected(err) ? 'not-applied' : 'unknown',
      );
    }
    const payload: unknown = await res.json().catch(() => null);
    if (res.status === 401 || res.status === 403) {
      throw new Unavailable('credential-rejected', 'the service credential was refused', res.status, 'not-applied');
    }
    if (res.status >= 500 || res.status === 429) {
      throw new Unavailable('server-error', `answered ${res.status}`, res.status);
    }
    if (res.status >= 400) {
      const e = (payload ?? {}) as { code?: unknown; message?: unknown; details?: unknown };
      if (!isErrorCode(e.code))
        throw new Unavailable('bad-answer', `answered ${res.status} without a code`, res.status);
      throw new DomainError(e.code, typeof e.message === 'string' ? e.message : e.code, {
        ...(e.details && typeof e.details === 'object' ? { details: e.details as Record<string, unknown> } : {}),
      });
    }
    if (schema === null) return undefined as S extends z.ZodTypeAny ? z.infer<S> : void;
    const parsed = schema.safeParse(payload);
    if (!parsed.success)
      throw new Unavailable('bad-answer', 'answered a body this version does not understand', res.status);
    return parsed.data as S extends z.ZodTypeAny ? z.infer<S> : void;
  }
}

function query(q: object): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null) params.set(k, String(v));
  return params.toString();
}
