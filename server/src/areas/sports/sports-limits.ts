import type { UpstreamLimits } from './sports-upstream.client.js';

/** The sports proxies' protection limits (docs/sports-proxy.md), set by the SPORTS_* variables. */
export interface SportsLimits {
  /** Requests waiting on one cache key at once; more are refused (§8: 8). */
  readonly perKeyConcurrency: number;
  /** Upstream calls in flight at once (§8: about 12), and how many may queue for a slot. */
  readonly upstreamConcurrency: number;
  readonly upstreamQueue: number;
  /** 429s within `breakerWindowMs` that open a path's breaker, and for how long (§8: 5, 30 s, 60 s). */
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
  upstreamQueue: 48,
  breakerThreshold: 5,
  breakerWindowMs: 30_000,
  breakerOpenMs: 60_000,
  lockTtlMs: 10_000,
  lockPollMs: 50,
};

/** The upstream client's share of the limits. */
export function upstreamLimits(limits: SportsLimits): UpstreamLimits {
  return {
    concurrency: limits.upstreamConcurrency,
    queue: limits.upstreamQueue,
    breaker: { threshold: limits.breakerThreshold, windowMs: limits.breakerWindowMs, openMs: limits.breakerOpenMs },
  };
}
