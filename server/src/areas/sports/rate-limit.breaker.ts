import type { Clock } from '../../platform/clock.js';

export interface RateLimitBreakerOptions {
  /** Upstream 429s within `windowMs` that open the breaker. */
  readonly threshold: number;
  readonly windowMs: number;
  /** How long an open breaker keeps calls away from upstream before one trial call. */
  readonly openMs: number;
}

/** May a call go upstream now? `trial` marks the single probe after an open period. */
export type BreakerPermit = { readonly allowed: true; readonly trial: boolean } | BreakerRefusal;
export interface BreakerRefusal {
  readonly allowed: false;
  readonly retryAfterMs: number;
}

/** What came of a permitted call. */
export type BreakerOutcome = 'rate-limited' | 'answered' | 'not-sent';

/**
 * One upstream path's breaker for provider 429s (§8): the `threshold`-th 429 within a sliding
 * `windowMs` opens it for `openMs`; then exactly one trial call goes through — an answer other
 * than 429 closes it, a 429 opens it again. Other failures (5xx, timeouts) never count: they are
 * not the provider telling us to slow down.
 *
 * Not cockatiel's CircuitBreakerPolicy: its open period is measured with `Date.now()` and cannot
 * follow an injected clock, and neither of its breakers counts "N failures within a time window".
 */
export class RateLimitBreaker {
  private hits: number[] = [];
  private openUntil: number | null = null;
  private trialRunning = false;

  constructor(
    private readonly options: RateLimitBreakerOptions,
    private readonly clock: Clock,
  ) {}

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.openUntil === null) return 'closed';
    return this.clock.now() < this.openUntil ? 'open' : 'half-open';
  }

  tryPass(): BreakerPermit {
    if (this.openUntil === null) return { allowed: true, trial: false };
    const now = this.clock.now();
    if (now < this.openUntil) return { allowed: false, retryAfterMs: this.openUntil - now };
    // Half-open: one probe at a time; the others are told to come back shortly.
    if (this.trialRunning) return { allowed: false, retryAfterMs: 1_000 };
    this.trialRunning = true;
    return { allowed: true, trial: true };
  }

  record(permit: BreakerPermit, outcome: BreakerOutcome): void {
    if (!permit.allowed) return;
    if (permit.trial) {
      this.trialRunning = false;
      if (outcome === 'rate-limited') this.open();
      else if (outcome === 'answered') this.close();
      return;
    }
    // Calls that started before the breaker opened may still return 429s: already counted enough.
    if (outcome !== 'rate-limited' || this.openUntil !== null) return;
    const now = this.clock.now();
    this.hits = this.hits.filter((t) => now - t < this.options.windowMs);
    this.hits.push(now);
    if (this.hits.length >= this.options.threshold) this.open();
  }

  private open(): void {
    this.openUntil = this.clock.now() + this.options.openMs;
    this.hits = [];
  }

  private close(): void {
    this.openUntil = null;
    this.hits = [];
  }
}
