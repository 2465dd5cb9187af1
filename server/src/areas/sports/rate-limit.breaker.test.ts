import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { RateLimitBreaker } from './rate-limit.breaker.js';

const options = { threshold: 5, windowMs: 30_000, openMs: 60_000 };

function rateLimited(breaker: RateLimitBreaker, times: number, clock: ManualClock, stepMs: number) {
  for (let i = 0; i < times; i++) {
    breaker.record(breaker.tryPass(), 'rate-limited');
    clock.advance(stepMs);
  }
}

describe('RateLimitBreaker', () => {
  it('opens on the fifth 429 within the window', () => {
    const clock = new ManualClock();
    const breaker = new RateLimitBreaker(options, clock);
    rateLimited(breaker, 4, clock, 7_000);
    expect(breaker.state).toBe('closed');
    rateLimited(breaker, 1, clock, 0);
    expect(breaker.state).toBe('open');
    expect(breaker.tryPass()).toEqual({ allowed: false, retryAfterMs: 60_000 });
  });

  it('forgets 429s older than the window', () => {
    const clock = new ManualClock();
    const breaker = new RateLimitBreaker(options, clock);
    rateLimited(breaker, 10, clock, 7_600);
    expect(breaker.state).toBe('closed');
  });

  it('ignores answers other than 429', () => {
    const clock = new ManualClock();
    const breaker = new RateLimitBreaker(options, clock);
    rateLimited(breaker, 4, clock, 0);
    breaker.record(breaker.tryPass(), 'answered');
    breaker.record(breaker.tryPass(), 'not-sent');
    expect(breaker.state).toBe('closed');
    rateLimited(breaker, 1, clock, 0);
    expect(breaker.state).toBe('open');
  });

  it('lets one trial through after the open period; success closes it', () => {
    const clock = new ManualClock();
    const breaker = new RateLimitBreaker(options, clock);
    rateLimited(breaker, 5, clock, 0);
    clock.advance(60_000);
    expect(breaker.state).toBe('half-open');
    const trial = breaker.tryPass();
    expect(trial).toEqual({ allowed: true, trial: true });
    expect(breaker.tryPass()).toEqual({ allowed: false, retryAfterMs: 1_000 });
    breaker.record(trial, 'answered');
    expect(breaker.state).toBe('closed');
    rateLimited(breaker, 4, clock, 0);
    expect(breaker.state).toBe('closed'); // the count started again
  });

  it('opens again for a full period when the trial gets a 429', () => {
    const clock = new ManualClock();
    const breaker = new RateLimitBreaker(options, clock);
    rateLimited(breaker, 5, clock, 0);
    clock.advance(60_000);
    breaker.record(breaker.tryPass(), 'rate-limited');
    expect(breaker.tryPass()).toEqual({ allowed: false, retryAfterMs: 60_000 });
  });

  it('frees the trial slot when the trial was never sent', () => {
    const clock = new ManualClock();
    const breaker = new RateLimitBreaker(options, clock);
    rateLimited(breaker, 5, clock, 0);
    clock.advance(60_000);
    breaker.record(breaker.tryPass(), 'not-sent');
    expect(breaker.state).toBe('half-open');
    expect(breaker.tryPass()).toEqual({ allowed: true, trial: true });
  });
});
