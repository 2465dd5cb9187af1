import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { CircuitBreaker } from './circuit-breaker.js';

function breaker() {
  const clock = new ManualClock(1_000);
  const b = new CircuitBreaker({ threshold: 3, cooldownMs: 500 }, clock);
  return { b, advance: (ms: number) => clock.advance(ms) };
}

describe('CircuitBreaker', () => {
  it('opens after the threshold of consecutive failures and refuses calls during the cool-down', () => {
    const { b } = breaker();
    for (let i = 0; i < 2; i++) {
      expect(b.tryAcquire()).toBe(true);
      b.failure();
    }
    expect(b.snapshot().state).toBe('closed');
    expect(b.tryAcquire()).toBe(true);
    b.failure();
    expect(b.snapshot()).toEqual({ state: 'open', consecutiveFailures: 3, openUntil: 1_500 });
    expect(b.tryAcquire()).toBe(false);
  });

  it('a success in between resets the count', () => {
    const { b } = breaker();
    b.failure();
    b.failure();
    b.success();
    b.failure();
    expect(b.snapshot()).toMatchObject({ state: 'closed', consecutiveFailures: 1 });
  });

  it('lets one trial through after the cool-down: success closes, failure opens again', () => {
    const { b, advance } = breaker();
    for (let i = 0; i < 3; i++) b.failure();
    advance(500);
    expect(b.snapshot().state).toBe('half-open');
    expect(b.tryAcquire()).toBe(true);
    expect(b.tryAcquire()).toBe(false);
    b.failure();
    expect(b.snapshot()).toMatchObject({ state: 'open', openUntil: 2_000 });
    advance(500);
    expect(b.tryAcquire()).toBe(true);
    b.success();
    expect(b.snapshot()).toEqual({ state: 'closed', consecutiveFailures: 0, openUntil: null });
    expect(b.tryAcquire()).toBe(true);
  });
});
