import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { initOrm, type Orm } from '../db/orm.js';
import { entities } from '../../entities.js';
import { directSql } from '../db/sql.js';
import type { Hex } from './chain-tx.types.js';
import { ChainTxRepository } from './chain-tx.repository.js';
import { FundsRepository, type Debit } from './funds.repository.js';

let db: TestDatabase;
let orm: Orm;
let funds: FundsRepository;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(entities, db.url, 4, false);
  funds = new FundsRepository(orm);
});
afterAll(async () => {
  await orm.close(true);
  await db.drop();
});

const TOKEN: Hex = '0x00000000000000000000000000000000000000c0';
const T0 = new Date('2026-11-27T10:00:00Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);
let wallets = 0;

function wallet(): Hex {
  wallets++;
  return `0x${wallets.toString(16).padStart(40, 'a')}`;
}

function debit(account: Hex, key: string, amount: bigint): Debit {
  return { chainId: 31337, account, token: TOKEN, amount, key };
}

/** Records a chain write under `key` as the pipeline would (only the columns the ledger reads matter). */
async function recordWrite(account: Hex, key: string, nonce: number, status: string): Promise<void> {
  await directSql(orm)(
    `insert into chain_txs (chain_id, intent_key, kind, account, data, value, gas_limit, nonce, raw_tx, tx_hash, status, created_at, updated_at)
     values (31337, ?, 'test.debit', ?, '0x', 0, 0, ?, '0x', ?, ?, now(), now())`,
    [key, account.toLowerCase(), nonce, `0x${key.padStart(64, '0')}`, status],
  );
}

describe('the funds reservation ledger on PostgreSQL', () => {
  it('holds a reservation until the balance snapshot reflects its write, by nonce', async () => {
    const w = wallet();
    const since = minutes(-2);
    expect(await funds.reserve(debit(w, 'a1', 60n), { balance: 100n, minedNonce: 0 }, since, T0)).toEqual({
      ok: true,
    });
    // Not recorded yet: it holds 60 of the 100.
    expect(await funds.reserve(debit(w, 'a2', 50n), { balance: 100n, minedNonce: 0 }, since, T0)).toEqual({
      ok: false,
      balance: 100n,
      held: 60n,
    });
    // Recorded with nonce 0 and mined, but the snapshot was read before that block: still held.
    await recordWrite(w, 'a1', 0, 'mined');
    expect((await funds.reserve(debit(w, 'a2', 50n), { balance: 100n, minedNonce: 0 }, since, T0)).ok).toBe(false);
    // A snapshot at or after the block that mined it: the balance has it, the reservation does not count.
    expect((await funds.reserve(debit(w, 'a2', 40n), { balance: 40n, minedNonce: 1 }, since, T0)).ok).toBe(true);
  });

  it('lets the same write pass again, and frees the reservation of a write that reverted', async () => {
    const w = wallet();
    const since = minutes(-2);
    expect((await funds.reserve(debit(w, 'b1', 100n), { balance: 100n, minedNonce: 3 }, since, T0)).ok).toBe(true);
    // A retry of the same write (same key) finds its reservation.
    expect((await funds.reserve(debit(w, 'b1', 100n), { balance: 100n, minedNonce: 3 }, since, T0)).ok).toBe(true);
    await recordWrite(w, 'b1', 3, 'broadcast');
    expect((await funds.reserve(debit(w, 'b2', 1n), { balance: 100n, minedNonce: 3 }, since, T0)).ok).toBe(false);
    // Settled as reverted (its key retired): a reverted write spends nothing, and settling it
    // frees its reservation at once.
    const txs = new ChainTxRepository(orm);
    const written = await txs.byKey('b1');
    await txs.transaction((sql) => txs.settle(sql, written?.id ?? '', { status: 'reverted', blockNumber: 7n }));
    expect((await funds.reserve(debit(w, 'b2', 100n), { balance: 100n, minedNonce: 4 }, since, T0)).ok).toBe(true);
  });

  it('stops holding a reservation whose write was never recorded once it is older than the window, and releases it on demand', async () => {
    const w = wallet();
    expect((await funds.reserve(debit(w, 'c1', 80n), { balance: 100n, minedNonce: 0 }, minutes(-2), T0)).ok).toBe(true);
    expect((await funds.reserve(debit(w, 'c2', 80n), { balance: 100n, minedNonce: 0 }, minutes(-2), T0)).ok).toBe(
      false,
    );
    // Two minutes on, with a two-minute window, the unrecorded reservation no longer holds.
    expect((await funds.reserve(debit(w, 'c2', 80n), { balance: 100n, minedNonce: 0 }, T0, minutes(2))).ok).toBe(true);
    await funds.release('c2');
    expect(
      (await funds.reserve(debit(w, 'c3', 30n), { balance: 100n, minedNonce: 0 }, minutes(1), minutes(3))).ok,
    ).toBe(true);
  });

  it('never releases a reservation whose write is recorded, and purges only what no open write needs', async () => {
    const w = wallet();
    const since = minutes(-2);
    await funds.reserve(debit(w, 'd1', 10n), { balance: 100n, minedNonce: 0 }, since, T0);
    await funds.reserve(debit(w, 'd2', 10n), { balance: 100n, minedNonce: 0 }, since, T0);
    await recordWrite(w, 'd1', 0, 'signed');
    await recordWrite(w, 'd2', 1, 'mined');
    await funds.release('d1');
    expect((await funds.reserve(debit(w, 'd3', 81n), { balance: 100n, minedNonce: 0 }, since, T0)).ok).toBe(false);
    await funds.purge(minutes(60));
    const left = await directSql(orm)<{ write_key: string }>(
      `select write_key from fund_reservations where account = ? order by write_key`,
      [w.toLowerCase()],
    );
    expect(left.map((r) => r.write_key)).toEqual(['d1']);
  });

  it('serialises concurrent reservations of one wallet: 20 × 10 against 100 → exactly 10 pass', async () => {
    const w = wallet();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        funds.reserve(debit(w, `e${i}`, 10n), { balance: 100n, minedNonce: 0 }, minutes(-2), T0),
      ),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
  });

  it('reads what the others hold only once it has the lock: a reservation committed while it waited counts', async () => {
    const w = wallet();
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      // Another process holds the wallet's lock and is reserving 60 of its 100.
      await holder.query('begin');
      await holder.query(
        `insert into fund_wallets (chain_id, account, token) values (31337, $1, $2)
         on conflict (chain_id, account, token) do update set chain_id = excluded.chain_id`,
        [w.toLowerCase(), TOKEN.toLowerCase()],
      );
      await holder.query(
        `insert into fund_reservations (write_key, chain_id, account, token, amount, created_at) values ('f1', 31337, $1, $2, 60, $3)`,
        [w.toLowerCase(), TOKEN.toLowerCase(), T0],
      );
      const waiting = funds.reserve(debit(w, 'f2', 50n), { balance: 100n, minedNonce: 0 }, minutes(-2), T0);
      // Until the reservation is queued behind the lock (polling the server's view, not a timer).
      for (;;) {
        const { rows } = await holder.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query like '%fund_reserve%'`,
        );
        if ((rows[0]?.n ?? 0) > 0) break;
      }
      await holder.query('commit');
      // A read with a snapshot from before the wait would have seen nothing held.
      expect(await waiting).toEqual({ ok: false, balance: 100n, held: 60n });
    } finally {
      await holder.end();
    }
  });
});
