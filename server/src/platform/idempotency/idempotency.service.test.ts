import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { ManualClock } from '../clock.js';
import type { IdempotencyKeyRef, IdempotencyRepository, IdempotencyRow } from './idempotency.repository.js';
import {
  IdempotencyService,
  requestFingerprint,
  type IdempotencyScope,
  type IdempotencySettings,
} from './idempotency.service.js';

const T0 = Date.UTC(2026, 5, 1, 12);
const SETTINGS: IdempotencySettings = { ttlMs: 86_400_000, waitMs: 10_000, lockTimeoutMs: 60_000, releaseRetryMs: 500 };
const SCOPE: IdempotencyScope = { tenantId: 'app-1', caller: 'user:u1', route: 'POST /bets', key: 'key-1' };
const BODY_A = requestFingerprint('/bets', {}, { duelId: 'd1', amount: '10' });
const BODY_B = requestFingerprint('/bets', {}, { duelId: 'd1', amount: '11' });

type Row = IdempotencyRow & { ref: string; lock: string };

/**
 * `idempotency_keys` in memory with the conditions of the repository's statements, its now() the
 * test clock; `down` makes every statement fail as when PostgreSQL is out of reach.
 */
function setup(settings: IdempotencySettings = SETTINGS) {
  const clock = new ManualClock(T0);
  const rows = new Map<string, Row>();
  const db = { down: false };
  let ids = 0;
  let locks = 0;
  const refOf = (r: IdempotencyKeyRef) => `${r.tenantId}|${r.caller}|${r.route}|${r.key}`;
  const up = () => (db.down ? Promise.reject(new Error('connection terminated')) : Promise.resolve());
  const byId = (id: string) => [...rows.values()].find((r) => r.id === id);
  const newLock = () => `lock-${++locks}`;
  const repo = repositoryMock<IdempotencyRepository>();
  repo.insertInFlight.mockImplementation(async (ref, fingerprint, ttlMs) => {
    await up();
    if (rows.has(refOf(ref))) return undefined;
    const row: Row = {
      id: String(++ids),
      ref: refOf(ref),
      fingerprint,
      state: 'in_flight',
      response_status: null,
      response_body: null,
      effect_started_at: null,
      pending_status: null,
      pending_body: null,
      locked_at: new Date(clock.now()),
      expires_at: new Date(clock.now() + ttlMs),
      lock: newLock(),
    };
    rows.set(row.ref, row);
    return { id: row.id, lock: row.lock };
  });
  repo.find.mockImplementation(async (ref) => {
    await up();
    const row = rows.get(refOf(ref));
    return row ? { ...row } : undefined;
  });
  repo.deleteIfExpired.mockImplementation(async (id) => {
    await up();
    const row = byId(id);
    if (row && row.expires_at.getTime() <= clock.now()) rows.delete(row.ref);
  });
  repo.takeOver.mockImplementation(async (id, lockTimeoutMs) => {
    await up();
    const row = byId(id);
    if (!row || row.state !== 'in_flight' || row.locked_at.getTime() >= clock.now() - lockTimeoutMs) return undefined;
    row.locked_at = new Date(clock.now());
    row.lock = newLock();
    return row.lock;
  });
  repo.takeOverEnded.mockImplementation(async (id, lock) => {
    await up();
    const row = byId(id);
    if (!row || row.state !== 'in_flight' || row.effect_started_at !== null || row.lock !== lock) return undefined;
    row.locked_at = new Date(clock.now());
    row.lock = newLock();
    return row.lock;
  });
  repo.complete.mockImplementation(async (id, status, body) => {
    await up();
    Object.assign(byId(id)!, { state: 'completed', response_status: status, response_body: body ?? null });
  });
  repo.release.mockImplementation(async (id, lock) => {
    await up();
    const row = byId(id);
    if (
      row &&
      row.state === 'in_flight' &&
      row.effect_started_at === null &&
      (lock === undefined || row.lock === lock)
    ) {
      rows.delete(row.ref);
    }
  });
  repo.purgeExpired.mockImplementation(async () => {
    await up();
    const expired = [...rows.values()].filter((r) => r.expires_at.getTime() <= clock.now());
    for (const r of expired) rows.delete(r.ref);
    return expired.length;
  });

  /**
   * Time passes only when a test lets it: every wait is parked here until `tick` moves the clock
   * by its length and resolves it (an abort rejects it, as the real timer does).
   */
  const sleeping: { ms: number; resolve: () => void }[] = [];
  const sleep = (ms: number, options: { signal?: AbortSignal }) =>
    new Promise<void>((resolve, reject) => {
      const entry = { ms, resolve };
      sleeping.push(entry);
      options.signal?.addEventListener('abort', () => {
        const at = sleeping.indexOf(entry);
        if (at >= 0) sleeping.splice(at, 1);
        reject(new Error('aborted'));
      });
    });
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  /** Ends the oldest wait after moving the clock by its length, and lets the service go on. */
  const tick = async () => {
    const next = sleeping.shift();
    if (!next) throw new Error('nothing is waiting');
    clock.advance(next.ms);
    next.resolve();
    await settle();
  };
  /** Ticks until `promise` settles; answers its value. */
  const until = async <T>(promise: Promise<T>): Promise<T> => {
    let done = false;
    void promise.finally(() => (done = true)).catch(() => undefined);
    await settle();
    while (!done) await tick();
    return promise;
  };
  /** The recovery point a chain write sets, with the answer known once it is signed. */
  const startEffect = (recordId: string, pending?: { status: number; body: unknown }) =>
    Object.assign(byId(recordId)!, {
      effect_started_at: new Date(clock.now()),
      pending_status: pending?.status ?? null,
      pending_body: pending?.body ?? null,
    });

  const service = new IdempotencyService(repo, settings, { clock, sleep });
  return { clock, repo, rows, db, sleeping, service, tick, until, settle, startEffect, byId };
}

/** The record id of a begin that must proceed. */
function proceeded(begin: Awaited<ReturnType<IdempotencyService['begin']>>): { recordId: string; resumed: boolean } {
  if (begin.kind !== 'proceed') throw new Error(`expected proceed, got ${begin.kind}`);
  return begin;
}

describe('IdempotencyService', () => {
  describe('fingerprint', () => {
    it('is the same for the same path, query and body whatever the key order, and differs otherwise', () => {
      const a = requestFingerprint('/bets', { x: '1', y: '2' }, { a: 1, b: { c: 2, d: 3 } });
      expect(requestFingerprint('/bets', { y: '2', x: '1' }, { b: { d: 3, c: 2 }, a: 1 })).toBe(a);
      expect(requestFingerprint('/bets', { x: '1', y: '2' }, { a: 1, b: { c: 2, d: 4 } })).not.toBe(a);
      expect(requestFingerprint('/bets/2', { x: '1', y: '2' }, { a: 1, b: { c: 2, d: 3 } })).not.toBe(a);
      expect(requestFingerprint('/bets', { x: '1' }, { a: 1, b: { c: 2, d: 3 } })).not.toBe(a);
    });
  });

  describe('replay and mismatch', () => {
    it('runs the first request, then replays its stored response for the same key and body', async () => {
      const { service } = setup();

      const first = proceeded(await service.begin(SCOPE, BODY_A));
      expect(first.resumed).toBe(false);
      await service.complete(SCOPE, first.recordId, { status: 201, body: { betId: 'b1' } });

      expect(await service.begin(SCOPE, BODY_A)).toEqual({
        kind: 'replay',
        response: { status: 201, body: { betId: 'b1' } },
      });
    });

    it('refuses the same key with another body, while the first runs and after it completed', async () => {
      const { service } = setup();
      const first = proceeded(await service.begin(SCOPE, BODY_A));

      expect(await service.begin(SCOPE, BODY_B)).toEqual({ kind: 'mismatch' });
      await service.complete(SCOPE, first.recordId, { status: 201, body: {} });
      expect(await service.begin(SCOPE, BODY_B)).toEqual({ kind: 'mismatch' });
    });

    it('keeps keys of other apps, callers and routes apart', async () => {
      const { service } = setup();
      proceeded(await service.begin(SCOPE, BODY_A));

      for (const other of [
        { ...SCOPE, tenantId: 'app-2' },
        { ...SCOPE, caller: 'user:u2' },
        { ...SCOPE, route: 'POST /withdrawals' },
        { ...SCOPE, key: 'key-2' },
      ]) {
        expect((await service.begin(other, BODY_B)).kind).toBe('proceed');
      }
    });

    it('forgets a key after its time to live: the same key then runs again, whatever the body', async () => {
      const { service, clock } = setup();
      const first = proceeded(await service.begin(SCOPE, BODY_A));
      await service.complete(SCOPE, first.recordId, { status: 201, body: {} });

      clock.advance(SETTINGS.ttlMs);

      const again = proceeded(await service.begin(SCOPE, BODY_B));
      expect(again.recordId).not.toBe(first.recordId);
    });

    it('purges expired records only', async () => {
      const { service, clock, rows } = setup();
      proceeded(await service.begin(SCOPE, BODY_A));
      clock.advance(SETTINGS.ttlMs - 1);
      proceeded(await service.begin({ ...SCOPE, key: 'key-2' }, BODY_A));
      clock.advance(1);

      expect(await service.purgeExpired()).toBe(1);
      expect([...rows.values()].map((r) => r.ref)).toEqual([`app-1|user:u1|POST /bets|key-2`]);
    });
  });

  describe('a duplicate while the first runs', () => {
    it('waits and replays the response as soon as the first completes', async () => {
      const { service, settle, sleeping } = setup();
      const first = proceeded(await service.begin(SCOPE, BODY_A));

      const duplicate = service.begin(SCOPE, BODY_A);
      await settle();
      expect(sleeping).toHaveLength(1);
      await service.complete(SCOPE, first.recordId, { status: 201, body: { betId: 'b1' } });

      expect(await duplicate).toEqual({ kind: 'replay', response: { status: 201, body: { betId: 'b1' } } });
    });

    it('backs off 25 ms doubling to 500 ms, and answers in_flight once the wait is over', async () => {
      const { service, until, sleeping, tick, settle } = setup();
      proceeded(await service.begin(SCOPE, BODY_A));

      const duplicate = service.begin(SCOPE, BODY_A);
      await settle();
      const waits: number[] = [];
      while (sleeping.length) {
        waits.push(sleeping[0]!.ms);
        await tick();
      }

      expect(await until(duplicate)).toEqual({ kind: 'in_flight' });
      expect(waits.slice(0, 7)).toEqual([25, 50, 100, 200, 400, 500, 500]);
      expect(waits.reduce((a, b) => a + b, 0)).toBe(SETTINGS.waitMs);
    });

    it('answers the pending answer once the wait is over when the first request’s write is recorded', async () => {
      const { service, until, startEffect } = setup({ ...SETTINGS, waitMs: 100 });
      const first = proceeded(await service.begin(SCOPE, BODY_A));
      startEffect(first.recordId, { status: 201, body: { txHash: '0xabc', chainState: 'pending' } });

      expect(await until(service.begin(SCOPE, BODY_A))).toEqual({
        kind: 'pending',
        response: { status: 201, body: { txHash: '0xabc', chainState: 'pending' } },
      });
    });

    it('runs a waiting duplicate once the first releases the key', async () => {
      const { service, settle } = setup();
      const first = proceeded(await service.begin(SCOPE, BODY_A));
      const duplicate = service.begin(SCOPE, BODY_A);
      await settle();

      await service.release(SCOPE, first.recordId);

      const second = proceeded(await duplicate);
      expect(second.recordId).not.toBe(first.recordId);
    });
  });

  describe('release', () => {
    it('forgets a key whose request ended without an effect: a retry runs afresh', async () => {
      const { service, rows } = setup();
      const first = proceeded(await service.begin(SCOPE, BODY_A));

      await service.release(SCOPE, first.recordId);

      expect(rows.size).toBe(0);
      expect((await service.begin(SCOPE, BODY_B)).kind).toBe('proceed');
    });

    it('never releases a key whose effect started: a retry gets the pending answer, never a fresh run', async () => {
      const { service, rows, startEffect, until, clock } = setup({ ...SETTINGS, waitMs: 0 });
      const first = proceeded(await service.begin(SCOPE, BODY_A));
      startEffect(first.recordId, { status: 201, body: { txHash: '0xabc' } });

      await service.release(SCOPE, first.recordId);

      expect(rows.size).toBe(1);
      expect(await until(service.begin(SCOPE, BODY_A))).toEqual({
        kind: 'pending',
        response: { status: 201, body: { txHash: '0xabc' } },
      });
      clock.advance(SETTINGS.lockTimeoutMs + 1);
      expect(await service.begin(SCOPE, BODY_A)).toEqual({
        kind: 'replay',
        response: { status: 201, body: { txHash: '0xabc' } },
      });
    });
  });

  describe('a dead execution (lock older than the timeout)', () => {
    it('is taken over when its effect never started: a retry runs, not resumed', async () => {
      const { service, clock } = setup({ ...SETTINGS, waitMs: 0 });
      const first = proceeded(await service.begin(SCOPE, BODY_A));

      clock.advance(SETTINGS.lockTimeoutMs);
      expect(await service.begin(SCOPE, BODY_A)).toEqual({ kind: 'in_flight' });
      clock.advance(1);

      expect(await service.begin(SCOPE, BODY_A)).toEqual({ kind: 'proceed', recordId: first.recordId, resumed: false });
      expect(await service.begin(SCOPE, BODY_A)).toEqual({ kind: 'in_flight' });
    });

    it('is answered with its pending answer, and completed with it, when its write was recorded', async () => {
      const { service, clock, startEffect, byId } = setup({ ...SETTINGS, waitMs: 0 });
      const first = proceeded(await service.begin(SCOPE, BODY_A));
      startEffect(first.recordId, { status: 201, body: { txHash: '0xabc' } });
      clock.advance(SETTINGS.lockTimeoutMs + 1);

      expect(await service.begin(SCOPE, BODY_A)).toEqual({
        kind: 'replay',
        response: { status: 201, body: { txHash: '0xabc' } },
      });
      expect(byId(first.recordId)).toMatchObject({ state: 'completed', response_status: 201 });
    });

    it('is resumed when its write was recorded but its answer was not known', async () => {
      const { service, clock, startEffect } = setup({ ...SETTINGS, waitMs: 0 });
      const first = proceeded(await service.begin(SCOPE, BODY_A));
      startEffect(first.recordId);
      clock.advance(SETTINGS.lockTimeoutMs + 1);

      expect(await service.begin(SCOPE, BODY_A)).toEqual({ kind: 'proceed', recordId: first.recordId, resumed: true });
    });

    it('is never released by the execution it was taken from', async () => {
      const { service, repo, clock, rows } = setup({ ...SETTINGS, waitMs: 0 });
      const first = proceeded(await service.begin(SCOPE, BODY_A));
      clock.advance(SETTINGS.lockTimeoutMs + 1);
      const other = new IdempotencyService(repo, SETTINGS, { clock });
      proceeded(await other.begin(SCOPE, BODY_A));

      // The first execution was only slow: its late release must not free the row the second holds.
      await service.release(SCOPE, first.recordId);

      expect(rows.size).toBe(1);
      expect(await service.begin(SCOPE, BODY_A)).toEqual({ kind: 'in_flight' });
    });
  });

  describe('a release the database did not take', () => {
    it('lets a retry on this instance take the key over at once', async () => {
      const { service, db } = setup({ ...SETTINGS, waitMs: 0 });
      const first = proceeded(await service.begin(SCOPE, BODY_A));
      db.down = true;

      await expect(service.release(SCOPE, first.recordId)).rejects.toThrow('connection terminated');
      db.down = false;

      expect(await service.begin(SCOPE, BODY_A)).toEqual({ kind: 'proceed', recordId: first.recordId, resumed: false });
    });

    it('is retried every releaseRetryMs until the database answers, waking a duplicate that waits elsewhere', async () => {
      const { service, repo, db, rows, sleeping, tick, settle, clock } = setup();
      const first = proceeded(await service.begin(SCOPE, BODY_A));
      const elsewhere = new IdempotencyService(repo, SETTINGS, { clock, sleep: () => new Promise(() => {}) });
      db.down = true;
      await expect(service.release(SCOPE, first.recordId)).rejects.toThrow();
      await settle();

      expect(sleeping.map((s) => s.ms)).toEqual([500]);
      await tick();
      expect(rows.size).toBe(1); // still down: tried again later
      expect(sleeping.map((s) => s.ms)).toEqual([500]);

      db.down = false;
      await tick();
      expect(rows.size).toBe(0);
      expect(sleeping).toHaveLength(0);
      expect((await elsewhere.begin(SCOPE, BODY_A)).kind).toBe('proceed');
    });

    it('stops retrying once the lock has timed out anyway', async () => {
      const { service, db, rows, sleeping, tick, settle, clock } = setup();
      const first = proceeded(await service.begin(SCOPE, BODY_A));
      db.down = true;
      await expect(service.release(SCOPE, first.recordId)).rejects.toThrow();
      await settle();

      clock.advance(SETTINGS.lockTimeoutMs);
      db.down = false;
      await tick();

      expect(sleeping).toHaveLength(0);
      expect(rows.size).toBe(1);
    });

    it('is not taken over when the effect had started after all (the commit’s acknowledgement was lost)', async () => {
      const { service, db, startEffect } = setup({ ...SETTINGS, waitMs: 0 });
      const first = proceeded(await service.begin(SCOPE, BODY_A));
      startEffect(first.recordId, { status: 201, body: { txHash: '0xabc' } });
      db.down = true;
      await expect(service.release(SCOPE, first.recordId)).rejects.toThrow();
      db.down = false;

      expect(await service.begin(SCOPE, BODY_A)).toEqual({
        kind: 'pending',
        response: { status: 201, body: { txHash: '0xabc' } },
      });
    });
  });
});
