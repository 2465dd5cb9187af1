import type { Clock } from '../clock.js';

/** What a breaker reports about itself. */
export interface BreakerSnapshot {
  readonly state: 'closed' | 'open' | 'half-open';
  readonly consecutiveFailures: number;
  /** While open: when the next trial call is let through (ms since the epoch). */
  readonly openUntil: number | null;
}

/**
 * A circuit breaker for calls to another service: after `threshold` consecutive failures it opens
 * and refuses calls at once for `cooldownMs`; then one trial call goes through (half-open) —
 * its success closes the breaker, its failure opens it again. Answers that are the caller's own
 * mistake (a 4xx) are successes: the service is up.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedUntil: number | null = null;
  private trialInFlight = false;

  constructor(
    private readonly options: { threshold: number; cooldownMs: number },
    private readonly clock: Clock,
  ) {}

  snapshot(): BreakerSnapshot {
    const until = this.openedUntil;
    if (until === null) return { state: 'closed', consecutiveFailures: this.failures, openUntil: null };
    const state = this.clock.now() < until ? 'open' : 'half-open';
    return { state, consecutiveFailures: this.failures, openUntil: until };
  }

  /**
   * Whether a call may go out now; when it may, the caller must report its outcome with
   * `success()` or `failure()`. In half-open state only one trial call is let through at a time.
   */
  tryAcquire(): boolean {
    const s = this.snapshot();
    if (s.state === 'closed') return true;
    if (s.state === 'open' || this.trialInFlight) return false;
    this.trialInFlight = true;
    return true;
  }

  success(): void {
    this.failures = 0;
    this.openedUntil = null;
    this.trialInFlight = false;
  }

  failure(): void {
    this.failures++;
    const wasTrial = this.trialInFlight;
    this.trialInFlight = false;
    if (wasTrial || this.failures >= this.options.threshold)
      this.openedUntil = this.clock.now() + this.options.cooldownMs;
  }
}
