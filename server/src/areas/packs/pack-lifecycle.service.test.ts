import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE, PackWorld, TREASURY, UNIT } from '../../../test/fakes/pack-world.js';
import { DomainError } from '../../errors.js';
import { verifyLeaf } from '../../platform/merkle/merkle-tree.js';

const admin = { adminId: 'adm-1', email: 'ops@example.com' };

interface Refusal {
  code: string;
  details?: Record<string, unknown> | undefined;
  retryAfterMs?: number | undefined;
}

const refusal = (p: Promise<unknown>): Promise<Refusal> =>
  p.then(
    () => ({ code: 'ok' }),
    (e: unknown) =>
      e instanceof DomainError
        ? { code: e.code, details: e.details, retryAfterMs: e.retryAfterMs }
        : { code: String(e) },
  );

/**
 * A published pack of two 50/50 markets (fee 10, 5% platform fee). Alice picks both winners,
 * Bob one, Carol none; the lock has passed and the pack is locked.
 */
async function lockedPack() {
  const w = new PackWorld();
  const [m1, m2] = [w.market(), w.market()];
  const pack = w.pack({ markets: [m1, m2] });
  const [alice, bob, carol] = [w.user('alice'), w.user('bob'), w.user('carol')];
  for (const u of [alice, bob, carol]) await w.entered(pack, u);
  await w.entries.pick(alice, pack.id, [
    { marketId: m1.duelId, optionIndex: 0 },
    { marketId: m2.duelId, optionIndex: 1 },
  ]);
  await w.entries.pick(bob, pack.id, [
    { marketId: m1.duelId, optionIndex: 0 },
    { marketId: m2.duelId, optionIndex: 0 },
  ]);
  await w.entries.pick(carol, pack.id, [{ marketId: m1.duelId, optionIndex: 1 }]);
  w.clock.advance(24 * HOUR);
  await w.lifecycle.lock(pack.id);
  return { w, pack, m1, m2, alice, bob, carol };
}

async function resolved() {
  const s = await lockedPack();
  await s.w.lifecycle.resolveMarket(s.w.context(), s.pack.id, s.m1.duelId, 0);
  await s.w.lifecycle.resolveMarket(s.w.context(), s.pack.id, s.m2.duelId, 1);
  return s;
}

describe('PackLifecycleService', () => {
  it('locks a published pack once; any other state is refused with INVALID_STATE', async () => {
    const w = new PackWorld();
    const pack = w.pack({ markets: [w.market()] });
    const dto = await w.lifecycle.lock(pack.id);
    expect(dto).toMatchObject({ status: 'locked', lockedAt: new Date(w.clock.now()).toISOString() });
    expect(await refusal(w.lifecycle.lock(pack.id))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'locked', allowedFrom: ['published'] },
    });
  });

  it('resolves a market of a locked pack through the platform and moves the pack to resolving', async () => {
    const { w, pack, m1 } = await lockedPack();
    const res = await w.lifecycle.resolveMarket(w.context(), pack.id, m1.duelId, 0);
    expect(res).toMatchObject({ chainState: 'pending', market: { status: 'resolved', winningOptionIndex: 0 } });
    expect(w.decided).toEqual([{ op: 'resolve', duelId: m1.duelId, detail: 'resolve' }]);
    expect(w.repo.marketRows.find((m) => m.duelId === m1.duelId.toLowerCase())?.resolveTxHash).toBe(res.txHash);
    expect(w.repo.packs.get(pack.id)).toMatchObject({ status: 'resolving', resolvingAt: new Date(w.clock.now()) });
  });

  it('refuses to resolve a market before the pack is locked, or one the pack voided', async () => {
    const w = new PackWorld();
    const m = w.market();
    const pack = w.pack({ markets: [m] });
    expect((await refusal(w.lifecycle.resolveMarket(w.context(), pack.id, m.duelId, 0))).code).toBe('INVALID_STATE');
    await w.lifecycle.lock(pack.id);
    await w.lifecycle.voidMarket(w.context(), admin, pack.id, m.duelId, 'abandoned');
    expect(await refusal(w.lifecycle.resolveMarket(w.context(), pack.id, m.duelId, 0))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'voided' },
    });
    expect(w.decided.filter((d) => d.op === 'resolve')).toEqual([]);
  });

  it('voids a market once: it scores neutral and the market itself is cancelled; a repeat answers the same', async () => {
    const { w, pack, m2 } = await lockedPack();
    const first = await w.lifecycle.voidMarket(w.context(), admin, pack.id, m2.duelId, 'fixture abandoned');
    expect(first.market).toMatchObject({ status: 'voided', voidReason: 'fixture abandoned' });
    expect(first.cancelTxHash).toMatch(/^0x/);
    expect(w.repo.packs.get(pack.id)?.status).toBe('resolving');
    const again = await w.lifecycle.voidMarket(w.context(), admin, pack.id, m2.duelId, 'other reason');
    expect(again).toEqual(first);
    expect(w.decided).toEqual([{ op: 'discard', duelId: m2.duelId, detail: `pack ${pack.id}: fixture abandoned` }]);
  });

  it('voids a settled market for the pack only, and keeps the void when the market cannot be cancelled', async () => {
    const w = new PackWorld();
    const [settled, open] = [w.market({ status: 'settled', winningOptionIndex: 0 }), w.market()];
    const pack = w.pack({ markets: [settled, open] });
    const onlyPack = await w.lifecycle.voidMarket(w.context(), admin, pack.id, settled.duelId, 'bad data');
    expect(onlyPack).toMatchObject({ market: { status: 'voided' }, cancelTxHash: null });
    w.discardFailure = { code: 'CHAIN_UNAVAILABLE', message: 'rpc down' };
    const kept = await w.lifecycle.voidMarket(w.context(), admin, pack.id, open.duelId, 'bad data');
    expect(kept).toMatchObject({ market: { status: 'voided' }, cancelTxHash: null });
    expect(w.decided.map((d) => [d.op, d.duelId])).toEqual([['discard', open.duelId]]);
    expect(w.warnings).toHaveLength(1);
    // A void while published keeps the pack open.
    expect(w.repo.packs.get(pack.id)?.status).toBe('published');
  });

  it('previews settlement with its blockers: not locked, markets undecided, deposits unverified', async () => {
    const w = new PackWorld();
    const m = w.market();
    const pack = w.pack({ markets: [m] });
    w.vault.depositOutcome = 'pending';
    await w.entries.enter(w.context(), w.user('dan'), pack.id);
    const preview = await w.lifecycle.preview(pack.id);
    expect(preview).toMatchObject({ ready: false, status: 'published' });
    expect(preview.blockers).toEqual([
      'the pack is published; it settles once locked',
      `market ${m.duelId} is open`,
      '1 entry deposits are not verified yet',
    ]);
    expect((await refusal(w.lifecycle.settle(pack.id))).details?.['blockers']).toEqual(preview.blockers);
  });

  it('settles: ranks by points, splits the pool after the 5% fee by place weights, records the payout table', async () => {
    const { w, pack, alice, bob, carol } = await resolved();
    const preview = await w.lifecycle.preview(pack.id);
    expect(preview).toMatchObject({ ready: true, blockers: [], pool: (30n * UNIT).toString(), entrants: 3 });
    const dto = await w.lifecycle.settle(pack.id);
    // 30 in, 1.5 fee; two scoring places weigh 2 and 1 of 3: 19 and 9.5; nothing is left over.
    expect(dto.standings.map((s) => [s.userAddress, s.rank, s.points, s.correctPicks, s.payout])).toEqual([
      [alice.address, 1, 10_000, 2, (19n * UNIT).toString()],
      [bob.address, 2, 5_000, 1, ((19n * UNIT) / 2n).toString()],
      [carol.address, 3, 0, 0, '0'],
    ]);
    expect(dto).toMatchObject({ status: 'settled', fee: ((3n * UNIT) / 2n).toString(), root: preview.root });
    const table = w.distributions.tables.rows.find((r) => r.kind === 'payout');
    expect(table).toMatchObject({ root: preview.root, total: ((57n * UNIT) / 2n).toString(), leafCount: 2 });
    const leaf = w.distributions.tables.leafRows.find((l) => l.account === alice.address.toLowerCase())!;
    expect(
      verifyLeaf(table!.root as Hex, pack.poolId as Hex, {
        account: alice.address,
        amount: 19n * UNIT,
        proof: leaf.proof as Hex[],
      }),
    ).toBe(true);
    expect(w.repo.entryRows.find((e) => e.userId === bob.userId)).toMatchObject({ rank: 2, points: 5000 });
  });

  it('releases the fee to the treasury once under the pack’s key; settling again answers the stored settlement, cancelling is refused', async () => {
    const { w, pack } = await resolved();
    const first = await w.lifecycle.settle(pack.id);
    expect(w.vault.of('release')).toEqual([
      {
        op: 'release',
        key: `packs:fee:${pack.id}`,
        poolId: pack.poolId,
        to: TREASURY,
        amount: (3n * UNIT) / 2n,
        reason: 'pack-fee',
      },
    ]);
    expect(first.feeTxHash).toMatch(/^0x/);
    const again = await w.lifecycle.settle(pack.id);
    expect(again).toEqual(first);
    expect(again).toMatchObject({ ready: false, blockers: ['the pack is already settled'] });
    expect(w.vault.of('release')).toHaveLength(1);
    expect(w.distributions.tables.rows).toHaveLength(1);
    expect(await refusal(w.lifecycle.cancel(pack.id, 'late'))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'settled' },
    });
  });

  it('still settles when the fee cannot be sent, and sends it on a later try', async () => {
    const { w, pack } = await resolved();
    w.vault.failWith = new Error('rpc down');
    const dto = await w.lifecycle.settle(pack.id);
    expect(dto).toMatchObject({ status: 'settled', feeTxHash: null });
    w.vault.failWith = undefined;
    expect(await w.lifecycle.releaseFee(await w.packs.require(pack.id))).toBe(true);
    expect(await w.lifecycle.releaseFee(await w.packs.require(pack.id))).toBe(false);
    expect(w.vault.of('release')).toHaveLength(1);
  });

  it('cancels before settlement and builds the refund table: every confirmed entrant gets the entry fee back', async () => {
    const { w, pack, alice } = await lockedPack();
    const dto = await w.lifecycle.cancel(pack.id, 'league suspended');
    expect(dto).toMatchObject({ status: 'cancelled', cancelReason: 'league suspended' });
    const table = w.distributions.tables.rows.find((r) => r.kind === 'refund');
    expect(table).toMatchObject({ total: (30n * UNIT).toString(), leafCount: 3 });
    expect(w.distributions.tables.leafRows.find((l) => l.account === alice.address.toLowerCase())?.amount).toBe(
      (10n * UNIT).toString(),
    );
    expect((await refusal(w.lifecycle.cancel(pack.id, 'again'))).code).toBe('INVALID_STATE');
  });

  it('waits for unverified deposits before building the refund table, and has none when nobody entered', async () => {
    const w = new PackWorld();
    const pack = w.pack({ markets: [w.market()] });
    w.vault.depositOutcome = 'pending';
    await w.entries.enter(w.context(), w.user('erin'), pack.id);
    await w.lifecycle.cancel(pack.id, 'typo');
    expect(w.distributions.tables.rows).toEqual([]);
    const cancelled = await w.packs.require(pack.id);
    expect(await refusal(w.lifecycle.refundTable(cancelled))).toMatchObject({
      code: 'INVALID_STATE',
      retryAfterMs: 2_000,
      details: { pendingEntries: 1 },
    });

    const empty = w.pack({ status: 'draft' });
    await w.lifecycle.cancel(empty.id, 'unused');
    expect(await w.lifecycle.refundTable(await w.packs.require(empty.id))).toBeNull();
  });

  it('stops counting an entry whose deposit was never recorded after ten minutes', async () => {
    const w = new PackWorld();
    const pack = w.pack({ markets: [w.market()] });
    await w.repo.insertEntry({
      id: 'e-dead',
      packId: pack.id,
      userId: 'user-gone',
      account: w.user('gone').address,
      amount: pack.entryFee,
    });
    await w.lifecycle.cancel(pack.id, 'typo');
    expect((await refusal(w.lifecycle.refundTable(await w.packs.require(pack.id)))).code).toBe('INVALID_STATE');
    w.clock.advance(10 * MINUTE + 1);
    expect(await w.lifecycle.refundTable(await w.packs.require(pack.id))).toBeNull();
  });

  it('tells whether any market of a pack has a result', async () => {
    const { w, pack, m1 } = await lockedPack();
    expect(await w.lifecycle.hasResults(pack.id)).toBe(false);
    Object.assign(m1, { status: 'pending_contest', winningOptionIndex: 0 });
    expect(await w.lifecycle.hasResults(pack.id)).toBe(true);
  });
});
