import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { UNIT } from '../../../test/fakes/chain-harness.js';
import { MarketWorld, type FakeUser } from '../../../test/fakes/market-world.js';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { createLogger } from '../../logger.js';
import type { Duel } from '../markets/duel.entity.js';
import type { DistributionLedgerRepository, LedgerRow } from './distribution-ledger.repository.js';
import { DistributionService } from './distribution.service.js';

/** The payouts ledger in a list; holders of winning shares read from the chain fake, as the indexer's trades would say. */
function setup() {
  const world = new MarketWorld();
  const traders: Address[] = [];
  const rows: LedgerRow[] = [];
  const ledger = repositoryMock<DistributionLedgerRepository>();
  ledger.ensureEntry.mockImplementation((e) => {
    if (!rows.some((r) => r.duel_id === e.duelId && r.holder === e.holder && r.kind === e.kind)) {
      rows.push({
        id: randomUUID(),
        duel_id: e.duelId,
        holder: e.holder,
        kind: e.kind,
        is_creator: e.isCreator,
        status: 'queued',
        amount: null,
        tx_hash: null,
        generation: 0,
        attempts: 0,
        last_error: null,
        enqueued_at: null,
      });
    }
    return Promise.resolve();
  });
  ledger.rows.mockImplementation((duelId, kind) =>
    Promise.resolve(rows.filter((r) => r.duel_id === duelId && r.kind === kind).map((r) => ({ ...r }))),
  );
  const row = (id: string) => rows.find((r) => r.id === id)!;
  ledger.markPaid.mockImplementation((r) => Promise.resolve(void (row(r.id).status = 'paid')));
  ledger.markClaimSubmitted.mockImplementation((r, amount) => {
    Object.assign(row(r.id), { status: 'submitted', amount: row(r.id).amount ?? amount.toString() });
    return Promise.resolve();
  });
  ledger.recordClaimTxHash.mockImplementation((r, txHash) => Promise.resolve(void (row(r.id).tx_hash = txHash)));
  ledger.winningHolders.mockImplementation(async (duelId, option) => {
    const held = await Promise.all(
      traders.map((t) => world.chain.trading.sharesOf(duelId as `0x${string}`, t, option)),
    );
    return traders.filter((_, i) => (held[i] ?? 0n) > 0n);
  });
  const distribution = new DistributionService({
    ledger,
    lifecycle: world.chain.lifecycle,
    reads: world.chain.reads,
    logger: createLogger('silent'),
    clock: world.clock,
  });
  /** What the indexer does with a Paid event: the ledger row is paid. */
  const indexPaid = async () => {
    for (const r of rows) {
      const owed = await world.chain.lifecycle.owed(r.duel_id as `0x${string}`, r.holder as Address);
      if (owed.paid) r.status = 'paid';
    }
  };
  return { world, distribution, traders, indexPaid };
}

/** A market where `bets` were placed, ended and settled (no contest period) on option 0. */
async function settledMarket(s: ReturnType<typeof setup>, creator: FakeUser, bets: [FakeUser, number, bigint][]) {
  const duel = await s.world.market(creator, { endsIn: 3_600 });
  for (const [who, option, units] of bets) {
    s.traders.push(who.account.address);
    await s.world.chain.trading.buy(who.account, duel.duelId as `0x${string}`, option, units * UNIT, 0n);
  }
  s.world.clock.advance(3_600_000);
  await s.world.chain.lifecycle.resolve(creator.account, duel.duelId as `0x${string}`, 0);
  return s.world.indexed(duel);
}

const credits = (s: ReturnType<typeof setup>, u: FakeUser) =>
  s.world.chain.collateral.collateralBalance('credits', u.account.address);

describe('DistributionService.claim', () => {
  it('pays a winner exactly what the chain owes, once: claiming again answers already_paid', async () => {
    const s = setup();
    const creator = await s.world.user('creator');
    const bob = await s.world.user('bob', 20n);
    const duel: Duel = await settledMarket(s, creator, [[bob, 0, 20n]]);
    const shares = await s.world.chain.trading.sharesOf(duel.duelId as `0x${string}`, bob.account.address, 0);

    const first = await s.distribution.claim(duel, bob.account.address);
    expect(first).toMatchObject({ status: 'submitted', amount: shares });
    expect(await credits(s, bob)).toBe(shares);
    const again = await s.distribution.claim(duel, bob.account.address);
    expect(again).toMatchObject({ status: 'already_paid', amount: shares, txHash: first.txHash });
    expect(await credits(s, bob)).toBe(shares);
  });

  it('defers the creator until every other winner’s payment is indexed, then pays the pool’s share', async () => {
    const s = setup();
    const creator = await s.world.user('creator');
    const bob = await s.world.user('bob', 10n);
    const duel = await settledMarket(s, creator, [[bob, 0, 10n]]);
    expect(await s.distribution.claim(duel, creator.account.address)).toMatchObject({ status: 'deferred' });
    await s.distribution.claim(duel, bob.account.address);
    expect(await s.distribution.claim(duel, creator.account.address)).toMatchObject({ status: 'deferred' });
    await s.indexPaid();
    const owed = await s.world.chain.lifecycle.owed(duel.duelId as `0x${string}`, creator.account.address);
    expect(await s.distribution.claim(duel, creator.account.address)).toMatchObject({
      status: 'submitted',
      amount: owed.amount,
    });
    expect(await credits(s, creator)).toBe(owed.amount);
  });

  it('has nothing for a holder of the losing side, and refuses claims before settlement (INVALID_STATE)', async () => {
    const s = setup();
    const creator = await s.world.user('creator');
    const carol = await s.world.user('carol', 10n);
    const open = await s.world.market(creator);
    await expect(s.distribution.claim(open, carol.account.address)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    const duel = await settledMarket(s, creator, [[carol, 1, 10n]]);
    expect(await s.distribution.claim(duel, carol.account.address)).toMatchObject({
      status: 'nothing_to_claim',
      txHash: null,
    });
  });
});
