import type { Orm } from '../db/orm.js';
import { directSql, sqlIn, type SqlExec } from '../db/sql.js';
import type { Hex } from './chain-tx.types.js';

/** A wallet's token balance and mined transaction count, read at one block. */
export interface FundsSnapshot {
  readonly balance: bigint;
  /** Transactions of the wallet mined at that block: every write with a lower nonce is in `balance`. */
  readonly minedNonce: number;
}

/** What one chain write will spend of a wallet's token. */
export interface Debit {
  readonly chainId: number;
  readonly account: Hex;
  readonly token: Hex;
  readonly amount: bigint;
  /** The write's key: one reservation per write, found again by a retry of the same write. */
  readonly key: string;
}

export type ReserveOutcome =
  { readonly ok: true } | { readonly ok: false; readonly balance: bigint; readonly held: bigint };

/**
 * The ledger of pending debits (docs/kernel.md, "Reserve before sending"). A reservation counts
 * against its wallet while the chain's balance cannot reflect it yet: its write is not recorded
 * (for at most `unrecordedHoldMs`: the request died before signing), or it is recorded and open
 * or mined with a nonce at or above the snapshot's mined count. A write mined below that count is
 * already in the snapshot's balance; a failed or reverted one spends nothing.
 */
export class FundsRepository {
  private readonly direct: SqlExec;

  constructor(private readonly orm: Orm) {
    this.direct = directSql(orm);
  }

  /**
   * Reserves `debit` if the wallet can fund it counting every reservation still in flight; under
   * the lock of the wallet's row, so concurrent checks in every process see each other. A retry
   * of the same write (same key) finds its reservation and passes.
   */
  reserve(debit: Debit, snapshot: FundsSnapshot, unrecordedSince: Date, now: Date): Promise<ReserveOutcome> {
    const wallet = [debit.chainId, debit.account.toLowerCase(), debit.token.toLowerCase()];
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      await sql(
        `insert into fund_wallets (chain_id, account, token) values (?, ?, ?)
         on conflict (chain_id, account, token) do update set chain_id = excluded.chain_id`,
        wallet,
      );
      // Whether this write already holds its reservation, and what the wallet's others hold.
      const [row] = await sql<{ own: boolean; held: string }>(
        `select exists (select 1 from fund_reservations where write_key = ?) as own,
                coalesce(sum(r.amount), 0)::text as held
           from fund_reservations r
           left join chain_txs t on t.intent_key = r.write_key
          where r.chain_id = ? and r.account = ? and r.token = ?
            and case when t.id is null then r.created_at > ?
                     else t.status in ('signed', 'broadcast', 'mined') and t.nonce >= ? end`,
        [debit.key, ...wallet, unrecordedSince, snapshot.minedNonce],
      );
      if (row?.own) return { ok: true };
      const held = BigInt(row?.held ?? '0');
      if (snapshot.balance - held < debit.amount) return { ok: false, balance: snapshot.balance, held };
      await sql(
        `insert into fund_reservations (write_key, chain_id, account, token, amount, created_at) values (?, ?, ?, ?, ?, ?)`,
        [debit.key, ...wallet, debit.amount.toString(), now],
      );
      return { ok: true };
    });
  }

  /** Gives a reservation up when its write was never recorded (the request failed before signing). */
  async release(key: string): Promise<void> {
    await this.direct(
      `delete from fund_reservations where write_key = ?
         and not exists (select 1 from chain_txs where intent_key = ? or retired_key = ?)`,
      [key, key, key],
    );
  }

  /** Forgets reservations older than `before` that no open write needs any more; returns how many. */
  async purge(before: Date): Promise<number> {
    const rows = await this.direct<{ write_key: string }>(
      `delete from fund_reservations r where r.created_at < ?
         and not exists (select 1 from chain_txs t where t.intent_key = r.write_key and t.status in ('signed', 'broadcast'))
       returning r.write_key`,
      [before],
    );
    return rows.length;
  }
}
