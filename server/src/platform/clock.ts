/** Wall-clock time in milliseconds since the epoch; injected wherever a cache or breaker window is judged. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that moves only when told to, for tests of fresh/stale windows and breaker periods.
 *
 * @example
 * const clock = new ManualClock(Date.UTC(2026, 10, 22));
 * clock.advance(61_000); // past the default fresh window
 */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
