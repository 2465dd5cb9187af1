import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { initOrm, type Orm } from '../db/orm.js';
import { entities } from '../../entities.js';
import { ChainStateRepository, type JournalEntry } from './chain-state.repository.js';

let db: TestDatabase;
let orm: Orm;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(entities, db.url, 2, false);
});
afterAll(async () => {
  await orm.close(true);
  await db.drop();
});

describe('the embedded chain journal on PostgreSQL', () => {
  it('reads back in the order it was written, across pages and past ten entries', async () => {
    const repo = new ChainStateRepository(orm);
    const written: JournalEntry[] = [];
    for (let n = 1n; n <= 25n; n++) {
      if (n % 6n === 0n)
        written.push({
          kind: 'set_balance',
          address: '0x00000000000000000000000000000000000000aa',
          balance: `0x${n.toString(16)}`,
        });
      written.push({
        kind: 'block',
        number: n,
        hash: `0x${n.toString(16).padStart(64, '0')}`,
        timestamp: 1_800_000_000 + Number(n),
        txs: [],
      });
    }
    // In batches of uneven size, as the group commit writes them.
    for (let i = 0; i < written.length; i += 4) await repo.append(written.slice(i, i + 4));
    const read: JournalEntry[] = [];
    for await (const entry of repo.journal(7)) read.push(entry);
    expect(read).toEqual(written);
  });
});
