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
