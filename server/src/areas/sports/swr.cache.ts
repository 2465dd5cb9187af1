import { performance } from 'node:perf_hooks';
import type { SportsResponse, SportsTtl } from '@duelkit/contract';
import type { CacheEntry, CachePort } from '../../adapters/cache/cache.port.js';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Clock } from '../../platform/clock.js';
import { TTL_WINDOWS } from './sports-request.js';

export interface SwrLimits {
  /** Requests waiting on one key's upstream fetch at once (§8: 8); more are refused. */
  readonly perKeyConcurrency: number;
  /** Cross-instance collapse: how long a fetch lock lives, and how often waiters look. */
  readonly lockTtlMs: number;
  readonly lockPollMs: number;
}

/** What to cache under one key, how to load it, and which windows the answer gets. */
export interface CacheSpec {
  readonly key: string;
  readonly load: () => Promise<unknown>;
  /** The windows; a function when they depend on the answer (a finished fixture vs a live one). */
  readonly ttl: SportsTtl | ((body: unknown) => SportsTtl);
}

/** A lock held by another instance: a background refresh leaves the work to it. */
class RefreshRunningElsewhere extends Error {}

/**
 * The TTL cache behind every sports route: fresh entries are served as they are; stale entries
 * are served at once while exactly one refresh runs; misses are fetched once per key — in this
 * process through a shared promise, across instances through a short lock in the cache store
 * whose holder fetches while the others poll the store for its answer.
 */
export class SwrCache {
  private readonly inflight = new Map<string, Promise<{ entry: CacheEntry; fetched: boolean }>>();
  private readonly waiting = new Map<string, number>();

  constructor(
    private readonly store: CachePort,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly limits: SwrLimits,
    /** Where the data comes from, told in every answer's `_meta`. */
    private readonly source: SportsResponse['_meta']['source'] = 'provider',
  ) {}

  async read(spec: CacheSpec): Promise<SportsResponse> {
    const entry = await this.store.get(spec.key);
    const now = this.clock.now();
    if (entry && now < entry.freshUntil) return answer(spec.key, entry, true, false, this.source);
    if (entry && now < entry.staleUntil) {
      this.refreshInBackground(spec);
      return answer(spec.key, entry, true, true, this.source);
    }
    return this.fetch(spec);
  }

  private async fetch(spec: CacheSpec): Promise<SportsResponse> {
    const count = this.waiting.get(spec.key) ?? 0;
    if (count >= this.limits.perKeyConcurrency) {
      // Nothing stale to offer (a stale entry is served without waiting): refuse rather than queue.
      throw new DomainError('UPSTREAM_UNAVAILABLE', 'Too many concurrent requests for this resource; retry shortly', {
        retryAfterMs: 1_000,
        details: { reason: 'per_key_concurrency', limit: this.limits.perKeyConcurrency },
      });
    }
    this.waiting.set(spec.key, count + 1);
    try {
      const { entry, fetched } = await this.loadOnce(spec, false).catch((err: unknown) => {
        // Joined a background refresh that left the work to another instance: wait like a foreground miss.
        if (err instanceof RefreshRunningElsewhere) return this.loadOnce(spec, false);
        throw err;
      });
      return answer(spec.key, entry, !fetched, false, this.source);
    } finally {
      const left = (this.waiting.get(spec.key) ?? 1) - 1;
      if (left <= 0) this.waiting.delete(spec.key);
      else this.waiting.set(spec.key, left);
    }
  }

  private refreshInBackground(spec: CacheSpec): void {
    if (this.inflight.has(spec.key)) return;
    this.loadOnce(spec, true).catch((err: unknown) => {
      if (err instanceof RefreshRunningElsewhere) return;
      // Stale answers continue until the stale window ends; only the code is logged, never a body.
      const code = err instanceof DomainError ? err.code : 'INTERNAL';
      this.logger.warn({ cacheKey: spec.key, code }, 'sports background refresh failed');
    });
  }

  private loadOnce(spec: CacheSpec, background: boolean): Promise<{ entry: CacheEntry; fetched: boolean }> {
    const running = this.inflight.get(spec.key);
    if (running) return running;
    const promise = this.loadShared(spec, background).finally(() => this.inflight.delete(spec.key));
    this.inflight.set(spec.key, promise);
    return promise;
  }

  /**
   * Fetches under the store's lock, or waits for the instance holding it. When the holder fails
   * or dies, its lock disappears (released, or expired after `lockTtlMs`) without a new entry;
   * a waiter then takes the lock and fetches itself.
   */
  private async loadShared(spec: CacheSpec, background: boolean): Promise<{ entry: CacheEntry; fetched: boolean }> {
    const lockKey = `fetch:${spec.key}`;
    // Lock lifetimes are real time (Redis PX), whatever clock judges the cache windows.
    const giveUpAt = performance.now() + 2 * this.limits.lockTtlMs;
    for (;;) {
      const token = await this.store.tryLock(lockKey, this.limits.lockTtlMs);
      if (token) {
        try {
          return { entry: await this.loadAndStore(spec), fetched: true };
        } finally {
          await this.store.unlock(lockKey, token);
        }
      }
      if (background) throw new RefreshRunningElsewhere();
      const theirs = await this.pollForAnswer(spec.key, lockKey, giveUpAt);
      if (theirs) return { entry: theirs, fetched: false };
      // Better one extra upstream call than a request that never ends.
      if (performance.now() >= giveUpAt) return { entry: await this.loadAndStore(spec), fetched: true };
    }
  }

  /** A fresh entry once the lock holder stored one; null when its lock went away without one. */
  private async pollForAnswer(key: string, lockKey: string, giveUpAt: number): Promise<CacheEntry | null> {
    while (performance.now() < giveUpAt) {
      await new Promise((resolve) => setTimeout(resolve, this.limits.lockPollMs));
      const entry = await this.store.get(key);
      if (entry && this.clock.now() < entry.freshUntil) return entry;
      if (!(await this.store.isLocked(lockKey))) return null;
    }
    return null;
  }

  private async loadAndStore(spec: CacheSpec): Promise<CacheEntry> {
    const body = await spec.load();
    const ttl = typeof spec.ttl === 'function' ? spec.ttl(body) : spec.ttl;
    const windows = TTL_WINDOWS[ttl];
    const fetchedAt = this.clock.now();
    const entry: CacheEntry = {
      body,
      fetchedAt,
      freshUntil: fetchedAt + windows.freshMs,
      staleUntil: fetchedAt + windows.staleMs,
    };
    await this.store.set(spec.key, entry, windows.staleMs);
    return entry;
  }
}

function answer(
  cacheKey: string,
  entry: CacheEntry,
  fromCache: boolean,
  isStale: boolean,
  source: SportsResponse['_meta']['source'],
): SportsResponse {
  return {
    data: entry.body as SportsResponse['data'],
    _meta: { fromCache, isStale, fetchedAt: entry.fetchedAt, cacheKey, source },
  };
}
