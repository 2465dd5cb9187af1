import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { memoryDistributionBook } from '../../../test/fakes/distribution-book.fake.js';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import { ALICE, BOB, CREATOR, UNIT } from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import { DomainError } from '../../errors.js';
import { verifyLeaf } from '../../platform/merkle/merkle-tree.js';
import { RefundService } from './tournament-refunds.service.js';

function setup() {
  const mem = new TournamentWorld();
  const vault = new PrizeVaultFake();
  const { book, tables } = memoryDistributionBook();
  const service = new RefundService(mem.db, book, vault);
  const t = mem.liveFinal({ status: 'CANCELED' });
  mem.entry(t, CREATOR, { isCreator: true, amount: 5n * UNIT });
  mem.entry(t, ALICE, { amount: 5n * UNIT });
  return { mem, vault, tables, service, t };
}

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof DomainError ? e.code : String(e)),
  );

describe('RefundService', () => {
  it('builds one refund leaf per wallet from every deposit still in the pool, summing a wallet’s deposits', async () => {
    const { mem, tables, service, t } = setup();
    mem.tables.deposits.push(
      { ...mem.tables.deposits[1]!, txHash: `0x${'77'.repeat(32)}`, stageIndex: 2, amount: (3n * UNIT).toString() },
      // Released by a withdrawal before the first lock: not refunded twice.
      {
        ...mem.tables.deposits[1]!,
        txHash: `0x${'78'.repeat(32)}`,
        wallet: BOB,
        refundedAt: new Date(0),
        refundTxHash: `0x${'79'.repeat(32)}`,
      },
    );
    const table = await service.ensureTable(t);
    expect(table).toMatchObject({ kind: 'refund', total: (13n * UNIT).toString(), leafCount: 2 });
    expect(tables.leafRows.map((l) => [l.account, l.amount])).toEqual([
      [ALICE.toLowerCase(), (8n * UNIT).toString()],
      [CREATOR.toLowerCase(), (5n * UNIT).toString()],
    ]);
    expect(await service.ensureTable(t)).toEqual(table);
    expect(tables.rows).toHaveLength(1);
  });

  it('has no table when nothing is left to refund, and refuses to publish one', async () => {
    const { mem, vault, service, t } = setup();
    for (const d of mem.tables.deposits) d.refundedAt = new Date(0);
    expect(await service.ensureTable(t)).toBeNull();
    expect(await code(service.publish(t.id))).toBe('INVALID_STATE');
    expect(vault.writes).toEqual([]);
  });

  it('refuses refunds of a tournament that was not cancelled with INVALID_STATE', async () => {
    const { mem, vault, service } = setup();
    const live = mem.liveFinal({ status: 'LIVE' });
    mem.entry(live, ALICE);
    expect(await code(service.publish(live.id))).toBe('INVALID_STATE');
    expect(await code(service.proof(live.id, ALICE))).toBe('INVALID_STATE');
    expect(await code(service.ensureTable(live))).toBe('INVALID_STATE');
    expect(await code(service.publish('ffffffffffffffffffffffff'))).toBe('NOT_FOUND');
    expect(vault.writes).toEqual([]);
  });

  it('publishes the refund root on the tournament’s pool once: a repeat answers the same transaction', async () => {
    const { vault, service, t } = setup();
    const first = await service.publish(t.id);
    expect(first).toMatchObject({
      tournamentId: t.id,
      kind: 'refund',
      kindIndex: 1,
      total: (10n * UNIT).toString(),
      leafCount: 2,
      poolId: t.poolId,
      vaultAddress: vault.address('credits'),
    });
    expect(await service.publish(t.id)).toEqual(first);
    expect(vault.of('setRoot')).toEqual([
      {
        op: 'setRoot',
        key: `tournaments:set-root:${t.id}:refund`,
        poolId: t.poolId,
        kind: 'refund',
        root: first.root,
        total: 10n * UNIT,
      },
    ]);
  });

  it('serves a wallet’s refund proof that verifies against the root, claimed once the vault says so', async () => {
    const { vault, service, t } = setup();
    const before = await service.proof(t.id, ALICE.toLowerCase());
    expect(before).toMatchObject({ kind: 'refund', kindIndex: 1, account: ALICE, amount: (5n * UNIT).toString() });
    expect(before).toMatchObject({ published: false, claimed: false });
    expect(
      verifyLeaf(before.root as Hex, t.poolId as Hex, {
        account: ALICE,
        amount: 5n * UNIT,
        proof: before.proof as Hex[],
      }),
    ).toBe(true);

    await service.publish(t.id);
    vault.markClaimed(t.poolId as Hex, 'refund', ALICE);
    expect(await service.proof(t.id, ALICE)).toMatchObject({ published: true, claimed: true });
  });

  it('asks who is claiming without a wallet, and answers NOT_FOUND to a wallet with nothing to get back', async () => {
    const { service, t } = setup();
    expect(await code(service.proof(t.id, undefined))).toBe('UNAUTHENTICATED');
    expect(await code(service.proof(t.id, BOB))).toBe('NOT_FOUND');
  });
});
