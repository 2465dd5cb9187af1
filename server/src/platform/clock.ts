/** Wall-clock time in milliseconds since the epoch; injected wherever a cache or breaker window is judged. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Milliseconds since an arbitrary origin that never jumps (`performance.now`): for how long
 * something took or is held (a lock's lifetime, the spacing of retries), never for a date.
 */
export const monotonicClock: Clock = { now: () => performance.now() };

/** A clock a test or the operator can move forward. */
export interface AdjustableClock extends Clock {
  advance(ms: number): void;
}

/** Whether `clock` can be moved forward. */
export function isAdjustable(clock: Clock): clock is AdjustableClock {
  return typeof (clock as Partial<AdjustableClock>).advance === 'function';
}

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

/**
 * The wall clock, moved forward by hand: for a whole test server whose chain keeps wall time, so
 * a deadline only the server judges (an invitation's expiry, a pack's lock) passes at once instead
 * of being slept through. Deadlines the chain also enforces still need the chain's time to pass.
 *
 * @example
 * const clock = new OffsetClock();
 * const server = await startTestServer(env, { clock });
 * clock.advance(2_000); // an invitation expiring in 1.5 s has expired
 */
export class OffsetClock implements Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  advance(ms: number): void {
    this.offset += ms;
  }
}
