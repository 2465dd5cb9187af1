import { getAddress, type Hash } from 'viem';
import { describe, expect, it } from 'vitest';
import { addressOnlyAccount } from '../../../test/fakes/chain-harness.js';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { DomainError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { ManualClock } from '../../platform/clock.js';
import type { SqlExec } from '../../platform/db/sql.js';
import { operationContext } from '../../platform/operation.context.js';
import { WINDOW_MS, type WithdrawalRecord, type WithdrawalRepository } from './withdrawal.repository.js';
import { WithdrawalService, type WithdrawalDeps } from './withdrawal.service.js';

const HOUR = 3_600_000;
const LIMIT = 10_000n;
const TO = getAddress('0x2222222222222222222222222222222222222222');

/**
 * Withdrawals in memory, counted and reserved by the repository's rules (a direct withdrawal counts
 * while reserved, submitted or completed, inside the rolling window), and a chain that moves
 * credits between balances, keyed so one key sends once.
 */
function setup() {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  const account = addressOnlyAccount();
  const caller = { userId: 'user-alice', address: account.address, eoaAddress: account.address };
  const rows = new Map<string, WithdrawalRecord>();
  const balances = new Map<string, bigint>([[account.address, 50_000n]]);
  const sentKeys = new Map<string, Hash>();
  const mined = new Map<string, 'pending' | 'success' | 'reverted'>();
  /** Set to make the next transfer's simulation revert (the wallet's writes in flight spend it first). */
  const chainRefuses = { next: false };
  const noSql = (() => Promise.reject(new Error('no database in a unit test'))) as unknown as SqlExec;

  const windowOf = (address: string, stack: string, now: Date) => {
    const counted = [...rows.values()].filter(
      (w) =>
        w.address.toLowerCase() === address.toLowerCase() &&
        w.collateral_stack === stack &&
        ['reserved', 'submitted', 'completed'].includes(w.status) &&
        w.request_id === null &&
        w.created_at.getTime() > now.getTime() - WINDOW_MS,
    );
    const used = counted.reduce((sum, w) => sum + BigInt(w.amount), 0n);
    const oldest = counted.length ? new Date(Math.min(...counted.map((w) => w.created_at.getTime()))) : null;
    return { used, oldest };
  };

  const repo = repositoryMock<WithdrawalRepository>();
  repo.window.mockImplementation((address, stack, now) => Promise.resolve(windowOf(address, stack, now)));
  repo.byId.mockImplementation((id) => Promise.resolve(rows.get(id)));
  repo.reserve.mockImplementation((w, limit, now) => {
    const found = rows.get(w.id);
    if (found) return Promise.resolve({ kind: 'exists' as const, row: found });
    const window = windowOf(w.address, w.stack, now);
    if (window.used + w.amount > limit) return Promise.resolve({ kind: 'refused' as const, window });
    rows.set(w.id, {
      id: w.id,
      user_id: w.userId,
      address: w.address,
      collateral_stack: w.stack,
      to_address: w.toAddress,
      amount: w.amount.toString(),
      status: 'reserved',
      request_id: w.requestId,
      tx_hash: null,
      bridge_ref: null,
      failure_reason: null,
      created_at: now,
      updated_at: now,
    });
    return Promise.resolve({
      kind: 'reserved' as const,
      window: { used: window.used + w.amount, oldest: window.oldest ?? now },
    });
  });
  repo.markSubmitted.mockImplementation((_sql, id, txHash) => {
    const row = rows.get(id);
    if (row && ['reserved', 'submitted'].includes(row.status))
      Object.assign(row, { status: 'submitted', tx_hash: txHash });
    return Promise.resolve();
  });
  repo.finish.mockImplementation((id, status, reason = null) => {
    const row = rows.get(id);
    if (!row || !['reserved', 'submitted'].includes(row.status)) return Promise.resolve(false);
    Object.assign(row, { status, failure_reason: reason });
    return Promise.resolve(true);
  });
  repo.stranded.mockImplementation((before) =>
    Promise.resolve(
      [...rows.values()].filter((w) => w.status === 'reserved' && w.request_id === null && w.created_at < before),
    ),
  );
  repo.submitted.mockImplementation(() => Promise.resolve([...rows.values()].filter((w) => w.status === 'submitted')));

  const chain: WithdrawalDeps['chain'] = {
    collateralBalance: (_stack, owner) => Promise.resolve(balances.get(owner) ?? 0n),
    transfer: async (signer, _stack, to, amount, opts = {}) => {
      const key = opts.key ?? '';
      const earlier = sentKeys.get(key);
      if (earlier) return earlier;
      const held = balances.get(signer.address) ?? 0n;
      if (chainRefuses.next || held < amount)
        throw new DomainError('INSUFFICIENT_BALANCE', 'the transfer would revert');
      balances.set(signer.address, held - amount);
      balances.set(to, (balances.get(to) ?? 0n) + amount);
      const hash: Hash = `0x${(sentKeys.size + 1).toString(16).padStart(64, '0')}`;
      sentKeys.set(key, hash);
      mined.set(hash, 'pending');
      await opts.record?.(noSql, hash);
      return hash;
    },
    transactionStatus: (hash) => Promise.resolve(mined.get(hash) ?? 'pending'),
  };
  const service = new WithdrawalService({
    repo,
    chain,
    signers: { forUser: () => Promise.resolve(account) },
    bridge: undefined,
    clock,
    dailyLimit: { credits: LIMIT, usdc: LIMIT },
    logger: createLogger('silent'),
  });
  const ctx = () => operationContext({ requestId: 'req-1', clock });
  const body = (amount: bigint, extra: Partial<{ toAddress: string; collateralStack: 'usdc' | 'credits' }> = {}) => ({
    collateralStack: 'credits' as const,
    amount: amount.toString(),
    toAddress: TO,
    ...extra,
  });
  return { clock, service, caller, rows, balances, sentKeys, mined, chainRefuses, ctx, body };
}

describe('WithdrawalService', () => {
  it('sends a withdrawal within the limit and reports the limit it leaves', async () => {
    const { service, caller, ctx, body, balances } = setup();
    const w = await service.withdraw(ctx(), caller, body(4_000n));

    expect(w).toMatchObject({
      status: 'submitted',
      amount: '4000',
      toAddress: TO,
      dailyLimit: { limit: '10000', used: '4000', remaining: '6000', resetsAt: '2026-06-02T12:00:00.000Z' },
    });
    expect(balances.get(TO)).toBe(4_000n);
  });

  it('refuses a withdrawal past the rolling 24 h limit with DAILY_LIMIT_EXCEEDED, and allows it once the window rolls', async () => {
    const { service, caller, ctx, body, clock, balances } = setup();
    await service.withdraw(ctx(), caller, body(7_000n));
    clock.advance(HOUR);

    await expect(service.withdraw(ctx(), caller, body(4_000n))).rejects.toMatchObject({
      code: 'DAILY_LIMIT_EXCEEDED',
      details: { used: '7000', remaining: '3000', resetsAt: '2026-06-02T12:00:00.000Z' },
    });
    expect(balances.get(TO)).toBe(7_000n);
    expect((await service.withdraw(ctx(), caller, body(3_000n))).dailyLimit.remaining).toBe('0');

    clock.advance(23 * HOUR);
    expect(await service.dailyLimit(caller.address, 'credits')).toMatchObject({ used: '3000', remaining: '7000' });
    await expect(service.withdraw(ctx(), caller, body(7_000n))).resolves.toMatchObject({ status: 'submitted' });
  });

  it('refuses what the wallet cannot fund with INSUFFICIENT_BALANCE, naming the balance', async () => {
    const { service, caller, ctx, body, rows } = setup();
    await expect(service.withdraw(ctx(), caller, body(60_000n))).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { balance: '50000', amount: '60000' },
    });
    expect(rows.size).toBe(0);
  });

  it('refuses a zero amount, the managed wallet itself and the zero address as VALIDATION_FAILED with field errors', async () => {
    const { service, caller, ctx, body } = setup();
    await expect(service.withdraw(ctx(), caller, body(0n))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { 'body.amount': [expect.any(String)] },
    });
    await expect(service.withdraw(ctx(), caller, body(1n, { toAddress: caller.address }))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { 'body.toAddress': [expect.any(String)] },
    });
    await expect(
      service.withdraw(ctx(), caller, body(1n, { toAddress: '0x0000000000000000000000000000000000000000' })),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refuses usdc where no bridge is configured with WITHDRAWAL_UNSUPPORTED', async () => {
    const { service, caller, ctx, body } = setup();
    await expect(service.withdraw(ctx(), caller, body(1n, { collateralStack: 'usdc' }))).rejects.toMatchObject({
      code: 'WITHDRAWAL_UNSUPPORTED',
    });
  });

  it('fails a withdrawal the chain refuses, which frees its share of the limit', async () => {
    const { service, caller, ctx, body, chainRefuses, rows } = setup();
    chainRefuses.next = true;

    await expect(service.withdraw(ctx(), caller, body(5_000n))).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect([...rows.values()].map((w) => w.status)).toEqual(['failed']);
    expect(await service.dailyLimit(caller.address, 'credits')).toMatchObject({ used: '0', remaining: '10000' });
  });

  it('the sweep sends a withdrawal a crash left reserved once it is stranded, and completes mined ones', async () => {
    const { service, caller, rows, clock, sentKeys, mined } = setup();
    const stranded: WithdrawalRecord = {
      id: 'w-stranded',
      user_id: caller.userId,
      address: caller.address,
      collateral_stack: 'credits',
      to_address: TO,
      amount: '1000',
      status: 'reserved',
      request_id: null,
      tx_hash: null,
      bridge_ref: null,
      failure_reason: null,
      created_at: new Date(clock.now()),
      updated_at: new Date(clock.now()),
    };
    rows.set(stranded.id, stranded);

    await service.completeSubmitted();
    expect(rows.get('w-stranded')?.status).toBe('reserved');

    clock.advance(61_000);
    expect(await service.completeSubmitted()).toBe(0);
    expect(rows.get('w-stranded')?.status).toBe('submitted');
    expect(sentKeys.has('withdraw:w-stranded')).toBe(true);

    const hash = rows.get('w-stranded')?.tx_hash ?? '';
    mined.set(hash, 'success');
    expect(await service.completeSubmitted()).toBe(1);
    expect(rows.get('w-stranded')?.status).toBe('completed');
    expect(sentKeys.size).toBe(1);
  });

  it('the sweep fails a withdrawal whose transfer reverted, freeing the limit', async () => {
    const { service, caller, ctx, body, rows, mined } = setup();
    const w = await service.withdraw(ctx(), caller, body(2_000n));
    mined.set(rows.get(w.id)?.tx_hash ?? '', 'reverted');

    expect(await service.completeSubmitted()).toBe(1);
    expect(rows.get(w.id)).toMatchObject({ status: 'failed', failure_reason: 'the transfer reverted on chain' });
    expect((await service.dailyLimit(caller.address, 'credits')).used).toBe('0');
  });

  it('never sends a withdrawal again once it left reserved', async () => {
    const { service, caller, ctx, body, rows, sentKeys } = setup();
    const w = await service.withdraw(ctx(), caller, body(2_000n));
    const row = rows.get(w.id);
    if (!row) throw new Error('no row');

    expect(await service.sendIfReserved(row)).toBe(row);
    expect(sentKeys.size).toBe(1);
  });
});
