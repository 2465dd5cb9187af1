import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { monotonicClock, systemClock, type Clock } from '../../platform/clock.js';
import type { CacheEntry, CachePort } from './cache.port.js';

/** Bytes charged per entry beyond its JSON body: key, timestamps and LRU bookkeeping. */
const ENTRY_OVERHEAD = 96;

/**
 * The cache of a single instance: an LRU bounded in bytes (each entry weighs its key plus the
 * JSON size of its body), least recently used entries evicted first. Locks live here too, so
 * two services sharing one adapter collapse like two instances sharing Redis.
 */
export class MemoryCacheAdapter implements CachePort {
  private readonly entries: LRUCache<string, CacheEntry>;
  private readonly locks = new Map<string, { token: string; until: number }>();

  /**
   * @param maxBytes upper bound of all entries together; an entry larger than this is not kept.
   * @param clock decides when an entry's stale window has passed (the service's clock).
   * @param leases decides when a lock's lifetime has passed: real time, like Redis PX, whatever
   *   clock judges the cache windows (tests pass one they move).
   */
  constructor(
    maxBytes: number,
    private readonly clock: Clock = systemClock,
    private readonly leases: Clock = monotonicClock,
  ) {
    this.entries = new LRUCache<string, CacheEntry>({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => key.length * 2 + jsonBytes(entry.body) + ENTRY_OVERHEAD,
    });
  }

  /** Bytes currently held (for tests and diagnostics). */
  get size(): number {
    return this.entries.calculatedSize;
  }

  async get(key: string): Promise<CacheEntry | null> {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.staleUntil <= this.clock.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry;
  }

  // Expiry is judged on read against `staleUntil`, so the store TTL is not needed here.
  async set(key: string, entry: CacheEntry, _ttlMs?: number): Promise<void> {
    this.entries.set(key, entry);
  }

  async tryLock(key: string, ttlMs: number): Promise<string | null> {
    const now = this.leases.now();
    const held = this.locks.get(key);
    if (held && held.until > now) return null;
    const token = randomUUID();
    this.locks.set(key, { token, until: now + ttlMs });
    return token;
  }

  async unlock(key: string, token: string): Promise<void> {
    if (this.locks.get(key)?.token === token) this.locks.delete(key);
  }

  async isLocked(key: string): Promise<boolean> {
    const now = this.leases.now();
    const held = this.locks.get(key);
    if (held && held.until <= now) this.locks.delete(key);
    return Boolean(held && held.until > now);
  }
}

function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? 4 : Buffer.byteLength(text);
}
