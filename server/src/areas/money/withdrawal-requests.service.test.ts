import type { WithdrawalRequestStatus } from './withdrawal.entities.js';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { DomainError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { ManualClock } from '../../platform/clock.js';
import type { IdempotentRun } from '../../platform/idempotency/idempotent-run.js';
import { operationContext } from '../../platform/operation.context.js';
import type { RequestRecord, WithdrawalRecord, WithdrawalRepository } from './withdrawal.repository.js';
import { WithdrawalRequestService } from './withdrawal-requests.service.js';
import type { WithdrawalService } from './withdrawal.service.js';

const ALICE = {
  userId: 'user-alice',
  address: '0x1111111111111111111111111111111111111111',
  eoaAddress: '0x1111111111111111111111111111111111111111',
};
const TO = '0x2222222222222222222222222222222222222222';
const ADMIN = { adminId: 'admin-1', email: 'ops@duelkit.test' };
const BODY = { collateralStack: 'credits' as const, amount: '5000', toAddress: TO, note: 'rent' };

/** Requests and their withdrawals in memory, moved by the same rules the repository's statements apply. */
function setup(opts: { send?: (w: WithdrawalRecord) => Promise<WithdrawalRecord> } = {}) {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  const requests = new Map<string, RequestRecord>();
  const sent: WithdrawalRecord[] = [];
  const byRequest = new Map<string, WithdrawalRecord>();
  const repo = repositoryMock<WithdrawalRepository>();
  repo.request.mockImplementation((id) => Promise.resolve(requests.get(id)));
  repo.createRequest.mockImplementation((r) => {
    requests.set(r.id, {
      id: r.id,
      user_id: r.userId,
      address: r.address,
      collateral_stack: r.stack,
      to_address: r.toAddress,
      amount: String(r.amount),
      note: r.note,
      status: 'pending',
      failure_reason: null,
      created_at: r.now,
      updated_at: r.now,
      tx_hash: null,
      decision: null,
      decision_reason: null,
      admin_email: null,
      decided_at: null,
    });
    return Promise.resolve(r.id);
  });
  repo.decide.mockImplementation((d) => {
    const row = requests.get(d.requestId);
    if (!row) return Promise.resolve({ decided: false as const, status: null });
    if (row.status !== 'pending') return Promise.resolve({ decided: false as const, status: row.status });
    Object.assign(row, {
      status: d.decision === 'approve' ? 'approved' : 'rejected',
      decision: d.decision,
      decision_reason: d.reason,
      admin_email: d.adminEmail,
      decided_at: new Date(clock.now()),
    });
    return Promise.resolve({ decided: true as const });
  });
  repo.moveRequest.mockImplementation((id, from, to, reason = null) => {
    const row = requests.get(id);
    if (!row || !from.includes(row.status)) return Promise.resolve(false);
    row.status = to;
    row.failure_reason = reason ?? row.failure_reason;
    return Promise.resolve(true);
  });
  repo.approvedIds.mockImplementation(() =>
    Promise.resolve(
      [...requests.values()].filter((r) => ['approved', 'executing'].includes(r.status)).map((r) => r.id),
    ),
  );
  repo.ensureForRequest.mockImplementation((w, now) => {
    const existing = byRequest.get(w.requestId ?? '');
    if (existing) return Promise.resolve(existing);
    const row: WithdrawalRecord = {
      id: w.id,
      user_id: w.userId,
      address: w.address,
      collateral_stack: w.stack,
      to_address: w.toAddress,
      amount: String(w.amount),
      status: 'reserved',
      request_id: w.requestId,
      tx_hash: null,
      bridge_ref: null,
      failure_reason: null,
      created_at: now,
      updated_at: now,
    };
    byRequest.set(w.requestId ?? '', row);
    return Promise.resolve(row);
  });
  repo.requests.mockImplementation((filter, page) => {
    const all = [...requests.values()].filter(
      (r) => (!filter.address || r.address === filter.address) && (!filter.status || r.status === filter.status),
    );
    return Promise.resolve({ rows: all.slice(page.offset, page.offset + page.limit), total: all.length });
  });

  const withdrawals = repositoryMock<WithdrawalService>();
  withdrawals.assertValid.mockResolvedValue(undefined);
  withdrawals.sendIfReserved.mockImplementation(async (w) => {
    if (w.status !== 'reserved') return w;
    const done = opts.send ? await opts.send(w) : { ...w, status: 'completed' as const, tx_hash: '0xabc' };
    Object.assign(w, done);
    sent.push(w);
    return w;
  });
  const service = new WithdrawalRequestService(repo, withdrawals, clock, createLogger('silent'));
  const ctx = (run?: IdempotentRun) => operationContext({ requestId: 'req-1', clock, run });
  const status = (id: string): WithdrawalRequestStatus | undefined => requests.get(id)?.status;
  return { clock, service, withdrawals, requests, sent, byRequest, ctx, status };
}

function run(recordId: string): IdempotentRun {
  return {
    recordId,
    successStatus: 201,
    shape: (b) => b,
    resumed: false,
    names: new Set(),
    scoped: new Map(),
    effectStarted: false,
    pending: undefined,
  };
}

describe('WithdrawalRequestService', () => {
  it('records a pending request with checksummed addresses and the operation time', async () => {
    const { service, ctx } = setup();
    const dto = await service.create(ctx(), { ...ALICE, address: ALICE.address.toLowerCase() }, BODY);

    expect(dto).toMatchObject({
      user: getAddress(ALICE.address),
      toAddress: getAddress(TO),
      amount: '5000',
      note: 'rent',
      status: 'pending',
      decision: null,
      createdAt: '2026-06-01T12:00:00.000Z',
    });
  });

  it('refuses a request the withdrawal rules refuse, and records nothing', async () => {
    const { service, ctx, withdrawals, requests } = setup();
    withdrawals.assertValid.mockRejectedValue(new DomainError('INSUFFICIENT_BALANCE', 'not enough'));

    await expect(service.create(ctx(), ALICE, BODY)).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(requests.size).toBe(0);
  });

  it('finds the first request again when a retry carries the same Idempotency-Key', async () => {
    const { service, ctx, requests } = setup();
    const first = await service.create(ctx(run('idem-1')), ALICE, BODY);
    const again = await service.create(ctx(run('idem-1')), ALICE, { ...BODY, amount: '9' });

    expect(again).toEqual(first);
    expect(requests.size).toBe(1);
  });

  it('decides a request once: approve records the decision, a second decision is INVALID_STATE', async () => {
    const { service, ctx, clock } = setup();
    const { id } = await service.create(ctx(), ALICE, BODY);
    clock.advance(60_000);

    const approved = await service.decide(ADMIN, id, { decision: 'approve' });
    expect(approved).toMatchObject({
      status: 'approved',
      decision: { decision: 'approve', reason: null, adminEmail: ADMIN.email, decidedAt: '2026-06-01T12:01:00.000Z' },
    });
    await expect(service.decide(ADMIN, id, { decision: 'reject', reason: 'late' })).rejects.toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'approved' },
    });
  });

  it('needs a reason to reject, and names an unknown request NOT_FOUND', async () => {
    const { service, ctx, status } = setup();
    const { id } = await service.create(ctx(), ALICE, BODY);

    await expect(service.decide(ADMIN, id, { decision: 'reject' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(status(id)).toBe('pending');
    expect(await service.decide(ADMIN, id, { decision: 'reject', reason: 'unknown payee' })).toMatchObject({
      status: 'rejected',
      decision: { reason: 'unknown payee' },
    });
    await expect(
      service.decide(ADMIN, '00000000-0000-4000-8000-000000000000', { decision: 'approve' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('the sweep executes approved requests once and leaves pending and rejected ones alone', async () => {
    const { service, ctx, sent, status } = setup();
    const approved = await service.create(ctx(), ALICE, BODY);
    const pending = await service.create(ctx(), ALICE, BODY);
    const rejected = await service.create(ctx(), ALICE, BODY);
    await service.decide(ADMIN, approved.id, { decision: 'approve' });
    await service.decide(ADMIN, rejected.id, { decision: 'reject', reason: 'no' });

    await service.sweep();
    await service.sweep();
    await service.execute(approved.id);

    expect(status(approved.id)).toBe('completed');
    expect(status(pending.id)).toBe('pending');
    expect(status(rejected.id)).toBe('rejected');
    expect(sent.map((w) => w.request_id)).toEqual([approved.id]);
  });

  it('finishes a request a crash left executing without sending a second time', async () => {
    const { service, ctx, sent, status, byRequest, requests } = setup();
    const { id } = await service.create(ctx(), ALICE, BODY);
    await service.decide(ADMIN, id, { decision: 'approve' });
    await service.execute(id);
    // The crash: the withdrawal went out but the request was never moved on.
    const row = requests.get(id);
    if (row) row.status = 'executing';

    await service.sweep();

    expect(status(id)).toBe('completed');
    expect(sent).toHaveLength(1);
    expect(byRequest.size).toBe(1);
  });

  it('marks a request failed with the reason when its withdrawal is refused, and keeps sweeping the others', async () => {
    let calls = 0;
    const { service, ctx, status, requests } = setup({
      send: (w) => {
        calls += 1;
        if (calls === 1) return Promise.reject(new DomainError('DAILY_LIMIT_EXCEEDED', 'over the daily limit'));
        return Promise.resolve({ ...w, status: 'completed' });
      },
    });
    const first = await service.create(ctx(), ALICE, BODY);
    const second = await service.create(ctx(), ALICE, BODY);
    await service.decide(ADMIN, first.id, { decision: 'approve' });
    await service.decide(ADMIN, second.id, { decision: 'approve' });

    await service.sweep();

    expect(status(first.id)).toBe('failed');
    expect(requests.get(first.id)?.failure_reason).toBe('over the daily limit');
    expect(status(second.id)).toBe('completed');
  });

  it('marks a request failed when its withdrawal row had already failed', async () => {
    const { service, ctx, status, byRequest, requests } = setup();
    const { id } = await service.create(ctx(), ALICE, BODY);
    await service.decide(ADMIN, id, { decision: 'approve' });
    await service.execute(id);
    const w = byRequest.get(id);
    if (w) Object.assign(w, { status: 'failed', failure_reason: 'bridge refused' });
    const row = requests.get(id);
    if (row) row.status = 'executing';

    await service.execute(id);

    expect(status(id)).toBe('failed');
    expect(requests.get(id)?.failure_reason).toBe('bridge refused');
  });

  it('lists only the caller’s requests, filtered by status and paged', async () => {
    const { service, ctx } = setup();
    const bob = { ...ALICE, userId: 'user-bob', address: '0x3333333333333333333333333333333333333333' };
    const a1 = await service.create(ctx(), ALICE, BODY);
    await service.create(ctx(), ALICE, BODY);
    await service.create(ctx(), bob, BODY);
    await service.decide(ADMIN, a1.id, { decision: 'approve' });

    const page1 = await service.listMine(ALICE, { page: 1, limit: 1 });
    expect(page1.pagination).toEqual({ page: 1, limit: 1, total: 2, hasMore: true });
    const page2 = await service.listMine(ALICE, { page: 2, limit: 1 });
    expect(page2.pagination.hasMore).toBe(false);
    expect((await service.listMine(ALICE, { page: 1, limit: 10, status: 'approved' })).data.map((d) => d.id)).toEqual([
      a1.id,
    ]);
    expect((await service.listAll({ page: 1, limit: 10 })).pagination.total).toBe(3);
  });
});
