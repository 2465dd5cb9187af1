import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CacheEntry, CachePort } from './cache.port.js';

const UNLOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** Cache and locks in Redis, shared by every instance. Redis errors read as misses. */
export class RedisCacheAdapter implements CachePort {
  constructor(
    private readonly redis: Redis,
    /** Every key's prefix: the deployment's namespace and the cache's name (`<REDIS_PREFIX>:cache:`). */
    private readonly prefix: string,
  ) {}

  async get(key: string): Promise<CacheEntry | null> {
    try {
      const raw = await this.redis.get(this.prefix + key);
      return raw ? (JSON.parse(raw) as CacheEntry) : null;
    } catch {
      return null;
    }
  }

  async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    try {
      await this.redis.set(this.prefix + key, JSON.stringify(entry), 'PX', Math.max(1, Math.round(ttlMs)));
    } catch {
      // A cache that cannot store is a miss next time, never an error for this request.
    }
  }

  async tryLock(key: string, ttlMs: number): Promise<string | null> {
    const token = randomUUID();
    try {
      const ok = await this.redis.set(`${this.prefix}lock:${key}`, token, 'PX', ttlMs, 'NX');
      return ok === 'OK' ? token : null;
    } catch {
      // Without Redis there is no cross-instance collapse; in-process collapse still applies.
      return token;
    }
  }

  async unlock(key: string, token: string): Promise<void> {
    try {
      await this.redis.eval(UNLOCK, 1, `${this.prefix}lock:${key}`, token);
    } catch {
      // The lock expires by itself.
    }
  }

  async isLocked(key: string): Promise<boolean> {
    try {
      return (await this.redis.exists(`${this.prefix}lock:${key}`)) === 1;
    } catch {
      return false;
    }
  }
}
