import { randomUUID } from 'node:crypto';
import type { Orm } from '../../platform/db/orm.js';
import { sqlIn, type SqlExec } from '../../platform/db/sql.js';
import { eventInsertSql } from '../../platform/events/event-insert.sql.js';
import type { DepositStatus } from './deposit.entities.js';

export interface DepositRecord {
  event_id: string;
  user_id: string;
  address: string;
  amount: string;
  status: DepositStatus;
  tx_hash: string | null;
  payload_sha256: string;
}

export interface OutboxRecord {
  id: string;
  user_id: string;
  kind: string;
  payload: { title: string; body: string; data: Record<string, string> };
}

/**
 * `deposit.credited` for the deposit just marked (`credited`), in the builder app of the user it
 * credits; written with the credit, once per deposit (docs/events.md). Parameter: created_at.
 */
const DEPOSIT_CREDITED_SQL = eventInsertSql(
  `select 'deposit.credited', u.builder_app_id, null::text, false, 'deposit.credited:' || c.event_id,
     jsonb_build_object('depositId', c.event_id, 'account', c.address, 'collateralStack', c.collateral_stack,
       'amount', c.amount::text, 'txHash', c.tx_hash),
     ?::timestamptz
   from credited c join users u on u.id = c.user_id`,
);

/** Bridge deposit events and the notifications outbox. */
export class DepositRepository {
  constructor(private readonly orm: Orm) {}

  async userByAddress(address: string): Promise<{ id: string; managed_address: string } | undefined> {
    const [row] = await this.sql()<{ id: string; managed_address: string }>(
      'select id, managed_address from users where lower(managed_address) = lower(?)',
      [address],
    );
    return row;
  }

  /**
   * Records an event and its notification in one transaction, once per event id: true when this
   * call recorded it, false when the event was already known (a provider retry).
   */
  async record(
    d: { eventId: string; userId: string; address: string; amount: bigint; payloadSha256: string; now: Date },
    notification: { kind: string; title: string; body: string; data: Record<string, string> },
  ): Promise<boolean> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      const inserted = await sql<{ event_id: string }>(
        `insert into bridge_deposits (event_id, user_id, address, collateral_stack, amount, status, payload_sha256, received_at)
         values (?, ?, ?, 'usdc', ?, 'received', ?, ?) on conflict (event_id) do nothing returning event_id`,
        [d.eventId, d.userId, d.address, d.amount.toString(), d.payloadSha256, d.now],
      );
      if (inserted.length === 0) return false;
      await sql(
        `insert into notification_outbox (id, dedupe_key, user_id, kind, payload, status, attempts, created_at)
         values (?, ?, ?, ?, ?, 'pending', 0, now()) on conflict (dedupe_key) do nothing`,
        [
          randomUUID(),
          `bridge.deposit:${d.eventId}`,
          d.userId,
          notification.kind,
          JSON.stringify({ title: notification.title, body: notification.body, data: notification.data }),
        ],
      );
      return true;
    });
  }

  async deposit(eventId: string): Promise<DepositRecord | undefined> {
    const [row] = await this.sql()<DepositRecord>(
      'select event_id, user_id, address, amount::text as amount, status, tx_hash, payload_sha256 from bridge_deposits where event_id = ?',
      [eventId],
    );
    return row;
  }

  /** Counts a delivery that reused `eventId` with a different payload; the count so far. */
  async noteConflict(eventId: string, now: Date): Promise<number> {
    const [row] = await this.sql()<{ n: number }>(
      `update bridge_deposits set conflicting_deliveries = conflicting_deliveries + 1, last_conflict_at = ?
        where event_id = ? returning conflicting_deliveries as n`,
      [now, eventId],
    );
    return Number(row?.n ?? 0);
  }

  /** Inside the chain pipeline's transaction: the credit is recorded with its signed transaction. */
  markCredited(sql: SqlExec, eventId: string, txHash: string, at: Date): Promise<unknown> {
    return sql(
      `with credited as (
         update bridge_deposits set status = 'credited', tx_hash = ?, credited_at = coalesce(credited_at, now())
          where event_id = ? returning event_id, user_id, address, collateral_stack, amount, tx_hash),
       event as (${DEPOSIT_CREDITED_SQL})
       select 1`,
      [txHash, eventId, at],
    );
  }

  async uncredited(limit: number): Promise<string[]> {
    const rows = await this.sql()<{ event_id: string }>(
      `select event_id from bridge_deposits where status = 'received' order by received_at limit ?`,
      [limit],
    );
    return rows.map((r) => r.event_id);
  }

  /** Takes pending notifications for 30 s (another deliverer skips them meanwhile). */
  claimOutbox(limit: number, dedupeKey?: string): Promise<OutboxRecord[]> {
    return this.sql()<OutboxRecord>(
      `update notification_outbox set attempts = attempts + 1, locked_until = now() + interval '30 seconds'
        where id in (select id from notification_outbox where status = 'pending'
                       and (locked_until is null or locked_until < now()) ${dedupeKey ? 'and dedupe_key = ?' : ''}
                     order by created_at limit ? for update skip locked)
        returning id, user_id, kind, payload`,
      dedupeKey ? [dedupeKey, limit] : [limit],
    );
  }

  async outboxDone(id: string, error: string | null): Promise<void> {
    await this.sql()(
      error === null
        ? `update notification_outbox set status = 'delivered', delivered_at = now(), locked_until = null, last_error = null where id = ?`
        : `update notification_outbox set locked_until = null, last_error = ? where id = ?`,
      error === null ? [id] : [error.slice(0, 500), id],
    );
  }

  private sql(): SqlExec {
    const conn = this.orm.em.fork().getConnection();
    return <T>(q: string, params: readonly unknown[] = []) => conn.execute<T[]>(q, [...params]);
  }
}
