import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { CacheEntry, CachePort } from './cache.port.js';

/** In-memory cache bounded in bytes (JSON size of each entry), for a single instance. */
export class MemoryCacheAdapter implements CachePort {
  private readonly entries: LRUCache<string, CacheEntry>;
  private readonly locks = new Map<string, { token: string; until: number }>();

  constructor(
    maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache<string, CacheEntry>({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => key.length + (JSON.stringify(entry.body)?.length ?? 4) + 64,
    });
  }

  async get(key: string): Promise<CacheEntry | null> {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.staleUntil <= this.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    this.entries.set(key, entry);
  }

  async tryLock(key: string, ttlMs: number): Promise<string | null> {
    const held = this.locks.get(key);
    if (held && held.until > this.now()) return null;
    const token = randomUUID();
    this.locks.set(key, { token, until: this.now() + ttlMs });
    return token;
  }

  async unlock(key: string, token: string): Promise<void> {
    if (this.locks.get(key)?.token === token) this.locks.delete(key);
  }

  async isLocked(key: string): Promise<boolean> {
    const held = this.locks.get(key);
    return Boolean(held && held.until > this.now());
  }
}
