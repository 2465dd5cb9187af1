import { randomUUID } from 'node:crypto';
import type { SqlExec } from '../../platform/db/sql.js';
import { eventInsertSql, isoSql } from '../../platform/events/event-insert.sql.js';
import type { FixtureResult } from './tournament-format.js';
import type { PickRow } from './tournament.types.js';

export type SettledPick = Pick<
  PickRow,
  'id' | 'stageId' | 'entryId' | 'outcome' | 'stake' | 'odds' | 'status' | 'payout'
>;

export type DisputeStatus = 'OPEN' | 'UPHELD' | 'REJECTED' | 'EXPIRED';

export interface DisputeRow {
  id: string;
  tournamentId: string;
  stageId: string;
  fixtureId: string;
  entryId: string;
  wallet: string;
  reason: string;
  proposedResult: FixtureResult | null;
  status: DisputeStatus;
  originalResult: FixtureResult;
  correctedResult: FixtureResult | null;
  resolutionNote: string | null;
  resolvedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
  resolvedAt: Date | null;
}

export interface SettlementRow {
  stageId: string;
  tournamentId: string;
  mode: 'auto' | 'force';
  actor: string;
  reason: string | null;
  blockers: unknown;
  settledAt: Date;
}

export interface OverrideRow {
  tournamentId: string;
  scope: string;
  endsAt: Date;
  setBy: string;
  setAt: Date;
}

export interface AutomationRunRow {
  id: string;
  trigger: string;
  steps: Record<string, unknown>;
  startedAt: Date;
  finishedAt: Date | null;
}

export interface DisputeFilter {
  readonly status?: DisputeStatus | undefined;
  readonly tournamentId?: string | undefined;
  readonly stageId?: string | undefined;
  readonly fixtureId?: string | undefined;
}

const DISPUTE = `d."id", d."tournament_id" as "tournamentId", d."stage_id" as "stageId", d."fixture_id" as "fixtureId",
  d."entry_id" as "entryId", d."wallet", d."reason", d."proposed_result" as "proposedResult", d."status",
  d."original_result" as "originalResult", d."corrected_result" as "correctedResult", d."resolution_note" as "resolutionNote",
  d."resolved_by" as "resolvedBy", d."created_at" as "createdAt", d."expires_at" as "expiresAt", d."resolved_at" as "resolvedAt"`;

const SETTLEMENT = `s."stage_id" as "stageId", s."tournament_id" as "tournamentId", s."mode", s."actor", s."reason", s."blockers",
  s."settled_at" as "settledAt"`;

function disputeWhere(f: DisputeFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    clauses.push(clause);
    params.push(value);
  };
  if (f.status) add(`d."status" = ?`, f.status);
  if (f.tournamentId) add(`d."tournament_id" = ?`, f.tournamentId);
  if (f.stageId) add(`d."stage_id" = ?`, f.stageId);
  if (f.fixtureId) add(`d."fixture_id" = ?`, f.fixtureId);
  return { sql: clauses.length ? `where ${clauses.join(' and ')}` : '', params };
}

/**
 * `tournament.stage_settled` for the settlement just inserted (`settled`), in the tournament's
 * builder app (a tournament without one has no event); once per stage (docs/events.md).
 */
const STAGE_SETTLED_SQL = eventInsertSql(
  `select 'tournament.stage_settled', t."builder_app_id", null::text, false,
     'tournament.stage_settled:' || x."stage_id",
     jsonb_build_object('tournamentId', x."tournament_id", 'stageId', x."stage_id", 'stageIndex', st."stage_index",
       'stageName', st."stage_name", 'mode', x."mode", 'settledAt', ${isoSql('x."settled_at"')}),
     x."settled_at"
   from settled x join "tournaments" t on t."id" = x."tournament_id" join "tournament_stages" st on st."id" = x."stage_id"
   where t."builder_app_id" is not null`,
);

/** Disputes, stage settlements, window overrides, the admin audit and automation runs. */
export class CloseRepository {
  constructor(private readonly sql: SqlExec) {}

  /** Files a dispute once per entrant and market; null when this entrant already disputed it. */
  async insertDispute(
    d: Omit<DisputeRow, 'id' | 'status' | 'correctedResult' | 'resolutionNote' | 'resolvedBy' | 'resolvedAt'>,
  ): Promise<DisputeRow | null> {
    const [row] = await this.sql<DisputeRow>(
      `insert into "tournament_disputes" as d ("id", "tournament_id", "stage_id", "fixture_id", "entry_id", "wallet", "reason",
         "proposed_result", "status", "original_result", "created_at", "expires_at")
       values (?, ?, ?, ?, ?, ?, ?, ?, 'OPEN', ?, ?, ?)
       on conflict ("fixture_id", "entry_id") do nothing returning ${DISPUTE}`,
      [
        randomUUID(),
        d.tournamentId,
        d.stageId,
        d.fixtureId,
        d.entryId,
        d.wallet,
        d.reason,
        d.proposedResult,
        d.originalResult,
        d.createdAt,
        d.expiresAt,
      ],
    );
    return row ?? null;
  }

  async dispute(id: string, lock = false): Promise<DisputeRow | null> {
    const [row] = await this.sql<DisputeRow>(
      `select ${DISPUTE} from "tournament_disputes" d where d."id" = ?${lock ? ' for update' : ''}`,
      [id],
    );
    return row ?? null;
  }

  async disputeOf(fixtureId: string, entryId: string): Promise<DisputeRow | null> {
    const [row] = await this.sql<DisputeRow>(
      `select ${DISPUTE} from "tournament_disputes" d where d."fixture_id" = ? and d."entry_id" = ?`,
      [fixtureId, entryId],
    );
    return row ?? null;
  }

  async disputes(filter: DisputeFilter, limit = 1000, offset = 0): Promise<DisputeRow[]> {
    const w = disputeWhere(filter);
    return this.sql<DisputeRow>(
      `select ${DISPUTE} from "tournament_disputes" d ${w.sql} order by d."created_at", d."id" limit ? offset ?`,
      [...w.params, limit, offset],
    );
  }

  async countDisputes(filter: DisputeFilter): Promise<number> {
    const w = disputeWhere(filter);
    const [row] = await this.sql<{ n: number }>(
      `select count(*)::int as "n" from "tournament_disputes" d ${w.sql}`,
      w.params,
    );
    return row?.n ?? 0;
  }

  async disputeStats(): Promise<{
    byStatus: { status: DisputeStatus; n: number }[];
    tournamentsWithOpen: number;
    oldestOpenAt: Date | null;
  }> {
    const byStatus = await this.sql<{ status: DisputeStatus; n: number }>(
      `select "status", count(*)::int as "n" from "tournament_disputes" group by "status"`,
    );
    const [open] = await this.sql<{ tournaments: number; oldest: Date | null }>(
      `select count(distinct "tournament_id")::int as "tournaments", min("created_at") as "oldest"
         from "tournament_disputes" where "status" = 'OPEN'`,
    );
    return { byStatus, tournamentsWithOpen: open?.tournaments ?? 0, oldestOpenAt: open?.oldest ?? null };
  }

  /** Decides an open dispute; false when it was no longer open. */
  async resolveDispute(
    id: string,
    r: {
      status: Exclude<DisputeStatus, 'OPEN'>;
      correctedResult: FixtureResult | null;
      note: string | null;
      by: string;
      at: Date;
    },
  ): Promise<boolean> {
    const rows = await this.sql(
      `update "tournament_disputes" set "status" = ?, "corrected_result" = ?, "resolution_note" = ?, "resolved_by" = ?, "resolved_at" = ?
        where "id" = ? and "status" = 'OPEN' returning "id"`,
      [r.status, r.correctedResult, r.note, r.by, r.at, id],
    );
    return rows.length > 0;
  }

  /** Closes every open dispute past its deadline (the result stands); answers their ids. */
  async expireDisputes(now: Date, limit: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `update "tournament_disputes" set "status" = 'EXPIRED', "resolved_at" = ?, "resolved_by" = 'automation',
              "resolution_note" = 'not decided before its deadline: the result stands'
        where "id" in (select "id" from "tournament_disputes" where "status" = 'OPEN' and "expires_at" <= ?
                        order by "expires_at" limit ? for update skip locked)
        returning "id"`,
      [now, now, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Rejects the open disputes of a stage (a forced settlement); answers their ids. */
  async rejectOpenOfStage(stageId: string, note: string, by: string, at: Date): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `update "tournament_disputes" set "status" = 'REJECTED', "resolution_note" = ?, "resolved_by" = ?, "resolved_at" = ?
        where "stage_id" = ? and "status" = 'OPEN' returning "id"`,
      [note, by, at, stageId],
    );
    return rows.map((r) => r.id);
  }

  /** Corrects a fixture's result (an upheld dispute). */
  async correctResult(fixtureId: string, result: FixtureResult): Promise<void> {
    await this.sql(`update "tournament_fixtures" set "result" = ? where "id" = ?`, [result, fixtureId]);
  }

  /** Settles a settled pick again under a corrected result. */
  async resettlePick(id: string, status: PickRow['status'], payout: number): Promise<void> {
    await this.sql(`update "tournament_picks" set "status" = ?, "payout" = ? where "id" = ?`, [status, payout, id]);
  }

  async settledPicksOn(fixtureId: string): Promise<SettledPick[]> {
    return this.sql<SettledPick>(
      `select p."id", p."stage_id" as "stageId", p."entry_id" as "entryId", p."outcome", p."stake"::float8 as "stake",
              p."odds", p."status", p."payout"::float8 as "payout"
         from "tournament_picks" p where p."fixture_id" = ? and p."status" <> 'OPEN'`,
      [fixtureId],
    );
  }

  /** Records a stage's settlement once; false when the stage was settled already. */
  async insertSettlement(s: SettlementRow): Promise<boolean> {
    const rows = await this.sql(
      `with settled as (
         insert into "tournament_stage_settlements" ("stage_id", "tournament_id", "mode", "actor", "reason", "blockers", "settled_at")
         values (?, ?, ?, ?, ?, ?::jsonb, ?) on conflict do nothing
         returning "stage_id", "tournament_id", "mode", "settled_at"),
       event as (${STAGE_SETTLED_SQL})
       select "stage_id" from settled`,
      [s.stageId, s.tournamentId, s.mode, s.actor, s.reason, JSON.stringify(s.blockers), s.settledAt],
    );
    return rows.length > 0;
  }

  async settlements(tournamentId: string): Promise<SettlementRow[]> {
    return this.sql<SettlementRow>(
      `select ${SETTLEMENT} from "tournament_stage_settlements" s where s."tournament_id" = ?`,
      [tournamentId],
    );
  }

  async settlementCount(stageId: string): Promise<number> {
    const [row] = await this.sql<{ n: number }>(
      `select count(*)::int as "n" from "tournament_stage_settlements" where "stage_id" = ?`,
      [stageId],
    );
    return row?.n ?? 0;
  }

  /** Tournaments with a stage whose every fixture has a settled result but which is not settled itself. */
  async tournamentsWithSettleableStages(limit: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `select distinct st."tournament_id" as "id" from "tournament_stages" st
         join "tournaments" t on t."id" = st."tournament_id"
        where t."status" in ('LIVE', 'COMPLETED') and t."game_type" = 'CLASSIC'
          and not exists (select 1 from "tournament_stage_settlements" ss where ss."stage_id" = st."id")
          and not exists (select 1 from "tournament_fixtures" f where f."stage_id" = st."id" and f."settled_at" is null)
        limit ?`,
      [limit],
    );
    return rows.map((r) => r.id);
  }

  /** The tournament a stage belongs to, or null for an unknown stage. */
  async tournamentOfStage(stageId: string): Promise<string | null> {
    const [row] = await this.sql<{ tournamentId: string }>(
      `select "tournament_id" as "tournamentId" from "tournament_stages" where "id" = ?`,
      [stageId],
    );
    return row?.tournamentId ?? null;
  }

  async overrides(tournamentId: string): Promise<OverrideRow[]> {
    return this.sql<OverrideRow>(
      `select "tournament_id" as "tournamentId", "scope", "ends_at" as "endsAt", "set_by" as "setBy", "set_at" as "setAt"
         from "tournament_window_overrides" where "tournament_id" = ?`,
      [tournamentId],
    );
  }

  async setOverride(o: OverrideRow): Promise<void> {
    await this.sql(
      `insert into "tournament_window_overrides" ("tournament_id", "scope", "ends_at", "set_by", "set_at") values (?, ?, ?, ?, ?)
       on conflict ("tournament_id", "scope") do update set "ends_at" = excluded."ends_at", "set_by" = excluded."set_by", "set_at" = excluded."set_at"`,
      [o.tournamentId, o.scope, o.endsAt, o.setBy, o.setAt],
    );
  }

  async audit(a: {
    tournamentId: string;
    stageId: string | null;
    action: string;
    actor: string;
    reason: string | null;
    details: unknown;
    at: Date;
  }): Promise<void> {
    await this.sql(
      `insert into "tournament_admin_actions" ("id", "tournament_id", "stage_id", "action", "actor", "reason", "details", "created_at")
       values (?, ?, ?, ?, ?, ?, ?::jsonb, ?)`,
      [randomUUID(), a.tournamentId, a.stageId, a.action, a.actor, a.reason, JSON.stringify(a.details), a.at],
    );
  }

  async insertRun(trigger: string, startedAt: Date): Promise<string> {
    const id = randomUUID();
    await this.sql(
      `insert into "tournament_automation_runs" ("id", "trigger", "steps", "started_at") values (?, ?, '{}'::jsonb, ?)`,
      [id, trigger, startedAt],
    );
    return id;
  }

  async finishRun(id: string, steps: Record<string, unknown>, finishedAt: Date): Promise<void> {
    await this.sql(`update "tournament_automation_runs" set "steps" = ?::jsonb, "finished_at" = ? where "id" = ?`, [
      JSON.stringify(steps),
      finishedAt,
      id,
    ]);
  }

  async lastRun(): Promise<AutomationRunRow | null> {
    const [row] = await this.sql<AutomationRunRow>(
      `select "id", "trigger", "steps", "started_at" as "startedAt", "finished_at" as "finishedAt"
         from "tournament_automation_runs" order by "started_at" desc, "id" desc limit 1`,
    );
    return row ?? null;
  }
}
