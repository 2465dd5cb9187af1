import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../platform/clock.js';
import { UpstreamFailure, UpstreamHttp } from './upstream-http.client.js';

const policy = {
  timeoutMs: 1_000,
  maxRetryWaitMs: 2_000,
  maxRetries: 2,
  breakerThreshold: 3,
  breakerCooldownMs: 30_000,
  defaultRetryAfterMs: 5_000,
};

function setup() {
  const clock = new ManualClock(1_000_000);
  const waits: number[] = [];
  const http = new UpstreamHttp(policy, clock, async (ms) => {
    waits.push(ms);
    clock.advance(ms);
  });
  return { clock, http, waits };
}

const rateLimited = (retryAfterMs: number) => () =>
  Promise.reject(new UpstreamFailure('gamma', 'rate-limited', retryAfterMs, '429'));
const down = () => Promise.reject(new UpstreamFailure('gamma', 'down', undefined, '503'));

describe('UpstreamHttp', () => {
  it('retries a 429 after the Retry-After it names, and succeeds', async () => {
    const { http, waits } = setup();
    let calls = 0;
    const value = await http.guard('gamma', async () => {
      calls++;
      if (calls < 3) throw new UpstreamFailure('gamma', 'rate-limited', 1_500, '429');
      return 'ok';
    });
    expect([value, calls, waits]).toEqual(['ok', 3, [1_500, 1_500]]);
  });

  it('answers 503 with the upstream’s Retry-After when it asks for a longer wait than it retries', async () => {
    const { http, waits } = setup();
    const err = await http.guard('gamma', rateLimited(30_000)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryAfterMs: 30_000 });
    expect(waits).toEqual([]);
  });

  it('opens the breaker after the threshold, refuses at once while open, and closes after a good trial', async () => {
    const { http, clock } = setup();
    for (let i = 0; i < 3; i++)
      await expect(http.guard('gamma', down)).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(http.breaker('gamma').snapshot().state).toBe('open');
    let called = false;
    const refused = await http
      .guard('gamma', async () => {
        called = true;
        return 1;
      })
      .catch((e: unknown) => e);
    expect(called).toBe(false);
    expect(refused).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryAfterMs: 30_000, details: { breaker: 'open' } });
    // Other hosts have their own breaker.
    expect(await http.guard('clob', async () => 'up')).toBe('up');

    clock.advance(30_000);
    expect(http.breaker('gamma').snapshot().state).toBe('half-open');
    expect(await http.guard('gamma', async () => 'back')).toBe('back');
    expect(http.breaker('gamma').snapshot().state).toBe('closed');
  });

  it('counts an answered refusal as the upstream being up', async () => {
    const { http } = setup();
    for (let i = 0; i < 5; i++)
      await expect(http.guard('gamma', () => Promise.reject(new Error('400 bad request')))).rejects.toThrow('400');
    expect(http.breaker('gamma').snapshot().state).toBe('closed');
  });

  it('answers 504 when the upstream does not answer in time', async () => {
    const slow = new UpstreamHttp({ ...policy, timeoutMs: 20 }, new ManualClock(0));
    await expect(slow.guard('data', () => new Promise(() => undefined))).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
    });
  });
});
