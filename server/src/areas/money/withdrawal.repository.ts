import { randomUUID } from 'node:crypto';
import type { Orm } from '../../platform/db/orm.js';
import { sqlIn, type SqlExec } from '../../platform/db/sql.js';
import type { WithdrawalRequestStatus, WithdrawalStatus } from './withdrawal.entities.js';

type Stack = 'usdc' | 'credits';
export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** Direct withdrawals of one user and collateral inside the rolling window. */
export interface LimitWindow {
  readonly used: bigint;
  /** The oldest counted withdrawal's time (null: nothing counted). */
  readonly oldest: Date | null;
}

/** What reserving a withdrawal did: counted it, refused it over the limit, or found it reserved already. */
export type ReserveResult =
  | { readonly kind: 'reserved'; readonly window: LimitWindow }
  | { readonly kind: 'refused'; readonly window: LimitWindow }
  | { readonly kind: 'exists'; readonly row: WithdrawalRecord };

export interface NewWithdrawal {
  readonly id: string;
  readonly userId: string;
  readonly address: string;
  readonly stack: Stack;
  readonly toAddress: string;
  readonly amount: bigint;
  readonly requestId: string | null;
}

export interface WithdrawalRecord {
  id: string;
  user_id: string;
  address: string;
  collateral_stack: Stack;
  to_address: string;
  amount: string;
  status: WithdrawalStatus;
  request_id: string | null;
  tx_hash: string | null;
  bridge_ref: string | null;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface RequestRecord {
  id: string;
  user_id: string;
  address: string;
  collateral_stack: Stack;
  to_address: string;
  amount: string;
  note: string | null;
  status: WithdrawalRequestStatus;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
  tx_hash: string | null;
  decision: 'approve' | 'reject' | null;
  decision_reason: string | null;
  admin_email: string | null;
  decided_at: Date | null;
}

const COUNTED = `status in ('reserved', 'submitted', 'completed') and request_id is null`;

const REQUEST_SELECT = `select r.id, r.user_id, r.address, r.collateral_stack, r.to_address, r.amount::text as amount, r.note,
    r.status, r.failure_reason, r.created_at, r.updated_at, w.tx_hash, d.decision, d.reason as decision_reason,
    d.admin_email, d.created_at as decided_at
  from withdrawal_requests r
  left join withdrawals w on w.request_id = r.id
  left join withdrawal_decisions d on d.request_id = r.id`;

/** Withdrawals, the daily-limit window and withdrawal requests with their decisions. */
export class WithdrawalRepository {
  constructor(private readonly orm: Orm) {}

  async window(address: string, stack: Stack, now: Date): Promise<LimitWindow> {
    return this.windowIn(this.sql(), address, stack, now);
  }

  /**
   * Counts a direct withdrawal against the limit, or refuses: under a per-(user, collateral)
   * transaction lock, so concurrent withdrawals see each other and the sum never passes `limit`.
   */
  async reserve(w: NewWithdrawal, limit: bigint, now: Date): Promise<ReserveResult> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      await sql('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
        `withdrawals:${w.address.toLowerCase()}:${w.stack}`,
      ]);
      // The same id again (a retried request whose first execution reserved it): that withdrawal.
      const [found] = await sql<WithdrawalRecord>('select *, amount::text as amount from withdrawals where id = ?', [
        w.id,
      ]);
      if (found) return { kind: 'exists', row: found };
      const window = await this.windowIn(sql, w.address, w.stack, now);
      if (window.used + w.amount > limit) return { kind: 'refused', window };
      await this.insertIn(sql, w, now);
      return { kind: 'reserved', window: { used: window.used + w.amount, oldest: window.oldest ?? now } };
    });
  }

  /** Records the withdrawal a request's execution makes (once per request); returns its id. */
  async ensureForRequest(w: NewWithdrawal, now: Date): Promise<WithdrawalRecord> {
    await this.sql()(
      `insert into withdrawals (id, user_id, address, collateral_stack, to_address, amount, status, request_id, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, 'reserved', ?, ?, ?) on conflict (request_id) do nothing`,
      [w.id, w.userId, w.address, w.stack, w.toAddress, w.amount.toString(), w.requestId, now, now],
    );
    const [row] = await this.sql()<WithdrawalRecord>(
      'select *, amount::text as amount from withdrawals where request_id = ?',
      [w.requestId],
    );
    if (!row) throw new Error(`withdrawal of request ${w.requestId} vanished`);
    return row;
  }

  /** Inside the chain pipeline's transaction: the write is signed and recorded together with this. */
  markSubmitted(sql: SqlExec, id: string, txHash: string, bridgeRef: string | null): Promise<unknown> {
    return sql(
      `update withdrawals set status = 'submitted', tx_hash = ?, bridge_ref = coalesce(?, bridge_ref), updated_at = now()
        where id = ? and status in ('reserved', 'submitted')`,
      [txHash, bridgeRef, id],
    );
  }

  async setBridgeRef(id: string, ref: string): Promise<void> {
    await this.sql()('update withdrawals set bridge_ref = ?, updated_at = now() where id = ?', [ref, id]);
  }

  async finish(id: string, status: 'completed' | 'failed', reason: string | null = null): Promise<boolean> {
    const rows = await this.sql()<{ id: string }>(
      `update withdrawals set status = ?, failure_reason = ?, completed_at = now(), updated_at = now()
        where id = ? and status in ('reserved', 'submitted') returning id`,
      [status, reason, id],
    );
    return rows.length > 0;
  }

  async byId(id: string): Promise<WithdrawalRecord | undefined> {
    const [row] = await this.sql()<WithdrawalRecord>('select *, amount::text as amount from withdrawals where id = ?', [
      id,
    ]);
    return row;
  }

  /** Direct withdrawals reserved before `before` and never sent (the process died in between). */
  stranded(before: Date, limit: number): Promise<WithdrawalRecord[]> {
    return this.sql()<WithdrawalRecord>(
      `select *, amount::text as amount from withdrawals
        where status = 'reserved' and request_id is null and created_at < ? order by created_at limit ?`,
      [before, limit],
    );
  }

  /** Sent withdrawals still waiting for the chain or the bridge. */
  submitted(limit: number): Promise<WithdrawalRecord[]> {
    return this.sql()<WithdrawalRecord>(
      `select *, amount::text as amount from withdrawals where status = 'submitted' order by updated_at limit ?`,
      [limit],
    );
  }

  // ---- requests ----

  /** Files a request once: the same id again (a resumed request) leaves the first one as it is. */
  async createRequest(r: {
    id: string;
    userId: string;
    address: string;
    stack: Stack;
    toAddress: string;
    amount: bigint;
    note: string | null;
    now: Date;
  }): Promise<string> {
    const id = r.id;
    await this.sql()(
      `insert into withdrawal_requests (id, user_id, address, collateral_stack, to_address, amount, note, status, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?) on conflict (id) do nothing`,
      [id, r.userId, r.address, r.stack, r.toAddress, r.amount.toString(), r.note, r.now, r.now],
    );
    return id;
  }

  async request(id: string): Promise<RequestRecord | undefined> {
    const [row] = await this.sql()<RequestRecord>(`${REQUEST_SELECT} where r.id = ?`, [id]);
    return row;
  }

  async requests(
    filter: { address?: string; status?: WithdrawalRequestStatus },
    page: { limit: number; offset: number },
  ): Promise<{ rows: RequestRecord[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.address) {
      where.push('lower(r.address) = lower(?)');
      params.push(filter.address);
    }
    if (filter.status) {
      where.push('r.status = ?');
      params.push(filter.status);
    }
    const clause = where.length ? `where ${where.join(' and ')}` : '';
    const rows = await this.sql()<RequestRecord>(
      `${REQUEST_SELECT} ${clause} order by r.created_at desc, r.id desc limit ? offset ?`,
      [...params, page.limit, page.offset],
    );
    const [count] = await this.sql()<{ n: string }>(
      `select count(*) as n from withdrawal_requests r ${clause}`,
      params,
    );
    return { rows, total: Number(count?.n ?? 0) };
  }

  /**
   * Records an admin's decision once: under the request's row lock, only a pending request is
   * decided; the unique decision row is the audit trail. Returns the status found when refused.
   */
  async decide(d: {
    requestId: string;
    adminId: string;
    adminEmail: string;
    decision: 'approve' | 'reject';
    reason: string | null;
  }): Promise<{ decided: true } | { decided: false; status: WithdrawalRequestStatus | null }> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      const [row] = await sql<{ status: WithdrawalRequestStatus }>(
        'select status from withdrawal_requests where id = ? for update',
        [d.requestId],
      );
      if (!row) return { decided: false, status: null };
      if (row.status !== 'pending') return { decided: false, status: row.status };
      await sql(
        `insert into withdrawal_decisions (id, request_id, admin_id, admin_email, decision, reason, created_at)
         values (?, ?, ?, ?, ?, ?, now())`,
        [randomUUID(), d.requestId, d.adminId, d.adminEmail, d.decision, d.reason],
      );
      await sql('update withdrawal_requests set status = ?, updated_at = now() where id = ?', [
        d.decision === 'approve' ? 'approved' : 'rejected',
        d.requestId,
      ]);
      return { decided: true };
    });
  }

  /** Moves a request between execution states; false when it was not in `from`. */
  async moveRequest(
    id: string,
    from: readonly WithdrawalRequestStatus[],
    to: WithdrawalRequestStatus,
    reason: string | null = null,
  ): Promise<boolean> {
    const rows = await this.sql()<{ id: string }>(
      `update withdrawal_requests set status = ?, failure_reason = coalesce(?, failure_reason), updated_at = now()
        where id = ? and status in (${from.map(() => '?').join(', ')}) returning id`,
      [to, reason, id, ...from],
    );
    return rows.length > 0;
  }

  /** Approved requests not finished yet (a crash or an instance without jobs left them). */
  async approvedIds(limit: number): Promise<string[]> {
    const rows = await this.sql()<{ id: string }>(
      `select id from withdrawal_requests where status in ('approved', 'executing') order by updated_at limit ?`,
      [limit],
    );
    return rows.map((r) => r.id);
  }

  /**
   * What counts against the limit at `now`: everything since `now` − 24 h. No upper bound: a
   * concurrent withdrawal (this instance or another) may have taken its `now` a moment later than
   * this one and committed first, and it counts all the same.
   */
  private async windowIn(sql: SqlExec, address: string, stack: Stack, now: Date): Promise<LimitWindow> {
    const [row] = await sql<{ used: string | null; oldest: Date | null }>(
      `select sum(amount)::text as used, min(created_at) as oldest from withdrawals
        where lower(address) = lower(?) and collateral_stack = ? and ${COUNTED}
          and created_at > ?`,
      [address, stack, new Date(now.getTime() - WINDOW_MS)],
    );
    return { used: BigInt(row?.used ?? '0'), oldest: row?.oldest ? new Date(row.oldest) : null };
  }

  private async insertIn(sql: SqlExec, w: NewWithdrawal, now: Date): Promise<void> {
    await sql(
      `insert into withdrawals (id, user_id, address, collateral_stack, to_address, amount, status, request_id, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, 'reserved', ?, ?, ?)`,
      [w.id, w.userId, w.address, w.stack, w.toAddress, w.amount.toString(), w.requestId, now, now],
    );
  }

  private sql(): SqlExec {
    const conn = this.orm.em.fork().getConnection();
    return <T>(q: string, params: readonly unknown[] = []) => conn.execute<T[]>(q, [...params]);
  }
}
