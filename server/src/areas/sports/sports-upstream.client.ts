import { bulkhead, BulkheadRejectedError, type BulkheadPolicy } from 'cockatiel';
import { LRUCache } from 'lru-cache';
import {
  UpstreamTransportError,
  type SportsProviderPort,
} from '../../adapters/sports-provider/sports-provider.port.js';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Clock } from '../../platform/clock.js';
import { RateLimitBreaker, type BreakerPermit, type RateLimitBreakerOptions } from './rate-limit.breaker.js';
import type { UpstreamRequest } from './sports-request.js';

export interface UpstreamLimits {
  /** Upstream calls in flight at once (§8: about 12), and how many may queue for a slot. */
  readonly concurrency: number;
  readonly queue: number;
  readonly breaker: RateLimitBreakerOptions;
}

/** Why a call failed, for the caller's choice between stale data and an error. */
export type UpstreamFailureKind =
  | 'circuit_open'
  | 'upstream_rate_limited'
  | 'upstream_concurrency'
  | 'upstream_timeout'
  | 'upstream_error'
  | 'upstream_refused'
  | 'not_found'
  | 'bad_request';

/** An DomainError that also says which upstream condition produced it. */
export class UpstreamCallError extends DomainError {
  constructor(
    readonly kind: UpstreamFailureKind,
    ...args: ConstructorParameters<typeof DomainError>
  ) {
    super(...args);
  }
}

const BREAKERS_KEPT = 2_000;

/**
 * One upstream GET: the path's 429 breaker, then the global bulkhead (cockatiel), then the
 * provider; the provider's status becomes an DomainError the error middleware can answer with.
 * Nothing here ever quotes an upstream body or URL, so the token cannot leak through an error.
 */
export class SportsUpstreamClient {
  private readonly bulkhead: BulkheadPolicy;
  // Bounded: a breaker per distinct path (ids included) would otherwise grow without limit.
  private readonly breakers = new LRUCache<string, RateLimitBreaker>({ max: BREAKERS_KEPT });

  constructor(
    private readonly provider: SportsProviderPort,
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly limits: UpstreamLimits,
  ) {
    this.bulkhead = bulkhead(limits.concurrency, limits.queue);
  }

  /** The breaker of one upstream path (for tests and diagnostics). */
  breakerFor(req: Pick<UpstreamRequest, 'api' | 'path'>): RateLimitBreaker {
    const id = `${req.api}:${req.path}`;
    let breaker = this.breakers.get(id);
    if (!breaker) {
      breaker = new RateLimitBreaker(this.limits.breaker, this.clock);
      this.breakers.set(id, breaker);
    }
    return breaker;
  }

  async get(req: UpstreamRequest): Promise<unknown> {
    const breaker = this.breakerFor(req);
    const permit = breaker.tryPass();
    if (!permit.allowed) {
      throw unavailable(
        'circuit_open',
        'The provider is rate limiting this resource; retry later',
        permit.retryAfterMs,
      );
    }
    const res = await this.send(req, breaker, permit);
    breaker.record(permit, res.status === 429 ? 'rate-limited' : 'answered');
    if (res.status >= 200 && res.status < 300) return res.body;
    return this.fail(req, res.status, res.retryAfterSeconds);
  }

  private async send(req: UpstreamRequest, breaker: RateLimitBreaker, permit: BreakerPermit) {
    try {
      return await this.bulkhead.execute(({ signal }) => this.provider.fetch(req, signal));
    } catch (err) {
      if (err instanceof BulkheadRejectedError) {
        breaker.record(permit, 'not-sent');
        throw unavailable('upstream_concurrency', 'Too many upstream requests in flight; retry shortly', 1_000);
      }
      breaker.record(permit, 'answered');
      if (err instanceof UpstreamTransportError && err.timeout) {
        throw new UpstreamCallError(
          'upstream_timeout',
          'UPSTREAM_TIMEOUT',
          'The sports provider did not answer in time',
        );
      }
      throw new UpstreamCallError('upstream_error', 'UPSTREAM_ERROR', 'The sports provider could not be reached');
    }
  }

  private fail(req: UpstreamRequest, status: number, retryAfterSeconds: number | undefined): never {
    if (status === 404) {
      throw new UpstreamCallError('not_found', 'NOT_FOUND', `The provider has no ${req.path}`, {
        details: { path: req.path },
      });
    }
    if (status === 401 || status === 403) {
      // Our token or plan is wrong: the operator must know, the caller must not see why.
      this.logger.error({ status, api: req.api, path: req.path }, 'sports provider refused our credentials or plan');
      throw new UpstreamCallError('upstream_refused', 'UPSTREAM_ERROR', 'The sports provider refused the request');
    }
    if (status === 429) {
      // The provider's reset can be most of an hour away; the breaker decides sooner whether to try again.
      const waitMs = Math.min((retryAfterSeconds ?? 60) * 1_000, this.limits.breaker.openMs);
      throw unavailable('upstream_rate_limited', 'The provider is rate limiting this resource; retry later', waitMs);
    }
    if (status === 400 || status === 422) {
      throw new UpstreamCallError(
        'bad_request',
        'VALIDATION_FAILED',
        'The sports provider rejected the request parameters',
      );
    }
    throw new UpstreamCallError('upstream_error', 'UPSTREAM_ERROR', 'The sports provider failed to answer');
  }
}

function unavailable(kind: UpstreamFailureKind, message: string, retryAfterMs: number): UpstreamCallError {
  return new UpstreamCallError(kind, 'UPSTREAM_UNAVAILABLE', message, {
    retryAfterMs: Math.max(1_000, retryAfterMs),
    details: { reason: kind },
  });
}
