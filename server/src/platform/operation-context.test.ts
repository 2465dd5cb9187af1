import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.js';
import type { IdempotentRun } from './idempotency/idempotent-run.js';
import { DuplicateWriteNameError, jobContext, operationContext } from './operation-context.js';

const idempotentRun = (recordId: string, resumed = false): IdempotentRun => ({
  recordId,
  successStatus: 201,
  shape: (b) => b,
  resumed,
  names: new Set(),
  scoped: new Map(),
  effectStarted: false,
  pending: undefined,
});

const clock = new ManualClock(Date.UTC(2026, 10, 28, 12));

describe('operation context', () => {
  it('keys a chain write by the name its call site gives, so the order of writes does not matter', () => {
    const first = operationContext({ requestId: 'r1', clock, run: idempotentRun('42') });
    const a = first.writeKey('create-duel').key;
    const b = first.writeKey('claim:0xabc').key;
    const resumed = operationContext({ requestId: 'r2', clock, run: idempotentRun('42', true) });
    expect(resumed.writeKey('claim:0xabc').key).toBe(b);
    expect(resumed.writeKey('create-duel').key).toBe(a);
    expect(a).toBe('idem:42:w:create-duel');
    expect(resumed.resumed).toBe(true);
  });

  it('refuses a second write of the same name in one operation', () => {
    const ctx = operationContext({ requestId: 'r1', clock, run: idempotentRun('7') });
    ctx.writeKey('payout');
    expect(() => ctx.writeKey('payout')).toThrow(DuplicateWriteNameError);
    const plain = operationContext({ requestId: 'r2', clock });
    plain.writeKey('payout');
    expect(() => plain.writeKey('payout')).toThrow(DuplicateWriteNameError);
  });

  it('leaves a write fresh outside an idempotent run, linked to no record', () => {
    const key = jobContext(clock, 'j1').writeKey('payout');
    expect(key).toEqual({ name: 'payout', key: undefined, run: undefined });
  });

  it('numbers scoped keys per label in the order asked, the same again when resumed', () => {
    const ask = (resumed: boolean) => {
      const ctx = operationContext({ requestId: 'r', clock, run: idempotentRun('42', resumed) });
      return [ctx.scopedKey('duel'), ctx.scopedKey('duel'), ctx.scopedKey('invite'), ctx.scopedId('duel')];
    };
    const first = ask(false);
    expect(first.slice(0, 3)).toEqual(['idem:42:duel:0', 'idem:42:duel:1', 'idem:42:invite:0']);
    expect(first[3]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5/);
    expect(ask(true)).toEqual(first);
    expect(operationContext({ requestId: 'r', clock }).scopedId('duel')).toBeUndefined();
  });

  it('reads now once from the injected clock', () => {
    const ctx = operationContext({ requestId: 'r', clock });
    clock.advance(60_000);
    expect(ctx.now.toISOString()).toBe('2026-11-28T12:00:00.000Z');
    expect(ctx.clock.now()).toBe(Date.UTC(2026, 10, 28, 12, 1));
  });
});
