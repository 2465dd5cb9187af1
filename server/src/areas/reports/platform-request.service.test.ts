import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { operationContext } from '../../platform/operation.context.js';
import type { Decision, NewRequest } from './platform-request.repository.js';
import { PlatformRequestService, type RequestStore } from './platform-request.service.js';

interface Stored extends NewRequest {
  status: 'pending' | 'approved' | 'rejected';
  decision: Decision | null;
}

/** Requests in memory, decided once as the repository's transaction decides them. */
class MemoryRequestStore implements RequestStore {
  readonly rows = new Map<string, Stored>();
  readonly snapshots: { day: string; at: Date }[] = [];

  pendingOf(userId: string, kind: string, subject: string): Promise<string | undefined> {
    const found = [...this.rows.values()].find(
      (r) => r.userId === userId && r.kind === kind && r.subject === subject && r.status === 'pending',
    );
    return Promise.resolve(found?.id);
  }

  insert(r: NewRequest): Promise<void> {
    this.rows.set(r.id, { ...r, status: 'pending', decision: null });
    return Promise.resolve();
  }

  view(id: string): Promise<Record<string, unknown> | undefined> {
    const r = this.rows.get(id);
    return Promise.resolve(
      r ? { id: r.id, kind: r.kind, subject: r.subject, status: r.status, message: r.message } : undefined,
    );
  }

  decide(id: string, d: Decision): Promise<boolean> {
    const r = this.rows.get(id);
    if (!r || r.status !== 'pending') return Promise.resolve(false);
    r.status = d.approve ? 'approved' : 'rejected';
    r.decision = d;
    return Promise.resolve(true);
  }

  statusOf(id: string): Promise<string | undefined> {
    return Promise.resolve(this.rows.get(id)?.status);
  }

  snapshotPnl(day: string, at: Date): Promise<number> {
    this.snapshots.push({ day, at });
    return Promise.resolve(3);
  }
}

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 23, 30));
  const store = new MemoryRequestStore();
  const service = new PlatformRequestService(store);
  const user = () => ({
    ...operationContext({ requestId: 'req-1', clock }),
    actor: 'user:alice',
    userId: 'alice',
    builderAppId: 'app-1',
  });
  const admin = () => ({ ...operationContext({ requestId: 'req-2', clock }), actor: 'ops@duelkit.test' });
  return { clock, store, service, user, admin };
}

describe('PlatformRequestService', () => {
  it('records a league request under its subject, and refuses a second pending one for it with CONFLICT', async () => {
    const { service, store, user } = setup();
    const first = await service.create(user(), { kind: 'league', leagueId: 'epl', message: 'please' });

    expect(first).toMatchObject({ kind: 'league', subject: 'epl', status: 'pending', message: 'please' });
    await expect(service.create(user(), { kind: 'league', leagueId: 'epl' })).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { requestId: first.id },
    });
    await expect(service.create(user(), { kind: 'league', leagueId: 'laliga' })).resolves.toMatchObject({
      subject: 'laliga',
    });
    expect(store.rows.size).toBe(2);
  });

  it('keys a token request by its symbol and records its name, at the operation time', async () => {
    const { service, store, user } = setup();
    const r = await service.create(user(), { kind: 'token', tokenName: 'Duel Coin', tokenSymbol: 'DUEL' });

    expect(store.rows.get(String(r.id))).toMatchObject({
      subject: 'DUEL',
      tokenName: 'Duel Coin',
      leagueId: null,
      message: null,
      createdAt: new Date(Date.UTC(2026, 5, 1, 23, 30)),
    });
  });

  it('lets a new request be filed once the pending one is decided', async () => {
    const { service, user, admin } = setup();
    const first = await service.create(user(), { kind: 'creator', message: 'I run a club' });
    await service.decide(admin(), String(first.id), { decision: 'reject', reason: 'not yet' });

    await expect(service.create(user(), { kind: 'creator', message: 'again' })).resolves.toMatchObject({
      status: 'pending',
    });
  });

  it('decides a request once, recording who decided, and refuses a second decision with INVALID_STATE', async () => {
    const { service, store, user, admin } = setup();
    const r = await service.create(user(), { kind: 'token', tokenName: 'Duel Coin', tokenSymbol: 'DUEL' });
    const id = String(r.id);

    await expect(
      service.decide(admin(), id, { decision: 'approve', tokenAddress: '0x1111111111111111111111111111111111111111' }),
    ).resolves.toMatchObject({ status: 'approved' });
    expect(store.rows.get(id)?.decision).toMatchObject({
      approve: true,
      by: 'ops@duelkit.test',
      reason: null,
      tokenAddress: '0x1111111111111111111111111111111111111111',
    });
    await expect(service.decide(admin(), id, { decision: 'reject', reason: 'changed my mind' })).rejects.toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'approved' },
    });
  });

  it('needs a reason to reject and names an unknown request NOT_FOUND', async () => {
    const { service, store, user, admin } = setup();
    const r = await service.create(user(), { kind: 'creator', message: 'hi' });

    await expect(service.decide(admin(), String(r.id), { decision: 'reject' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { 'body.reason': ['required to reject'] },
    });
    expect(store.rows.get(String(r.id))?.status).toBe('pending');
    await expect(service.decide(admin(), 'nope', { decision: 'approve' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('snapshots PnL for the UTC day of the instant it is given', async () => {
    const { service, store, clock } = setup();
    clock.advance(45 * 60_000);
    const now = new Date(clock.now());

    expect(await service.snapshotPnl(now)).toBe(3);
    expect(store.snapshots).toEqual([{ day: '2026-06-02', at: now }]);
  });
});
