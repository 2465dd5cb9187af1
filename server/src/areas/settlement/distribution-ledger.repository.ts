import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { getAddress } from 'viem';
import type { MarketEvent } from '../../adapters/chain/chain.port.js';
import type { Orm } from '../../platform/db/orm.js';
import { sqlIn, type SqlExec } from '../../platform/db/sql.js';
import { eventInsertSql } from '../../platform/events/event-insert.sql.js';
import { DuelEntity, type Duel } from '../markets/duel.entity.js';
import type { DistributionKind, DistributionStatus } from './settlement.entities.js';

/** One row of the payouts and refunds ledger (`duel_distributions`), as raw SQL returns it. */
export interface LedgerRow {
  id: string;
  duel_id: string;
  holder: string;
  kind: DistributionKind;
  is_creator: boolean;
  status: DistributionStatus;
  amount: string | null;
  tx_hash: string | null;
  generation: number;
  attempts: number;
  last_error: string | null;
  enqueued_at: Date | null;
}

/** Why and when a market was cancelled through the admin surface. */
export interface CancellationRecord {
  source: 'discard' | 'bootstrap_threshold' | 'unresolved';
  reason: string;
  requested_at: Date;
  tx_hash: string | null;
}

/** `payout.claimable` for the payout entry just inserted (`entry`); parameter: created_at. */
const PAYOUT_CLAIMABLE_SQL = eventInsertSql(
  `select 'payout.claimable', d.builder_app_id, d.duel_id, d.is_private,
     'payout.claimable:' || d.duel_id || ':' || lower(e.holder),
     jsonb_build_object('duelId', d.duel_id, 'account', e.holder, 'isCreator', e.is_creator,
       'winningOptionIndex', d.winning_option_index, 'collateralStack', d.collateral_stack),
     ?::timestamptz
   from entry e join duels d on d.duel_id = e.duel_id where e.kind = 'payout'`,
);

/**
 * The payouts and refunds ledger: one row per (duel, holder, kind); every write of a job is fenced
 * by the row's generation, so an older job of a requeued row changes nothing.
 */
export class DistributionLedgerRepository {
  constructor(private readonly orm: Orm) {}

  async duel(duelId: string): Promise<Duel | null> {
    return this.orm.em.fork().findOne(DuelEntity, { duelId });
  }

  /**
   * Adds a queued entry unless the holder already has one of this kind. A new payout entry is
   * what makes the payout claimable: its `payout.claimable` event is written by the same
   * statement (docs/events.md).
   */
  async ensureEntry(entry: {
    duelId: string;
    holder: string;
    kind: DistributionKind;
    isCreator: boolean;
    batchId: string | null;
    at: Date;
  }): Promise<void> {
    await this.conn().execute(
      `with entry as (
         insert into duel_distributions (id, duel_id, holder, kind, is_creator, status, batch_id, created_at, updated_at)
         values (?, ?, ?, ?, ?, 'queued', ?, now(), now()) on conflict (duel_id, holder, kind) do nothing
         returning duel_id, holder, kind, is_creator),
       claimable as (${PAYOUT_CLAIMABLE_SQL})
       select 1`,
      [randomUUID(), entry.duelId, entry.holder, entry.kind, entry.isCreator, entry.batchId, entry.at],
    );
  }

  /** A market's entries of one kind, the creator first. */
  rows(duelId: string, kind: DistributionKind): Promise<LedgerRow[]> {
    return this.conn().execute<LedgerRow[]>(
      `select id, duel_id, holder, kind, is_creator, status, amount::text as amount, tx_hash, generation, attempts,
         last_error, enqueued_at from duel_distributions where duel_id = ? and kind = ? order by is_creator desc, holder`,
      [duelId, kind],
    );
  }

  async entry(duelId: string, holder: string, kind: DistributionKind): Promise<LedgerRow | undefined> {
    const [row] = await this.conn().execute<LedgerRow[]>(
      'select * from duel_distributions where duel_id = ? and holder = ? and kind = ?',
      [duelId, holder, kind],
    );
    return row;
  }

  /** Hands an unpaid entry to a new generation, to be queued again. */
  async requeue(id: string): Promise<void> {
    await this.conn().execute(
      `update duel_distributions set generation = generation + 1, status = 'queued', enqueued_at = null,
         updated_at = now() where id = ? and status <> 'paid'`,
      [id],
    );
  }

  async markEnqueued(row: Pick<LedgerRow, 'id' | 'generation'>): Promise<void> {
    await this.conn().execute(
      'update duel_distributions set enqueued_at = now(), updated_at = now() where id = ? and generation = ?',
      [row.id, row.generation],
    );
  }

  /** The intent, recorded before the payment is sent. */
  async markSubmitted(row: Pick<LedgerRow, 'id' | 'generation'>, amount: bigint): Promise<void> {
    await this.conn().execute(
      `update duel_distributions set status = 'submitted', amount = ?, updated_at = now() where id = ? and generation = ?`,
      [amount.toString(), row.id, row.generation],
    );
  }

  /** Records the payment's transaction; with `sql`, inside the chain pipeline's own transaction. */
  async recordTxHash(row: Pick<LedgerRow, 'id' | 'generation'>, txHash: string, sql?: SqlExec): Promise<void> {
    const query = 'update duel_distributions set tx_hash = ?, updated_at = now() where id = ? and generation = ?';
    const params = [txHash, row.id, row.generation];
    if (sql) await sql(query, params);
    else await this.conn().execute(query, params);
  }

  async markPaid(row: Pick<LedgerRow, 'id'>): Promise<void> {
    await this.conn().execute(
      `update duel_distributions set status = 'paid', paid_at = coalesce(paid_at, now()), last_error = null,
         updated_at = now() where id = ?`,
      [row.id],
    );
  }

  /** Counts a failed attempt; the last allowed one marks the entry failed. */
  async recordFailure(row: Pick<LedgerRow, 'id' | 'generation'>, message: string, final: boolean): Promise<void> {
    await this.conn().execute(
      `update duel_distributions set attempts = attempts + 1, last_error = ?, updated_at = now(),
         status = case when ? then 'failed' else status end
       where id = ? and generation = ? and status <> 'paid'`,
      [message.slice(0, 500), final, row.id, row.generation],
    );
  }

  /** Records a Paid event inside the indexer's transaction, whoever triggered the payment. */
  async recordPaidEvent(em: EntityManager, e: Extract<MarketEvent, { kind: 'paid' }>): Promise<void> {
    await sqlIn(em)(
      `insert into duel_distributions (id, duel_id, holder, kind, is_creator, status, amount, tx_hash, paid_at, created_at, updated_at)
       select ?, d.duel_id, ?, ?, lower(d.creator_address) = lower(?), 'paid', ?, ?, to_timestamp(?), now(), now()
         from duels d where d.duel_id = ?
       on conflict (duel_id, holder, kind) do update set status = 'paid', amount = excluded.amount,
         tx_hash = excluded.tx_hash, paid_at = excluded.paid_at, updated_at = now()`,
      [
        randomUUID(),
        getAddress(e.holder),
        e.refund ? 'refund' : 'payout',
        e.holder,
        e.amount.toString(),
        e.txHash.toLowerCase(),
        e.timestamp,
        e.duelId.toLowerCase(),
      ],
    );
  }

  /** Entries ready but not queued (after a crash, or a creator whose turn came). */
  unqueued(limit: number): Promise<{ duel_id: string; kind: DistributionKind }[]> {
    return this.conn().execute(
      `select distinct duel_id, kind from duel_distributions where status = 'queued' and enqueued_at is null limit ?`,
      [limit],
    );
  }

  async cancellation(duelId: string): Promise<CancellationRecord | undefined> {
    const [row] = await this.conn().execute<CancellationRecord[]>(
      'select source, reason, requested_at, tx_hash from duel_cancellations where duel_id = ?',
      [duelId],
    );
    return row;
  }

  /** Settled markets whose payouts have not been started (settlement pays its winners by itself). */
  settledWithoutPayouts(limit: number): Promise<{ duel_id: string }[]> {
    return this.conn().execute(
      `select d.duel_id from duels d where d.status = 'settled'
          and not exists (select 1 from duel_distributions x where x.duel_id = d.duel_id and x.kind = 'payout')
        order by d.resolved_at nulls last limit ?`,
      [limit],
    );
  }

  /** A holder's own claim: the intent, recorded before the payment is sent, whatever the row's generation. */
  async markClaimSubmitted(row: Pick<LedgerRow, 'id'>, amount: bigint): Promise<void> {
    await this.conn().execute(
      `update duel_distributions set status = 'submitted', amount = coalesce(amount, ?), updated_at = now()
        where id = ? and status <> 'paid'`,
      [amount.toString(), row.id],
    );
  }

  /** The claim's transaction; with `sql`, inside the chain pipeline's own transaction. */
  async recordClaimTxHash(row: Pick<LedgerRow, 'id'>, txHash: string, sql?: SqlExec): Promise<void> {
    const query = 'update duel_distributions set tx_hash = ?, updated_at = now() where id = ?';
    if (sql) await sql(query, [txHash, row.id]);
    else await this.conn().execute(query, [txHash, row.id]);
  }

  /** Admin cancellations the indexer has seen whose refunds have not been started. */
  undispatchedCancellations(limit: number): Promise<{ duel_id: string; batch_id: string | null }[]> {
    return this.conn().execute(
      `select c.duel_id, c.batch_id from duel_cancellations c join duels d on d.duel_id = c.duel_id
        where c.refunds_dispatched_at is null and d.status = 'cancelled' limit ?`,
      [limit],
    );
  }

  async markRefundsDispatched(duelId: string): Promise<void> {
    await this.conn().execute('update duel_cancellations set refunds_dispatched_at = now() where duel_id = ?', [
      duelId,
    ]);
  }

  /** Traders with a positive net deposit: who a refund pays. */
  async netDepositors(duelId: string): Promise<string[]> {
    const rows = await this.conn().execute<{ holder: string }[]>(
      `select trader as holder from trades where duel_id = ? group by trader
        having sum(case when side = 'buy' then collateral else -collateral end) > 0 order by trader`,
      [duelId],
    );
    return rows.map((r) => r.holder);
  }

  /** Holders of the winning option's shares: who a payout pays. */
  async winningHolders(duelId: string, optionIndex: number): Promise<string[]> {
    const rows = await this.conn().execute<{ holder: string }[]>(
      'select holder from positions where duel_id = ? and option_index = ? and shares > 0 order by holder',
      [duelId, optionIndex],
    );
    return rows.map((r) => r.holder);
  }

  private conn() {
    return this.orm.em.fork().getConnection();
  }
}
