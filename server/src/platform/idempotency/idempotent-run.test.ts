import { describe, expect, it } from 'vitest';
import { currentIdempotentRun, requestScopedKey, withIdempotentRun, type IdempotentRun } from './idempotent-run.js';

const run = (recordId: string): IdempotentRun => ({
  recordId,
  successStatus: 201,
  shape: (b) => b,
  resumed: false,
  writes: 0,
  scoped: new Map(),
  effectStarted: false,
  pending: undefined,
});

describe('request-scoped keys', () => {
  it('number each label in the order the request asks, so a resumed request makes the same ones', async () => {
    const first = await withIdempotentRun(run('42'), async () => {
      await Promise.resolve();
      return [requestScopedKey('duel'), requestScopedKey('duel'), requestScopedKey('invite'), requestScopedKey('duel')];
    });
    expect(first).toEqual(['idem:42:duel:0', 'idem:42:duel:1', 'idem:42:invite:0', 'idem:42:duel:2']);
    const resumed = withIdempotentRun(run('42'), () => [requestScopedKey('duel'), requestScopedKey('duel')]);
    expect(resumed).toEqual(first.slice(0, 2));
  });

  it('are absent outside a request with an Idempotency-Key', () => {
    expect(currentIdempotentRun()).toBeUndefined();
    expect(requestScopedKey('duel')).toBeUndefined();
  });
});
