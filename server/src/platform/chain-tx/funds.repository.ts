import type { Orm } from '../db/orm.js';
import { directSql, type SqlExec } from '../db/sql.js';
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
   * of the same write (same key) finds its reservation and passes. One statement, its own
   * transaction: the lock, the held-sum read after it and the insert are `fund_reserve`
   * (migration 20261205000000).
   */
  async reserve(debit: Debit, snapshot: FundsSnapshot, unrecordedSince: Date, now: Date): Promise<ReserveOutcome> {
    const [row] = await this.direct<{ ok: boolean; held: string }>(
      'select ok, held from fund_reserve(?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        debit.key,
        debit.chainId,
        debit.account.toLowerCase(),
        debit.token.toLowerCase(),
        debit.amount.toString(),
        snapshot.balance.toString(),
        snapshot.minedNonce,
        unrecordedSince,
        now,
      ],
    );
    if (!row) throw new Error('fund_reserve returned no row');
    return row.ok ? { ok: true } : { ok: false, balance: snapshot.balance, held: BigInt(row.held) };
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
