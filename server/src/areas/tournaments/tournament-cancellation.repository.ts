import type { SqlExec } from '../../platform/db/sql.js';
import { TOURNAMENT } from './tournament.columns.js';
import type { TournamentRow, TournamentStatus } from './tournament.types.js';

export type CancelRequestStatus = 'OPEN' | 'REJECTED' | 'ACCEPTED';

export interface CancelRequestRow {
  id: string;
  tournamentId: string;
  /** Lower-case. */
  wallet: string;
  role: 'creator' | 'entrant';
  reason: string;
  status: CancelRequestStatus;
  decidedBy: string | null;
  decisionReason: string | null;
  createdAt: Date;
  decidedAt: Date | null;
}

const REQUEST = `r."id", r."tournament_id" as "tournamentId", r."wallet", r."role", r."reason", r."status",
  r."decided_by" as "decidedBy", r."decision_reason" as "decisionReason", r."created_at" as "createdAt", r."decided_at" as "decidedAt"`;

export interface CancelRequestFilter {
  readonly status?: CancelRequestStatus;
  readonly tournamentId?: string;
}

export interface AdminTournamentFilter {
  readonly statuses?: readonly TournamentStatus[];
  /** Only tournaments discard accepts: no entrant but the creator, not discarded, not completed. */
  readonly removable?: boolean;
}

function requestWhere(f: CancelRequestFilter) {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (f.status) {
    clauses.push(`r."status" = ?`);
    params.push(f.status);
  }
  if (f.tournamentId) {
    clauses.push(`r."tournament_id" = ?`);
    params.push(f.tournamentId.toLowerCase());
  }
  return { sql: clauses.length ? `where ${clauses.join(' and ')}` : '', params };
}

/** Entrants other than the creator: what makes a tournament not removable. */
const OTHER_ENTRIES = `(select count(*) from "tournament_entries" e where e."tournament_id" = t."id" and not e."is_creator")`;

function adminWhere(f: AdminTournamentFilter) {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (f.statuses?.length) {
    clauses.push(`t."status" = any(?::text[])`);
    params.push(`{${f.statuses.join(',')}}`);
  }
  if (f.removable) {
    clauses.push(`t."discarded_at" is null and t."status" <> 'COMPLETED' and ${OTHER_ENTRIES} = 0`);
  }
  return { sql: clauses.length ? `where ${clauses.join(' and ')}` : '', params };
}

/** Cancel requests, cancellation and discard marks, timeouts and refund tables of tournaments. */
export class CancellationRepository {
  constructor(private readonly sql: SqlExec) {}

  /** Inserts an open request; null when the requester already has one open for this tournament. */
  async insertRequest(r: Omit<CancelRequestRow, 'decidedBy' | 'decisionReason' | 'decidedAt' | 'status'>) {
    const rows = await this.sql<{ id: string }>(
      `insert into "tournament_cancel_requests" ("id", "tournament_id", "wallet", "role", "reason", "status", "created_at")
       values (?, ?, ?, ?, ?, 'OPEN', ?) on conflict do nothing returning "id"`,
      [r.id, r.tournamentId, r.wallet.toLowerCase(), r.role, r.reason, r.createdAt],
    );
    return rows.length > 0;
  }

  async request(id: string): Promise<CancelRequestRow | null> {
    const [row] = await this.sql<CancelRequestRow>(
      `select ${REQUEST} from "tournament_cancel_requests" r where r."id" = ?`,
      [id],
    );
    return row ?? null;
  }

  /**
   * The requester's latest request. A new request needs the previous one decided, and only a
   * cancellation (after which nobody asks again) accepts one, so an OPEN or ACCEPTED request is
   * always the latest; among rejected ones the newest wins.
   */
  async currentRequestOf(tournamentId: string, wallet: string): Promise<CancelRequestRow | null> {
    const [row] = await this.sql<CancelRequestRow>(
      `select ${REQUEST} from "tournament_cancel_requests" r where r."tournament_id" = ? and r."wallet" = ?
        order by case r."status" when 'OPEN' then 0 when 'ACCEPTED' then 1 else 2 end, r."created_at" desc, r."id" desc limit 1`,
      [tournamentId, wallet.toLowerCase()],
    );
    return row ?? null;
  }

  async openRequest(tournamentId: string, wallet: string): Promise<CancelRequestRow | null> {
    const [row] = await this.sql<CancelRequestRow>(
      `select ${REQUEST} from "tournament_cancel_requests" r where r."tournament_id" = ? and r."wallet" = ? and r."status" = 'OPEN'`,
      [tournamentId, wallet.toLowerCase()],
    );
    return row ?? null;
  }

  async openCount(tournamentId: string): Promise<number> {
    const [row] = await this.sql<{ n: number }>(
      `select count(*)::int as "n" from "tournament_cancel_requests" where "tournament_id" = ? and "status" = 'OPEN'`,
      [tournamentId],
    );
    return row?.n ?? 0;
  }

  async requests(f: CancelRequestFilter, limit: number, offset: number): Promise<CancelRequestRow[]> {
    const w = requestWhere(f);
    return this.sql<CancelRequestRow>(
      `select ${REQUEST} from "tournament_cancel_requests" r ${w.sql} order by r."created_at" desc, r."id" desc limit ? offset ?`,
      [...w.params, limit, offset],
    );
  }

  async requestCount(f: CancelRequestFilter): Promise<number> {
    const w = requestWhere(f);
    const [row] = await this.sql<{ n: number }>(
      `select count(*)::int as "n" from "tournament_cancel_requests" r ${w.sql}`,
      w.params,
    );
    return row?.n ?? 0;
  }

  /** Rejects an open request; false when it was not open (any more). */
  async reject(id: string, by: string, reason: string, at: Date): Promise<boolean> {
    const rows = await this.sql(
      `update "tournament_cancel_requests" set "status" = 'REJECTED', "decided_by" = ?, "decision_reason" = ?, "decided_at" = ?
        where "id" = ? and "status" = 'OPEN' returning "id"`,
      [by, reason, at, id],
    );
    return rows.length > 0;
  }

  /** Every open request of a cancelled tournament is granted by its cancellation. */
  async acceptOpen(tournamentId: string, by: string, reason: string, at: Date): Promise<number> {
    const rows = await this.sql(
      `update "tournament_cancel_requests" set "status" = 'ACCEPTED', "decided_by" = ?, "decision_reason" = ?, "decided_at" = ?
        where "tournament_id" = ? and "status" = 'OPEN' returning "id"`,
      [by, reason, at, tournamentId],
    );
    return rows.length;
  }

  /** LIVE → CANCELED, once; false when the tournament was not LIVE. */
  async markCancelled(id: string, at: Date, reason: string, by: string): Promise<boolean> {
    const rows = await this.sql(
      `update "tournaments" set "status" = 'CANCELED', "cancelled_at" = ?, "cancel_reason" = ?, "cancelled_by" = ?, "updated_at" = now()
        where "id" = ? and "status" = 'LIVE' returning "id"`,
      [at, reason, by, id],
    );
    return rows.length > 0;
  }

  async markDiscarded(id: string, at: Date): Promise<boolean> {
    const rows = await this.sql(
      `update "tournaments" set "discarded_at" = ?, "updated_at" = now() where "id" = ? and "discarded_at" is null returning "id"`,
      [at, id],
    );
    return rows.length > 0;
  }

  async otherEntries(tournamentId: string): Promise<number> {
    const [row] = await this.sql<{ n: number }>(
      `select count(*)::int as "n" from "tournament_entries" where "tournament_id" = ? and not "is_creator"`,
      [tournamentId],
    );
    return row?.n ?? 0;
  }

  /** What a cancellation returns: every recorded deposit not already refunded, per wallet. */
  async refundableDeposits(tournamentId: string): Promise<{ wallet: string; amount: string }[]> {
    return this.sql<{ wallet: string; amount: string }>(
      `select "wallet", "amount"::text as "amount" from "tournament_deposits"
        where "tournament_id" = ? and "refunded_at" is null order by "created_at", "tx_hash"`,
      [tournamentId],
    );
  }

  /**
   * LIVE tournaments whose first lock passed with fewer entries than their minimum: the timeouts
   * cancel them (part 1 leaves them unactivated).
   */
  async missedMinimum(now: Date, limit: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `select t."id" from "tournaments" t where t."status" = 'LIVE' and t."activated_at" is null and t."starts_at" <= ?
          and (select count(*) from "tournament_entries" e where e."tournament_id" = t."id") < t."min_entries"
        order by t."starts_at", t."id" limit ?`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Records the lock of every stage of a LIVE tournament whose lock time passed; the stages locked now. */
  async lockDueStages(now: Date): Promise<{ id: string; tournamentId: string }[]> {
    return this.sql<{ id: string; tournamentId: string }>(
      `update "tournament_stages" s set "locked_at" = s."lock_at"
         from "tournaments" t
        where t."id" = s."tournament_id" and t."status" = 'LIVE' and s."locked_at" is null and s."lock_at" <= ?
        returning s."id", s."tournament_id" as "tournamentId"`,
      [now],
    );
  }

  /** Cancelled tournaments with money to refund but no refund table yet (a crash between the two). */
  async cancelledWithoutRefundTable(limit: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `select t."id" from "tournaments" t
        where t."status" = 'CANCELED'
          and not exists (select 1 from "merkle_distributions" m where m."pool_id" = t."pool_id" and m."kind" = 'refund')
          and exists (select 1 from "tournament_deposits" d where d."tournament_id" = t."id" and d."refunded_at" is null)
        order by t."cancelled_at", t."id" limit ?`,
      [limit],
    );
    return rows.map((r) => r.id);
  }

  /** Every tournament, discarded ones included, newest first. */
  async adminList(
    f: AdminTournamentFilter,
    limit: number,
    offset: number,
  ): Promise<(TournamentRow & { otherEntries: number })[]> {
    const w = adminWhere(f);
    return this.sql<TournamentRow & { otherEntries: number }>(
      `select ${TOURNAMENT}, ${OTHER_ENTRIES}::int as "otherEntries" from "tournaments" t ${w.sql} order by t."created_at" desc, t."id" desc limit ? offset ?`,
      [...w.params, limit, offset],
    );
  }

  async adminCount(f: AdminTournamentFilter): Promise<number> {
    const w = adminWhere(f);
    const [row] = await this.sql<{ n: number }>(`select count(*)::int as "n" from "tournaments" t ${w.sql}`, w.params);
    return row?.n ?? 0;
  }
}
