import {
  BrokenCircuitError,
  BulkheadRejectedError,
  bulkhead,
  circuitBreaker,
  CircuitState,
  handleWhen,
  type BulkheadPolicy,
  type CircuitBreakerPolicy,
} from 'cockatiel';
import { LRUCache } from 'lru-cache';
import type { SportsProxyRequest, SportsResponse, SportsTtl } from '@duelkit/contract';
import type { CacheEntry, CachePort } from '../adapters/cache/cache.port.js';
import { UpstreamTransportError, type SportsProviderPort } from '../adapters/sports-provider/sports-provider.port.js';
import { AppError } from '../http/app-error.js';
import type { Logger } from '../logger.js';
import { SlidingWindowBreaker } from './sliding-window.breaker.js';
import {
  cacheKeyOf,
  effectiveTtl,
  sanitiseParams,
  TTL_WINDOWS,
  validateMethod,
  validatePath,
  type SportsApi,
  type UpstreamRequest,
} from './sports-request.js';

export interface SportsLimits {
  /** Requests waiting on one cache key at once; more are served stale or refused. */
  readonly perKeyConcurrency: number;
  /** Upstream calls in flight at once, and how many may queue for a slot. */
  readonly upstreamConcurrency: number;
  readonly upstreamQueue: number;
  /** 429s within `breakerWindowMs` that open a path's breaker, and for how long. */
  readonly breakerThreshold: number;
  readonly breakerWindowMs: number;
  readonly breakerOpenMs: number;
  /** Cross-instance collapse: how long a fetch lock lives, and how often waiters look. */
  readonly lockTtlMs: number;
  readonly lockPollMs: number;
}

export const DEFAULT_SPORTS_LIMITS: SportsLimits = {
  perKeyConcurrency: 8,
  upstreamConcurrency: 12,
  upstreamQueue: 100,
  breakerThreshold: 5,
  breakerWindowMs: 30_000,
  breakerOpenMs: 60_000,
  lockTtlMs: 10_000,
  lockPollMs: 50,
};

/** What to cache under one key and how to load it from upstream. */
interface CacheSpec {
  readonly key: string;
  readonly ttl: SportsTtl;
  readonly load: () => Promise<unknown>;
}

/** Upstream said 429 for this path: counts towards the path's breaker. */
class UpstreamRateLimited extends Error {
  constructor(readonly retryAfterSeconds: number | undefined) {
    super('upstream rate limited');
  }
}

/** Upstream failed in a way stale data can cover. */
class UpstreamFailure extends Error {}

/** The path's breaker is open: nothing goes upstream until it half-opens. */
class CircuitOpen extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('circuit open');
  }
}

/**
 * The sports-data proxy: validation, token stripping, a TTL cache with stale-while-revalidate,
 * request collapsing (in process and across instances), per-key concurrency, an upstream
 * bulkhead and a per-path circuit breaker on 429s.
 */
export class SportsService {
  private readonly inflight = new Map<string, Promise<CacheEntry>>();
  private readonly waiters = new Map<string, number>();
  private readonly breakers: LRUCache<string, { policy: CircuitBreakerPolicy; openedAt: number }>;
  private readonly bulkhead: BulkheadPolicy;

  constructor(
    private readonly provider: SportsProviderPort,
    private readonly cache: CachePort,
    private readonly logger: Logger,
    private readonly limits: SportsLimits = DEFAULT_SPORTS_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.bulkhead = bulkhead(limits.upstreamConcurrency, limits.upstreamQueue);
    this.breakers = new LRUCache({ max: 2_000 });
  }

  /** POST /svc/sports/proxy (v3). */
  proxy(body: SportsProxyRequest): Promise<SportsResponse> {
    return this.forward('v3', body);
  }

  /** POST /svc/sports/cricket-v2/proxy. */
  cricketV2Proxy(body: SportsProxyRequest): Promise<SportsResponse> {
    return this.forward('cricket-v2', body);
  }

  /** Fixture details with participants, scores, state, events and lineups, plus pre-match odds. */
  fixtureSnapshot(fixtureId: string): Promise<SportsResponse> {
    const fixture = this.request('v3', `football/fixtures/${fixtureId}`, {
      include: 'participants;scores;state;events;lineups;venue',
    });
    const odds = this.request('v3', `football/odds/pre-match/fixtures/${fixtureId}`, {});
    return this.cached({
      key: `sports:snapshot:football:fixture:${fixtureId}`,
      ttl: 'live',
      load: async () => {
        const [f, o] = await Promise.all([
          this.call(fixture),
          this.call(odds).catch((err: unknown) => {
            // A fixture without odds is still a snapshot.
            if (err instanceof AppError && err.code === 'NOT_FOUND') return { data: [] };
            throw err;
          }),
        ]);
        return { fixture: dataOf(f), odds: dataOf(o) };
      },
    });
  }

  /** A team's current squad with player details. */
  teamSquad(teamId: string): Promise<SportsResponse> {
    return this.single(this.request('v3', `football/squads/teams/${teamId}`, { include: 'player' }), 'default');
  }

  /** A team's statistics for a season (the current one unless `seasonId`). */
  teamSeasonStats(teamId: string, seasonId?: string): Promise<SportsResponse> {
    const params: Record<string, string> = { include: 'statistics.details' };
    if (seasonId) params['filters'] = `teamStatisticSeasons:${seasonId}`;
    return this.single(this.request('v3', `football/teams/${teamId}`, params), 'default');
  }

  private forward(api: SportsApi, body: SportsProxyRequest): Promise<SportsResponse> {
    validateMethod(body.method);
    const path = validatePath(api, body.path);
    const req: UpstreamRequest = { api, path, params: sanitiseParams(body.params) };
    return this.single(req, effectiveTtl(api, path, body.ttl));
  }

  private request(api: SportsApi, path: string, params: Record<string, string>): UpstreamRequest {
    return { api, path, params: sanitiseParams(params) };
  }

  private single(req: UpstreamRequest, ttl: SportsTtl): Promise<SportsResponse> {
    return this.cached({ key: cacheKeyOf(req), ttl, load: () => this.call(req) });
  }

  private async cached(spec: CacheSpec): Promise<SportsResponse> {
    const entry = await this.cache.get(spec.key);
    const now = this.now();
    if (entry && now < entry.freshUntil) return answer(spec.key, entry, true, false);
    if (entry && now < entry.staleUntil) {
      this.refreshInBackground(spec);
      return answer(spec.key, entry, true, true);
    }
    return this.fetchCollapsed(spec, null);
  }

  private async fetchCollapsed(spec: CacheSpec, stale: CacheEntry | null): Promise<SportsResponse> {
    const waiting = this.waiters.get(spec.key) ?? 0;
    if (waiting >= this.limits.perKeyConcurrency) {
      return this.fallBack(
        spec.key,
        stale,
        new AppError('UPSTREAM_UNAVAILABLE', 'Too many concurrent requests for this resource; retry shortly', {
          headers: { 'Retry-After': '1' },
          details: { reason: 'per_key_concurrency', limit: this.limits.perKeyConcurrency },
        }),
      );
    }
    this.waiters.set(spec.key, waiting + 1);
    try {
      const entry = await this.loadOnce(spec);
      return answer(spec.key, entry, false, false);
    } catch (err) {
      return this.fallBack(spec.key, stale, this.toAppError(err));
    } finally {
      const left = (this.waiters.get(spec.key) ?? 1) - 1;
      if (left <= 0) this.waiters.delete(spec.key);
      else this.waiters.set(spec.key, left);
    }
  }

  private refreshInBackground(spec: CacheSpec): void {
    if (this.inflight.has(spec.key)) return;
    this.loadOnce(spec, { background: true }).catch((err: unknown) =>
      this.logger.warn({ cacheKey: spec.key, err: (err as Error).message }, 'sports background refresh failed'),
    );
  }

  /** One load per key in this process; across instances one per key under a short lock. */
  private loadOnce(spec: CacheSpec, opts: { background?: boolean } = {}): Promise<CacheEntry> {
    const running = this.inflight.get(spec.key);
    if (running) return running;
    const promise = this.loadUnderLock(spec, opts.background ?? false).finally(() => this.inflight.delete(spec.key));
    this.inflight.set(spec.key, promise);
    return promise;
  }

  private async loadUnderLock(spec: CacheSpec, background: boolean): Promise<CacheEntry> {
    const startedAt = this.now();
    let token = await this.cache.tryLock(`fetch:${spec.key}`, this.limits.lockTtlMs);
    if (!token) {
      // Another instance is fetching this key: wait for its answer. If its lock disappears
      // without an answer (it failed or died and the lock expired), take over.
      if (background) throw new UpstreamFailure('refresh already running elsewhere');
      const theirs = await this.waitForOtherInstance(spec.key, startedAt);
      if (theirs) return theirs;
      token = await this.cache.tryLock(`fetch:${spec.key}`, this.limits.lockTtlMs);
    }
    try {
      const body = await spec.load();
      const fetchedAt = this.now();
      const windows = TTL_WINDOWS[spec.ttl];
      const entry: CacheEntry = {
        body,
        fetchedAt,
        freshUntil: fetchedAt + windows.freshMs,
        staleUntil: fetchedAt + windows.staleMs,
      };
      await this.cache.set(spec.key, entry, windows.staleMs);
      return entry;
    } finally {
      if (token) await this.cache.unlock(`fetch:${spec.key}`, token);
    }
  }

  private async waitForOtherInstance(key: string, startedAt: number): Promise<CacheEntry | null> {
    const deadline = Date.now() + this.limits.lockTtlMs + this.limits.lockPollMs;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, this.limits.lockPollMs));
      const entry = await this.cache.get(key);
      if (entry && entry.fetchedAt >= startedAt - this.limits.lockPollMs) return entry;
      if (!(await this.cache.isLocked(`fetch:${key}`))) return (await this.cache.get(key)) ?? null;
    }
    return null;
  }

  /** One upstream GET through the path's breaker and the global bulkhead. */
  private async call(req: UpstreamRequest): Promise<unknown> {
    const breaker = this.breakerFor(`${req.api}:${req.path}`);
    let res;
    try {
      res = await breaker.policy.execute(() =>
        this.bulkhead.execute(async ({ signal }) => {
          const r = await this.provider.fetch(req, signal);
          if (r.status === 429) throw new UpstreamRateLimited(r.retryAfterSeconds);
          return r;
        }),
      );
    } catch (err) {
      if (err instanceof BrokenCircuitError) {
        const left = breaker.openedAt + this.limits.breakerOpenMs - this.now();
        throw new CircuitOpen(Math.max(1, Math.ceil(left / 1000)));
      }
      throw err;
    }
    if (res.status >= 200 && res.status < 300) return res.body;
    if (res.status === 404)
      throw new AppError('NOT_FOUND', `The provider has no ${req.path}`, { details: { path: req.path } });
    if (res.status === 401 || res.status === 403) {
      this.logger.error({ status: res.status, path: req.path }, 'sports provider refused our credentials or plan');
      throw new AppError('UPSTREAM_ERROR', 'The sports provider refused the request');
    }
    if (res.status === 400)
      throw new AppError('VALIDATION_FAILED', 'The sports provider rejected the request parameters');
    throw new UpstreamFailure(`upstream answered ${res.status}`);
  }

  private breakerFor(path: string) {
    let entry = this.breakers.get(path);
    if (!entry) {
      const policy = circuitBreaker(
        handleWhen((err) => err instanceof UpstreamRateLimited),
        {
          halfOpenAfter: this.limits.breakerOpenMs,
          breaker: new SlidingWindowBreaker(this.limits.breakerThreshold, this.limits.breakerWindowMs, this.now),
        },
      );
      const created = { policy, openedAt: 0 };
      policy.onStateChange((state) => {
        if (state === CircuitState.Open) created.openedAt = this.now();
      });
      this.breakers.set(path, created);
      entry = created;
    }
    return entry;
  }

  private toAppError(err: unknown): AppError {
    if (err instanceof AppError) return err;
    if (err instanceof CircuitOpen) {
      return new AppError('UPSTREAM_UNAVAILABLE', 'The provider is rate limiting this resource; retry later', {
        headers: { 'Retry-After': String(err.retryAfterSeconds) },
        details: { reason: 'circuit_open' },
      });
    }
    if (err instanceof BulkheadRejectedError) {
      return new AppError('UPSTREAM_UNAVAILABLE', 'Too many upstream requests in flight; retry shortly', {
        headers: { 'Retry-After': '1' },
        details: { reason: 'upstream_concurrency' },
      });
    }
    if (err instanceof UpstreamRateLimited) {
      return new AppError('UPSTREAM_UNAVAILABLE', 'The provider is rate limiting this resource; retry later', {
        headers: { 'Retry-After': String(Math.min(err.retryAfterSeconds ?? 60, 3_600)) },
        details: { reason: 'upstream_rate_limited' },
      });
    }
    if (err instanceof UpstreamTransportError && err.timeout) {
      return new AppError('UPSTREAM_TIMEOUT', 'The sports provider did not answer in time');
    }
    return new AppError('UPSTREAM_ERROR', 'The sports provider failed to answer');
  }

  /** Stale data beats an error, except for answers that are about the request itself. */
  private fallBack(key: string, stale: CacheEntry | null, err: AppError): Promise<SportsResponse> {
    if (stale && err.status >= 500) return Promise.resolve(answer(key, stale, true, true));
    return Promise.reject(err);
  }
}

function dataOf(body: unknown): unknown {
  return body && typeof body === 'object' && 'data' in body ? body.data : body;
}

function answer(cacheKey: string, entry: CacheEntry, fromCache: boolean, isStale: boolean): SportsResponse {
  return {
    data: entry.body as SportsResponse['data'],
    _meta: { fromCache, isStale, fetchedAt: entry.fetchedAt, cacheKey },
  };
}
