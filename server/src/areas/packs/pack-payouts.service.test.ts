import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { PackWorld, UNIT } from '../../../test/fakes/pack-world.js';
import { DomainError } from '../../errors.js';
import { verifyLeaf } from '../../platform/merkle/merkle-tree.js';

interface Refusal {
  code: string;
  details?: Record<string, unknown> | undefined;
  fieldErrors?: Record<string, string[]> | undefined;
}

const refusal = (p: Promise<unknown>): Promise<Refusal> =>
  p.then(
    () => ({ code: 'ok' }),
    (e: unknown) =>
      e instanceof DomainError ? { code: e.code, details: e.details, fieldErrors: e.fieldErrors } : { code: String(e) },
  );

/** A settled pack whose payout table pays Alice 19 and Bob 9.5 (as settlement records it); Carol was paid nothing. */
async function settled() {
  const w = new PackWorld();
  const pack = w.pack({ status: 'settled', markets: [w.market()] });
  const [alice, bob, carol] = [w.user('alice'), w.user('bob'), w.user('carol')];
  await w.distributions.book.record(pack.poolId as Hex, 'payout', 'credits', [
    { account: alice.address, amount: 19n * UNIT },
    { account: bob.address, amount: (19n * UNIT) / 2n },
  ]);
  return { w, pack, alice, bob, carol };
}

describe('PackPayoutService', () => {
  it('serves a winner’s payout proof that verifies against the root, with the claim call ready to send', async () => {
    const { w, pack, alice } = await settled();
    const proof = await w.payouts.proof(pack.id, 'payout', alice.address.toLowerCase());
    expect(proof).toMatchObject({
      kind: 'payout',
      kindIndex: 0,
      account: alice.address,
      amount: (19n * UNIT).toString(),
      vaultAddress: w.vault.address('credits'),
      collateralStack: 'credits',
      published: false,
      claimed: false,
    });
    expect(proof.call.to).toBe(w.vault.address('credits'));
    expect(
      verifyLeaf(proof.root as Hex, pack.poolId as Hex, {
        account: alice.address,
        amount: 19n * UNIT,
        proof: proof.proof as Hex[],
      }),
    ).toBe(true);
  });

  it('reads whether a leaf was claimed from the vault once its root is published', async () => {
    const { w, pack, alice } = await settled();
    w.vault.markClaimed(pack.poolId as Hex, 'payout', alice.address, 19n * UNIT);
    // Not published: the vault cannot have paid it, whatever it answers.
    expect((await w.payouts.proof(pack.id, 'payout', alice.address)).claimed).toBe(false);
    await w.payouts.submitRoot(w.context(), pack.id, 'payout');
    expect(await w.payouts.proof(pack.id, 'payout', alice.address)).toMatchObject({ published: true, claimed: true });
  });

  it('refuses a proof without an account, before a table exists, and for an account without a leaf', async () => {
    const { w, pack, carol } = await settled();
    expect(await refusal(w.payouts.proof(pack.id, 'payout', undefined))).toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { 'query.account': ['required without a bearer token'] },
    });
    expect(await refusal(w.payouts.proof(pack.id, 'refund', carol.address))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'settled', kind: 'refund' },
    });
    expect((await refusal(w.payouts.proof(pack.id, 'payout', carol.address))).code).toBe('NOT_FOUND');
  });

  it('publishes the payout root once under the pack’s key: a repeat answers the same transaction', async () => {
    const { w, pack } = await settled();
    const first = await w.payouts.submitRoot(w.context(), pack.id, 'payout');
    expect(first).toMatchObject({
      packId: pack.id,
      kind: 'payout',
      total: ((57n * UNIT) / 2n).toString(),
      leafCount: 2,
      poolId: pack.poolId,
    });
    expect(await w.payouts.submitRoot(w.context(), pack.id, 'payout')).toEqual(first);
    expect(w.vault.of('setRoot')).toEqual([
      {
        op: 'setRoot',
        key: `packs:set-root:${pack.id}:payout`,
        poolId: pack.poolId,
        kind: 'payout',
        root: first.root,
        total: (57n * UNIT) / 2n,
      },
    ]);
  });

  it('refuses a payout root before settlement, or when nobody is paid', async () => {
    const w = new PackWorld();
    const locked = w.pack({ status: 'locked' });
    expect(await refusal(w.payouts.submitRoot(w.context(), locked.id, 'payout'))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'locked', allowedFrom: ['settled', 'claimed'] },
    });
    const nobody = w.pack({ status: 'settled' });
    expect((await refusal(w.payouts.submitRoot(w.context(), nobody.id, 'payout'))).code).toBe('INVALID_STATE');
    expect(w.vault.writes).toEqual([]);
  });

  it('publishes a cancelled pack’s refund root, refusing one that is not cancelled or that nobody entered', async () => {
    const w = new PackWorld();
    const pack = w.pack({ markets: [w.market()] });
    await w.entered(pack, w.user('alice'));
    expect((await refusal(w.payouts.submitRoot(w.context(), pack.id, 'refund'))).code).toBe('INVALID_STATE');
    await w.lifecycle.cancel(pack.id, 'league suspended');
    const res = await w.payouts.submitRoot(w.context(), pack.id, 'refund');
    expect(res).toMatchObject({ kind: 'refund', total: (10n * UNIT).toString(), leafCount: 1 });
    expect(w.vault.of('setRoot').map((r) => [r.key, r.kind])).toEqual([[`packs:set-root:${pack.id}:refund`, 'refund']]);

    const empty = w.pack();
    await w.lifecycle.cancel(empty.id, 'nobody came');
    expect(await refusal(w.payouts.submitRoot(w.context(), empty.id, 'refund'))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'cancelled' },
    });
  });

  it('summarises a table with the caller’s leaf, and what the vault has paid once published', async () => {
    const { w, pack, alice, carol } = await settled();
    expect(await w.payouts.summary(pack.id, 'refund', alice.address)).toMatchObject({
      status: 'not_ready',
      root: null,
      total: '0',
      mine: null,
    });
    const built = await w.payouts.summary(pack.id, 'payout', alice.address);
    expect(built).toMatchObject({
      status: 'built',
      leafCount: 2,
      claimedAmount: '0',
      mine: { account: alice.address, amount: (19n * UNIT).toString(), claimed: false, claimTxHash: null },
    });
    await w.payouts.submitRoot(w.context(), pack.id, 'payout');
    w.vault.markClaimed(pack.poolId as Hex, 'payout', alice.address, 19n * UNIT);
    const published = await w.payouts.summary(pack.id, 'payout', alice.address);
    expect(published).toMatchObject({
      status: 'published',
      claimedAmount: (19n * UNIT).toString(),
      mine: { claimed: true },
    });
    expect((await w.payouts.summary(pack.id, 'payout', carol.address)).mine).toBeNull();
  });

  it('reports claim progress and calls the pack fully claimed only when the vault paid the whole total', async () => {
    const { w, pack, alice, bob } = await settled();
    const view = await w.packs.require(pack.id);
    expect(await w.payouts.claimStatus(pack.id, 'refund')).toMatchObject({
      status: 'not_ready',
      complete: false,
      run: null,
    });
    expect(await w.payouts.fullyClaimed(view, 'payout')).toBe(false);
    await w.payouts.submitRoot(w.context(), pack.id, 'payout');
    w.vault.markClaimed(pack.poolId as Hex, 'payout', alice.address, 19n * UNIT);
    const d = w.distributions.tables.rows[0]!;
    await w.distributions.book.markClaimed(d, alice.address, `0x${'cc'.repeat(32)}`);
    expect(await w.payouts.claimStatus(pack.id, 'payout')).toMatchObject({
      status: 'published',
      claimedOnChain: (19n * UNIT).toString(),
      leavesClaimedByRelayer: 1,
      complete: false,
    });
    expect(await w.payouts.fullyClaimed(view, 'payout')).toBe(false);
    w.vault.markClaimed(pack.poolId as Hex, 'payout', bob.address, (19n * UNIT) / 2n);
    expect((await w.payouts.claimStatus(pack.id, 'payout')).complete).toBe(true);
    expect(await w.payouts.fullyClaimed(view, 'payout')).toBe(true);
  });
});
