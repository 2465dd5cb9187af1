import type { Clock } from '../../platform/clock.js';
import { LRUCache } from 'lru-cache';

/**
 * A short-lived cache in front of list queries: public lists are read far more often than
 * markets change, and totals are the expensive part of a page. Entries expire after `ttlMs`;
 * the indexer calls `invalidate()` whenever it writes the read model, so this instance never
 * serves a list older than its own last write. Other instances converge within `ttlMs`.
 */
export class ListCache<V extends object> {
  private readonly entries: LRUCache<string, V>;
  private readonly inflight = new Map<string, Promise<V>>();
  private generation = 0;
  private readonly listeners: (() => void)[] = [];

  constructor(
    readonly ttlMs: number,
    max = 5_000,
  ) {
    this.entries = new LRUCache<string, V>({ max, ttl: Math.max(1, ttlMs) });
  }

  /**
   * The cached value for `key`, or the one `load` produces (concurrent misses share one load);
   * a loaded value is kept only when `keep` says so.
   */
  async get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) return hit;
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const promise = load().finally(() => this.inflight.delete(key));
    this.inflight.set(key, promise);
    const value = await promise;
    // A write that landed while this load ran may not be in it: do not keep it.
    if (generation === this.generation && keep(value)) this.entries.set(key, value);
    return value;
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.inflight.clear();
    for (const listener of this.listeners) listener();
  }

  /** Runs `listener` on every invalidation (other caches of the same read model follow this one). */
  onInvalidate(listener: () => void): void {
    this.listeners.push(listener);
  }
}

/**
 * Totals of list filters, each kept `ttlMs` on the injected clock: every page and every sort of
 * one filter share one count, so a busy list runs `count(*)` once per filter per window instead
 * of once per page. A total is at most `ttlMs` old, and none older than this instance's last
 * write to the read model (`invalidate`).
 */
export class CountCache {
  private readonly entries = new Map<string, { readonly n: number; readonly at: number }>();
  private readonly inflight = new Map<string, Promise<number>>();
  private generation = 0;

  constructor(
    readonly ttlMs: number,
    private readonly clock: Clock,
    private readonly max = 1_000,
  ) {}

  async get(key: string, load: () => Promise<number>): Promise<number> {
    const hit = this.entries.get(key);
    if (hit !== undefined && this.clock.now() - hit.at < this.ttlMs) return hit.n;
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const startedAt = this.clock.now();
    const promise = load().finally(() => this.inflight.delete(key));
    this.inflight.set(key, promise);
    const n = await promise;
    if (generation === this.generation && this.ttlMs > 0) {
      if (this.entries.size >= this.max) this.entries.clear();
      // Aged from when the count started: it may miss rows written while it ran.
      this.entries.set(key, { n, at: startedAt });
    }
    return n;
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.inflight.clear();
  }
}
