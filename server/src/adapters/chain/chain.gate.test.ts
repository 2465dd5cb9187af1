import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { ChainIdentityError } from '../../platform/chain-tx/chain-state.repository.js';
import { ManualClock } from '../../platform/clock.js';
import { ChainGate, ChainNotVerifiedError } from './chain.gate.js';

const logger = createLogger('silent');

/** A check whose outcome the test sets, counting how often it is made. */
function scriptedCheck() {
  const check = {
    calls: 0,
    outcome: (): Promise<void> => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:8545')),
    run: () => {
      check.calls++;
      return check.outcome();
    },
  };
  return check;
}

function gateWith(check: ReturnType<typeof scriptedCheck>, clock = new ManualClock(0)) {
  return new ChainGate(check.run, logger, { retryAfterMs: 1_000, clock });
}

describe('ChainGate', () => {
  it('makes no call to the node while the node has not been verified, and fails it as the node being away', async () => {
    const check = scriptedCheck();
    const gate = gateWith(check);
    let called = 0;
    const fetch = gate.wrap(() => Promise.resolve(++called));

    const refused = await fetch().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ChainNotVerifiedError);
    expect((refused as Error).message).toContain('ECONNREFUSED');
    expect(called).toBe(0);
    expect(gate.state()).toEqual({ state: 'waiting', lastError: 'connect ECONNREFUSED 127.0.0.1:8545' });
  });

  it('checks again no sooner than the retry interval after a failed check', async () => {
    const check = scriptedCheck();
    const clock = new ManualClock(0);
    const gate = gateWith(check, clock);
    await expect(gate.pass()).rejects.toBeInstanceOf(ChainNotVerifiedError);

    clock.advance(999);
    await expect(gate.pass()).rejects.toBeInstanceOf(ChainNotVerifiedError);
    expect(check.calls).toBe(1);

    clock.advance(1);
    check.outcome = () => Promise.resolve();
    await gate.pass();
    expect(check.calls).toBe(2);
    expect(gate.state()).toEqual({ state: 'verified' });
  });

  it('makes one check for calls that arrive together, and lets them all through once it passes', async () => {
    const check = scriptedCheck();
    let finish!: () => void;
    check.outcome = () => new Promise<void>((resolve) => (finish = resolve));
    const gate = gateWith(check);
    const fetch = gate.wrap((n: number) => Promise.resolve(n * 2));

    const answers = Promise.all([fetch(1), fetch(2), fetch(3)]);
    finish();
    expect(await answers).toEqual([2, 4, 6]);
    expect(check.calls).toBe(1);
    // Verified: no further check is made.
    expect(await fetch(4)).toBe(8);
    expect(check.calls).toBe(1);
  });

  it('stays closed for good once the node answers as another chain', async () => {
    const check = scriptedCheck();
    const clock = new ManualClock(0);
    const gate = gateWith(check, clock);
    check.outcome = () => Promise.reject(new ChainIdentityError('Refusing to start: genesis 0xabc'));
    await expect(gate.pass()).rejects.toThrow('genesis 0xabc');

    check.outcome = () => Promise.resolve();
    clock.advance(60_000);
    await expect(gate.pass()).rejects.toBeInstanceOf(ChainNotVerifiedError);
    expect(check.calls).toBe(1);
    expect(gate.state()).toEqual({ state: 'refused', reason: 'genesis 0xabc' });
  });

  it('checks the node again after a call lost its connection, and not after a call that was only aborted', async () => {
    const check = scriptedCheck();
    check.outcome = () => Promise.resolve();
    const gate = gateWith(check);
    let failWith: Error | null = null;
    const fetch = gate.wrap(() => (failWith ? Promise.reject(failWith) : Promise.resolve('answer')));
    expect(await fetch()).toBe('answer');
    expect(check.calls).toBe(1);

    failWith = Object.assign(new Error('The RPC request was aborted'), { name: 'AbortError' });
    await expect(fetch()).rejects.toThrow('aborted');
    failWith = null;
    expect(await fetch()).toBe('answer');
    expect(check.calls).toBe(1);

    failWith = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    await expect(fetch()).rejects.toThrow('socket hang up');
    expect(gate.state()).toEqual({ state: 'waiting', lastError: null });
    failWith = null;
    // The node behind the address now answers as another chain: the next call is refused.
    check.outcome = () => Promise.reject(new ChainIdentityError('Refusing to start: genesis 0xdef'));
    await expect(fetch()).rejects.toBeInstanceOf(ChainNotVerifiedError);
    expect(check.calls).toBe(2);
    expect(gate.state()).toEqual({ state: 'refused', reason: 'genesis 0xdef' });
  });
});
