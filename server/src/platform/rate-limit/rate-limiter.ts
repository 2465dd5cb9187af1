import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { systemClock } from '../clock.js';

/** Outcome of counting one request against a limit. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Milliseconds until the current window resets. */
  readonly resetMs: number;
}

/** A fixed-window limit of `points` requests per `durationSec`. */
export interface RateLimiter {
  readonly limit: number;
  consume(key: string): Promise<RateLimitDecision>;
  /**
   * Counts the request and decides at once, when the limiter can (its counters are in this
   * process). The decision returned is reused by the next call: read it before calling again.
   */
  consumeNow?(key: string): RateLimitDecision;
}

interface Window {
  count: number;
  resetAt: number;
}

/**
 * A fixed window of `points` per `durationMs` per key, counted in this process's memory: decided
 * synchronously, and without allocating once a key has its window (the hot path of every
 * request). The window starts at a key's first request, as rate-limiter-flexible's does.
 */
class MemoryWindowLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly decision = { allowed: true, limit: 0, remaining: 0, resetMs: 0 };
  private sweepAt = 10_000;

  constructor(
    readonly limit: number,
    private readonly durationMs: number,
  ) {
    this.decision.limit = limit;
  }

  consumeNow(key: string): RateLimitDecision {
    // Rate windows are infrastructure timing (like Redis key expiry), so they read the wall clock.
    const now = systemClock.now();
    let window = this.windows.get(key);
    if (window === undefined) {
      if (this.windows.size >= this.sweepAt) this.sweep(now);
      window = { count: 0, resetAt: now + this.durationMs };
      this.windows.set(key, window);
    } else if (window.resetAt <= now) {
      window.count = 0;
      window.resetAt = now + this.durationMs;
    }
    window.count += 1;
    const d = this.decision;
    d.allowed = window.count <= this.limit;
    d.remaining = Math.max(0, this.limit - window.count);
    d.resetMs = window.resetAt - now;
    return d;
  }

  consume(key: string): Promise<RateLimitDecision> {
    return Promise.resolve({ ...this.consumeNow(key) });
  }

  /** Drops expired windows; the next sweep waits until the map has doubled. */
  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.sweepAt = Math.max(10_000, this.windows.size * 2);
  }
}

class FlexibleRateLimiter implements RateLimiter {
  constructor(
    private readonly inner: RateLimiterAbstract,
    readonly limit: number,
    private readonly onStoreError: (err: unknown) => void,
  ) {}

  async consume(key: string): Promise<RateLimitDecision> {
    try {
      const res = await this.inner.consume(key, 1);
      return { allowed: true, limit: this.limit, remaining: res.remainingPoints, resetMs: res.msBeforeNext };
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        return { allowed: false, limit: this.limit, remaining: 0, resetMs: err.msBeforeNext };
      }
      // A limiter store failure must never turn into a 5xx: let the request through.
      this.onStoreError(err);
      return { allowed: true, limit: this.limit, remaining: this.limit, resetMs: 0 };
    }
  }
}

/**
 * Builds limiters on Redis (shared by every instance) when a client is given, with an in-memory
 * insurance limiter that takes over while Redis is unreachable; purely in memory otherwise.
 */
export class RateLimiterFactory {
  constructor(
    private readonly redis: Redis | undefined,
    private readonly onStoreError: (err: unknown) => void,
    /** The deployment's namespace on a shared Redis (`REDIS_PREFIX`). */
    private readonly prefix: string,
  ) {}

  create(name: string, points: number, durationSec = 60): RateLimiter {
    if (!this.redis) return new MemoryWindowLimiter(points, durationSec * 1_000);
    const keyPrefix = `${this.prefix}:${name}`;
    const inner = new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix,
      points,
      duration: durationSec,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: durationSec }),
    });
    return new FlexibleRateLimiter(inner, points, this.onStoreError);
  }
}
