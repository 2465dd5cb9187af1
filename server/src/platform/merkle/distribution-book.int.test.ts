import { keccak256, toHex, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { initOrm, type Orm } from '../db/orm.js';
import { entities } from '../../entities.js';
import { DistributionBook } from './distribution-book.js';
import { DistributionRepository } from './distribution.repository.js';
import { verifyLeaf } from './merkle-tree.js';

let db: TestDatabase;
let orm: Orm;
let book: DistributionBook;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(entities, db.url, 4, false);
  book = new DistributionBook(new DistributionRepository(orm));
});
afterAll(async () => {
  await orm.close(true);
  await db.drop();
});

const accounts = Array.from({ length: 1_200 }, (_, i): Address => `0x${(i + 1).toString(16).padStart(40, '0')}`);

describe('DistributionBook on PostgreSQL', () => {
  it('stores every leaf with a proof that verifies, once per pool and kind', async () => {
    const pool = keccak256(toHex('book:payout'));
    const entries = accounts.map((account, i) => ({ account, amount: BigInt(i + 1) }));
    const d = await book.record(pool, 'payout', 'credits', entries);
    expect(d).toMatchObject({ leafCount: 1_200, total: String((1_200 * 1_201) / 2), status: 'built' });
    for (const account of [accounts[0]!, accounts[599]!, accounts[1_199]!]) {
      const leaf = await book.proof(pool, 'payout', account);
      expect(leaf).not.toBeNull();
      expect(verifyLeaf(d.root as `0x${string}`, pool, leaf!)).toBe(true);
    }
    expect(await book.proof(pool, 'payout', '0x00000000000000000000000000000000000fffff')).toBeNull();
    expect(await book.proof(pool, 'refund', accounts[0]!)).toBeNull();
    // The same table again: the stored distribution, nothing written twice.
    const again = await book.record(pool, 'payout', 'credits', [...entries].reverse());
    expect(again.id).toBe(d.id);
    await expect(book.record(pool, 'payout', 'credits', entries.slice(1))).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
  });

  it('records publication and each claim once, and counts what is claimed', async () => {
    const pool = keccak256(toHex('book:refund'));
    const d = await book.record(pool, 'refund', 'usdc', [
      { account: accounts[0]!, amount: 5n },
      { account: accounts[1]!, amount: 7n },
    ]);
    const tx = `0x${'ab'.repeat(32)}` as const;
    expect(await book.markPublished(d, tx)).toBe(true);
    expect(await book.markPublished(d, tx)).toBe(false);
    expect(await book.markClaimed(d, accounts[1]!, tx)).toBe(true);
    expect(await book.markClaimed(d, accounts[1]!.toUpperCase().replace('0X', '0x'), tx)).toBe(false);
    expect(await book.counts(d)).toEqual({ claimed: 1, unclaimed: 1, claimedAmount: '7' });
    const unclaimed = await book.leaves(d, { offset: 0, limit: 10, claimed: false });
    expect(unclaimed.map((l) => l.amount)).toEqual([5n]);
    const leaf = await book.proof(pool, 'refund', accounts[1]!);
    expect(leaf).toMatchObject({ claimed: true, claimTxHash: tx, published: true });
  });
});
