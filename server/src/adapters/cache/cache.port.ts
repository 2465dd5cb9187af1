/** A cached upstream answer with its windows (milliseconds since the epoch). */
export interface CacheEntry {
  readonly body: unknown;
  readonly fetchedAt: number;
  readonly freshUntil: number;
  readonly staleUntil: number;
}

/**
 * Where sports answers are cached, plus the short locks that collapse identical upstream calls
 * across instances. Redis when configured (shared), else memory (one instance).
 */
export interface CachePort {
  get(key: string): Promise<CacheEntry | null>;
  /** Stores `entry`; the store may drop it after `ttlMs`. */
  set(key: string, entry: CacheEntry, ttlMs: number): Promise<void>;
  /** Takes the lock `key` for `ttlMs` unless someone holds it; returns a token when taken. */
  tryLock(key: string, ttlMs: number): Promise<string | null>;
  /** Releases the lock if `token` still holds it. */
  unlock(key: string, token: string): Promise<void>;
  /** Whether anyone holds the lock. */
  isLocked(key: string): Promise<boolean>;
}
