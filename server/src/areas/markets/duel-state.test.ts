import { ERROR_STATUS } from '@duelkit/contract';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import {
  assertTransition,
  canTransition,
  describeState,
  effectiveStatus,
  TRANSITIONS,
  type Actor,
  type DuelView,
  type Transition,
} from './duel-state.js';

const T0 = Date.parse('2026-11-23T12:00:00Z');
const duel = (over: Partial<DuelView> = {}): DuelView => ({
  duelId: `0x${'a'.repeat(64)}`,
  status: 'open',
  chainState: 'confirmed',
  startTime: new Date(T0 + 60_000),
  endTime: new Date(T0 + 120_000),
  contestEndsAt: null,
  winningOptionIndex: null,
  ...over,
});

function refusal(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('duel state machine', () => {
  it('splits open into bootstrapping and live, and treats an ended open market as pending', () => {
    expect(describeState(duel(), T0)).toBe('open (bootstrapping)');
    expect(describeState(duel(), T0 + 90_000)).toBe('open (live)');
    expect(effectiveStatus(duel(), T0 + 120_000)).toBe('pending');
  });

  it('lets the creator resolve only after the end, naming the state otherwise', () => {
    const err = refusal(() => assertTransition(duel(), 'resolve', 'creator', T0 + 90_000));
    expect(err.code).toBe('INVALID_STATE');
    expect(ERROR_STATUS[err.code]).toBe(409);
    expect(err.details).toMatchObject({ status: 'open', phase: 'live' });
    expect(err.message).toMatch(/open \(live\)/);
    expect(assertTransition(duel(), 'resolve', 'creator', T0 + 120_000)).toBe('pending_contest');
    expect(refusal(() => assertTransition(duel(), 'resolve', 'participant', T0 + 130_000)).code).toBe('FORBIDDEN');
  });

  it('takes contests only inside the contest period and finalizes only after it', () => {
    const resolved = duel({ status: 'pending_contest', contestEndsAt: new Date(T0 + 200_000), winningOptionIndex: 0 });
    expect(canTransition(resolved, 'contest', 'participant', T0 + 150_000)).toBe(true);
    expect(canTransition(resolved, 'contest', 'participant', T0 + 200_000)).toBe(false);
    expect(refusal(() => assertTransition(resolved, 'finalize', 'creator', T0 + 150_000)).details).toMatchObject({
      status: 'pending_contest',
      contestEndsAt: new Date(T0 + 200_000).toISOString(),
    });
    for (const actor of ['creator', 'admin', 'system'] as const) {
      expect(assertTransition(resolved, 'finalize', actor, T0 + 200_000)).toBe('settled');
    }
  });

  it('reads times given as text, as raw queries return them', () => {
    const resolved = duel({
      status: 'pending_contest',
      contestEndsAt: '2026-11-23 12:03:20+00' as unknown as Date,
      endTime: '2026-11-23 12:02:00+00' as unknown as Date,
    });
    expect(canTransition(resolved, 'finalize', 'creator', T0 + 199_000)).toBe(false);
    expect(canTransition(resolved, 'finalize', 'creator', T0 + 200_000)).toBe(true);
  });

  it('cancels from open, pending or pending_contest only, and never a market not confirmed on chain', () => {
    for (const status of ['open', 'pending', 'pending_contest'] as const) {
      expect(assertTransition(duel({ status }), 'cancel', 'admin', T0)).toBe('cancelled');
    }
    for (const status of ['settled', 'cancelled'] as const) {
      expect(refusal(() => assertTransition(duel({ status }), 'cancel', 'admin', T0)).details?.status).toBe(status);
    }
    expect(refusal(() => assertTransition(duel({ chainState: 'pending' }), 'cancel', 'admin', T0)).code).toBe(
      'INVALID_STATE',
    );
  });

  it('answers every illegal transition with a 4xx, never a crash', () => {
    const actors: Actor[] = ['creator', 'participant', 'admin', 'system'];
    const statuses = ['open', 'pending', 'pending_contest', 'settled', 'cancelled'] as const;
    for (const transition of Object.keys(TRANSITIONS) as Transition[]) {
      for (const actor of actors) {
        for (const status of statuses) {
          try {
            assertTransition(duel({ status, contestEndsAt: new Date(T0) }), transition, actor, T0 + 60_000);
          } catch (err) {
            expect(err).toBeInstanceOf(DomainError);
            expect([403, 409]).toContain(ERROR_STATUS[(err as DomainError).code]);
          }
        }
      }
    }
  });
});
