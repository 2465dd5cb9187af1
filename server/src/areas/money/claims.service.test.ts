import { getAddress, type Hash } from 'viem';
import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../platform/clock.js';
import type { SqlExec } from '../../platform/db/sql.js';
import { operationContext } from '../../platform/operation.context.js';
import type { Duel } from '../markets/duel.entity.js';
import type { ClaimsRepository, FeeClaimRow } from './claims.repository.js';
import { ClaimsService, type ClaimsDeps } from './claims.service.js';

const CREATOR = getAddress('0xcccccccccccccccccccccccccccccccccccccccc');
const OTHER = getAddress('0xdddddddddddddddddddddddddddddddddddddddd');
const D1 = `0x${'1'.padStart(64, '0')}`;
const D2 = `0x${'2'.padStart(64, '0')}`;

/**
 * Fee claims in memory and a chain that owes each settled market's creator its fees once: a
 * claim records its row with the write, a second claim on chain reverts ALREADY_PAID.
 */
function setup() {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  const duels = new Map<string, Duel>();
  const addDuel = (duelId: string, over: Partial<Duel> = {}) =>
    duels.set(duelId, {
      duelId,
      creatorAddress: CREATOR,
      status: 'settled',
      collateralStack: 'credits',
      ...over,
    } as Duel);
  const fees = new Map<string, { amount: bigint; claimed: boolean }>();
  const claims = new Map<string, FeeClaimRow>();
  const noSql = (() => Promise.reject(new Error('no database in a unit test'))) as unknown as SqlExec;
  let sent = 0;

  const repo = repositoryMock<ClaimsRepository>();
  repo.feeClaim.mockImplementation((id) => Promise.resolve(claims.get(id)));
  repo.recordFeeClaim.mockImplementation((_sql, c) => {
    claims.set(c.duelId, {
      duel_id: c.duelId,
      status: 'submitted',
      amount: c.amount.toString(),
      tx_hash: c.txHash,
    });
    return Promise.resolve();
  });
  repo.markFeesPaid.mockImplementation((c) => {
    const row = claims.get(c.duelId);
    if (row) row.status = 'paid';
    else
      claims.set(c.duelId, {
        duel_id: c.duelId,
        status: 'paid',
        amount: c.amount.toString(),
        tx_hash: null,
      });
    return Promise.resolve();
  });
  repo.claimableFeeMarkets.mockImplementation((creator, stack) =>
    Promise.resolve(
      [...duels.values()]
        .filter(
          (d) =>
            d.creatorAddress === creator &&
            d.collateralStack === stack &&
            d.status === 'settled' &&
            claims.get(d.duelId)?.status !== 'paid',
        )
        .map((d) => d.duelId),
    ),
  );

  const chain: ClaimsDeps['chain'] = {
    feesOwed: (id) => Promise.resolve(fees.get(id) ?? { amount: 0n, claimed: false }),
    claimFees: async (id, opts = {}) => {
      const owed = fees.get(id);
      if (!owed || owed.claimed) throw new DomainError('ALREADY_PAID', 'fees already claimed');
      const hash: Hash = `0x${(++sent).toString(16).padStart(64, '0')}`;
      await opts.record?.(noSql, hash);
      fees.set(id, { amount: 0n, claimed: true });
      return hash;
    },
  };
  const service = new ClaimsService({
    repo,
    chain,
    duels: {
      require: (id) => {
        const d = duels.get(id);
        return d ? Promise.resolve(d) : Promise.reject(new DomainError('NOT_FOUND', `No duel ${id}`));
      },
    },
    payouts: { claim: () => Promise.reject(new Error('not used here')) },
  });
  const ctx = () => operationContext({ requestId: 'req-1', clock });
  return { service, ctx, addDuel, fees, claims, sentCount: () => sent };
}

describe('ClaimsService.claimFees', () => {
  it('claims the fees of every settled market of the creator once, and a second call finds them paid', async () => {
    const { service, ctx, addDuel, fees, claims, sentCount } = setup();
    addDuel(D1);
    addDuel(D2);
    fees.set(D1, { amount: 300n, claimed: false });
    fees.set(D2, { amount: 200n, claimed: false });

    const first = await service.claimFees(ctx(), { address: CREATOR }, { collateralStack: 'credits' });
    expect(first.totalSubmitted).toBe('500');
    expect(first.claims.map((c) => c.status)).toEqual(['submitted', 'submitted']);
    expect(claims.get(D1)).toMatchObject({ status: 'submitted', amount: '300' });

    const again = await service.claimFees(ctx(), { address: CREATOR }, { collateralStack: 'credits', duelId: D1 });
    expect(again).toMatchObject({
      claims: [{ duelId: D1, status: 'already_paid', amount: '300' }],
      totalSubmitted: '0',
    });
    expect(claims.get(D1)?.status).toBe('paid');
    expect(sentCount()).toBe(2);
  });

  it('answers nothing_to_claim for a market that owes nothing', async () => {
    const { service, ctx, addDuel } = setup();
    addDuel(D1);
    const r = await service.claimFees(ctx(), { address: CREATOR }, { collateralStack: 'credits', duelId: D1 });
    expect(r.claims).toEqual([{ duelId: D1, status: 'nothing_to_claim', amount: null, txHash: null }]);
  });

  it('records as paid a claim the chain paid before a crash lost its row, without sending again', async () => {
    const { service, ctx, addDuel, fees, claims, sentCount } = setup();
    addDuel(D1);
    fees.set(D1, { amount: 0n, claimed: true });

    const r = await service.claimFees(ctx(), { address: CREATOR }, { collateralStack: 'credits', duelId: D1 });

    expect(r.claims[0]?.status).toBe('already_paid');
    expect(claims.get(D1)?.status).toBe('paid');
    expect(sentCount()).toBe(0);
  });

  it('refuses a market of another creator with FORBIDDEN', async () => {
    const { service, ctx, addDuel, fees } = setup();
    addDuel(D1, { creatorAddress: OTHER });
    fees.set(D1, { amount: 300n, claimed: false });
    await expect(
      service.claimFees(ctx(), { address: CREATOR }, { collateralStack: 'credits', duelId: D1 }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(fees.get(D1)?.claimed).toBe(false);
  });

  it('refuses an unsettled market with INVALID_STATE and a collateral mismatch with VALIDATION_FAILED', async () => {
    const { service, ctx, addDuel } = setup();
    addDuel(D1, { status: 'open' });
    addDuel(D2, { collateralStack: 'usdc' });
    await expect(
      service.claimFees(ctx(), { address: CREATOR }, { collateralStack: 'credits', duelId: D1 }),
    ).rejects.toMatchObject({ code: 'INVALID_STATE', details: { status: 'open' } });
    await expect(
      service.claimFees(ctx(), { address: CREATOR }, { collateralStack: 'credits', duelId: D2 }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(
      service.claimFees(ctx(), { address: CREATOR }, { collateralStack: 'credits', collateralMode: 'usdc' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
