import { randomUUID } from 'node:crypto';
import { duelEventSql } from '../markets/market-events.sql.js';
import type { Orm } from '../../platform/db/orm.js';
import { pgArray, type SqlExec } from '../../platform/db/sql.js';
import type { DuelCancellationRow } from './settlement.entities.js';

export type BatchKind = 'discard' | 'cancel_expired' | 'auto_distribute';

/** The writes of market administration: batches, cancellations, closing ended markets. */
export class MarketAdminRepository {
  constructor(private readonly orm: Orm) {}

  /** Records one admin action over some markets; its id. */
  async insertBatch(kind: BatchKind, adminId: string, duelIds: readonly string[], reason: string | null) {
    const id = randomUUID();
    await this.conn().execute(
      'insert into settlement_batches (id, kind, admin_id, duel_ids, reason, created_at) values (?, ?, ?, ?::text[], ?, now())',
      [id, kind, adminId, pgArray(duelIds), reason],
    );
    return id;
  }

  /** Settled markets whose payouts were never queued or have failed entries, oldest resolution first. */
  async settledAwaitingPayout(limit: number): Promise<string[]> {
    const rows = await this.conn().execute<{ duel_id: string }[]>(
      `select d.duel_id from duels d where d.status = 'settled'
         and (not exists (select 1 from duel_distributions x where x.duel_id = d.duel_id and x.kind = 'payout')
           or exists (select 1 from duel_distributions x where x.duel_id = d.duel_id and x.kind = 'payout' and x.status = 'failed'))
       order by d.resolved_at nulls last limit ?`,
      [limit],
    );
    return rows.map((r) => r.duel_id);
  }

  /** Records a cancellation before it is sent; false when the market already has one. */
  async recordCancellation(c: {
    duelId: string;
    source: DuelCancellationRow['source'];
    reason: string;
    adminId: string;
    batchId: string;
  }): Promise<boolean> {
    const inserted = await this.conn().execute<{ duel_id: string }[]>(
      `insert into duel_cancellations (duel_id, source, reason, admin_id, batch_id, requested_at)
       values (?, ?, ?, ?, ?, now()) on conflict (duel_id) do nothing returning duel_id`,
      [c.duelId, c.source, c.reason, c.adminId, c.batchId],
    );
    return inserted.length > 0;
  }

  /** The cancellation's transaction; with `sql`, inside the chain pipeline's own transaction. */
  async recordCancellationTx(duelId: string, txHash: string, sql?: SqlExec): Promise<void> {
    const query = 'update duel_cancellations set tx_hash = ? where duel_id = ?';
    if (sql) await sql(query, [txHash, duelId]);
    else await this.conn().execute(query, [txHash, duelId]);
  }

  async deleteCancellation(duelId: string): Promise<void> {
    await this.conn().execute('delete from duel_cancellations where duel_id = ?', [duelId]);
  }

  /** Marks a cancellation's refunds as started (kept when already set). */
  async markRefundsDispatched(duelId: string): Promise<void> {
    await this.conn().execute(
      'update duel_cancellations set refunds_dispatched_at = coalesce(refunds_dispatched_at, now()) where duel_id = ?',
      [duelId],
    );
  }

  /** Moves confirmed open markets whose end is at or before `now` to pending; how many moved. */
  async closeEnded(now: Date): Promise<number> {
    // One statement: each market moved and its `duel.closed` event commit together.
    const rows = await this.conn().execute<{ duel_id: string }[]>(
      `with closed as (
         update duels set status = 'pending' where status = 'open' and chain_state = 'confirmed' and end_time <= ?
         returning *),
       emitted as (${duelEventSql('closed d')})
       select duel_id from closed`,
      [now, 'duel.closed', 'duel.closed:', now],
    );
    return rows.length;
  }

  private conn() {
    return this.orm.em.fork().getConnection();
  }
}
