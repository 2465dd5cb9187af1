import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

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
    private readonly prefix = 'dk:rl',
  ) {}

  create(name: string, points: number, durationSec = 60): RateLimiter {
    const keyPrefix = `${this.prefix}:${name}`;
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationSec });
    const inner = this.redis
      ? new RateLimiterRedis({
          storeClient: this.redis,
          keyPrefix,
          points,
          duration: durationSec,
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;
    return new FlexibleRateLimiter(inner, points, this.onStoreError);
  }
}
