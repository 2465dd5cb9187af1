import type { SqlExec } from '../../platform/db/sql.js';
import type { ParticipantStatus } from './tournament-format.js';
import type { MatchRow, PickRow, StageEntryRow } from './tournament.types.js';

const STAGE_ENTRY = `se."stage_id" as "stageId", se."entry_id" as "entryId", se."tournament_id" as "tournamentId", se."wallet",
  se."start_chips"::float8 as "startChips", se."available"::float8 as "available", se."stack"::float8 as "stack", se."rank",
  se."group_label" as "groupLabel", se."group_rank" as "groupRank", se."status", se."paid_tx_hash" as "paidTxHash",
  se."picks", se."won_picks" as "wonPicks",
  (select count(*)::int from "tournament_entries" o where o."tournament_id" = se."tournament_id"
     and o."seq" <= (select e."seq" from "tournament_entries" e where e."id" = se."entry_id")) as "seed",
  (select u."username" from "users" u where u."managed_address" = se."wallet" limit 1) as "username"`;

const PICK = `p."id", p."tournament_id" as "tournamentId", p."stage_id" as "stageId", p."fixture_id" as "fixtureId", p."entry_id" as "entryId",
  p."wallet", p."outcome", p."stake"::float8 as "stake", p."odds", p."status", p."payout"::float8 as "payout",
  p."created_at" as "createdAt", p."settled_at" as "settledAt"`;

/** What the recompute writes for one participant of a stage. */
export interface StandingWrite {
  readonly stageId: string;
  readonly entryId: string;
  readonly tournamentId: string;
  readonly wallet: string;
  readonly startChips: number;
  readonly stack: number;
  readonly rank: number;
  readonly groupLabel: string | null;
  readonly groupRank: number | null;
  readonly status: ParticipantStatus;
  readonly picks: number;
  readonly wonPicks: number;
}

/** Stage participants and their chips, picks, and knockout matches. */
export class PlayRepository {
  constructor(private readonly sql: SqlExec) {}

  async stageEntries(stageId: string): Promise<StageEntryRow[]> {
    return this.sql<StageEntryRow>(
      `select ${STAGE_ENTRY} from "tournament_stage_entries" se where se."stage_id" = ?
        order by se."rank" nulls last, se."stack" desc, se."entry_id"`,
      [stageId],
    );
  }

  async stageEntriesOfTournament(tournamentId: string): Promise<StageEntryRow[]> {
    return this.sql<StageEntryRow>(
      `select ${STAGE_ENTRY} from "tournament_stage_entries" se where se."tournament_id" = ?`,
      [tournamentId],
    );
  }

  /** One participant's row, locked for the rest of the transaction when `lock`. */
  async stageEntry(stageId: string, entryId: string, lock = false): Promise<StageEntryRow | null> {
    const [row] = await this.sql<StageEntryRow>(
      `select ${STAGE_ENTRY} from "tournament_stage_entries" se where se."stage_id" = ? and se."entry_id" = ?${lock ? ' for update' : ''}`,
      [stageId, entryId],
    );
    return row ?? null;
  }

  /** Seats a participant with the stage's chips; an existing seat is kept as it is. */
  async seat(w: StandingWrite): Promise<void> {
    await this.sql(
      `insert into "tournament_stage_entries" ("stage_id", "entry_id", "tournament_id", "wallet", "start_chips", "available", "stack",
         "rank", "group_label", "group_rank", "status", "picks", "won_picks")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
      [
        w.stageId,
        w.entryId,
        w.tournamentId,
        w.wallet,
        w.startChips,
        w.startChips,
        w.stack,
        w.rank,
        w.groupLabel,
        w.groupRank,
        w.status,
        w.picks,
        w.wonPicks,
      ],
    );
  }

  /** Writes the derived standing of a participant (never `available`: picks keep that up to date). */
  async writeStanding(w: StandingWrite): Promise<void> {
    await this.sql(
      `update "tournament_stage_entries" set "stack" = ?, "rank" = ?, "group_label" = ?, "group_rank" = ?, "status" = ?,
          "picks" = ?, "won_picks" = ?
        where "stage_id" = ? and "entry_id" = ?`,
      [w.stack, w.rank, w.groupLabel, w.groupRank, w.status, w.picks, w.wonPicks, w.stageId, w.entryId],
    );
  }

  /** Drops participants the recompute no longer seats (only possible before the stage is played). */
  async unseatOthers(stageId: string, keep: readonly string[]): Promise<void> {
    await this.sql(
      `delete from "tournament_stage_entries" where "stage_id" = ? and not ("entry_id" = any(?::uuid[]))`,
      [stageId, `{${keep.join(',')}}`],
    );
  }

  async setPaid(stageId: string, entryId: string, txHash: string): Promise<void> {
    await this.sql(
      `update "tournament_stage_entries" set "paid_tx_hash" = ? where "stage_id" = ? and "entry_id" = ? and "paid_tx_hash" is null`,
      [txHash, stageId, entryId],
    );
  }

  /** Moves a participant's available chips (a pick placed, taken back or settled) and its pick count. */
  async addAvailable(stageId: string, entryId: string, delta: number, picksDelta = 0): Promise<void> {
    await this.sql(
      `update "tournament_stage_entries" set "available" = "available" + ?, "picks" = "picks" + ? where "stage_id" = ? and "entry_id" = ?`,
      [delta, picksDelta, stageId, entryId],
    );
  }

  async picksOfTournament(tournamentId: string): Promise<PickRow[]> {
    return this.sql<PickRow>(
      `select ${PICK} from "tournament_picks" p where p."tournament_id" = ? order by p."created_at", p."id"`,
      [tournamentId],
    );
  }

  /**
   * A page of a stage's picks as `viewer` may see them: everyone's on locked fixtures, the
   * viewer's own always; `hidden` counts the others.
   */
  async stagePicks(
    stageId: string,
    viewer: string | null,
    wallet: string | null,
    now: Date,
    limit: number,
    offset: number,
  ) {
    const visible = `(f."lock_at" <= ? or lower(p."wallet") = lower(coalesce(?, '')))`;
    const only = wallet ? ` and lower(p."wallet") = lower(?)` : '';
    const params = [stageId, now, viewer, ...(wallet ? [wallet] : [])];
    const from = `from "tournament_picks" p join "tournament_fixtures" f on f."id" = p."fixture_id" where p."stage_id" = ?`;
    const picks = await this.sql<PickRow>(
      `select ${PICK} ${from} and ${visible}${only} order by f."starts_at", p."created_at", p."id" limit ? offset ?`,
      [...params, limit, offset],
    );
    const [counts] = await this.sql<{ total: number; hidden: number }>(
      `select count(*) filter (where ${visible})::int as "total", count(*) filter (where not ${visible})::int as "hidden"
         ${from}${only}`,
      [now, viewer, now, viewer, stageId, ...(wallet ? [wallet] : [])],
    );
    return { picks, total: counts?.total ?? 0, hidden: counts?.hidden ?? 0 };
  }

  async pick(id: string): Promise<PickRow | null> {
    const [row] = await this.sql<PickRow>(`select ${PICK} from "tournament_picks" p where p."id" = ?`, [id]);
    return row ?? null;
  }

  async pickOn(fixtureId: string, entryId: string): Promise<PickRow | null> {
    const [row] = await this.sql<PickRow>(
      `select ${PICK} from "tournament_picks" p where p."fixture_id" = ? and p."entry_id" = ?`,
      [fixtureId, entryId],
    );
    return row ?? null;
  }

  async insertPick(p: Omit<PickRow, 'status' | 'payout' | 'settledAt'>): Promise<boolean> {
    const rows = await this.sql(
      `insert into "tournament_picks" ("id", "tournament_id", "stage_id", "fixture_id", "entry_id", "wallet", "outcome", "stake", "odds",
         "status", "created_at")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'OPEN', ?) on conflict do nothing returning "id"`,
      [p.id, p.tournamentId, p.stageId, p.fixtureId, p.entryId, p.wallet, p.outcome, p.stake, p.odds, p.createdAt],
    );
    return rows.length > 0;
  }

  /** Deletes an open pick; false when it was settled or gone meanwhile. */
  async deleteOpenPick(id: string): Promise<boolean> {
    const rows = await this.sql(`delete from "tournament_picks" where "id" = ? and "status" = 'OPEN' returning "id"`, [
      id,
    ]);
    return rows.length > 0;
  }

  async openPicksOn(fixtureId: string): Promise<PickRow[]> {
    return this.sql<PickRow>(
      `select ${PICK} from "tournament_picks" p where p."fixture_id" = ? and p."status" = 'OPEN'`,
      [fixtureId],
    );
  }

  /** Settles an open pick once; false when it was settled already. */
  async settlePick(id: string, status: PickRow['status'], payout: number, at: Date): Promise<boolean> {
    const rows = await this.sql(
      `update "tournament_picks" set "status" = ?, "payout" = ?, "settled_at" = ? where "id" = ? and "status" = 'OPEN' returning "id"`,
      [status, payout, at, id],
    );
    return rows.length > 0;
  }

  async matches(tournamentId: string): Promise<MatchRow[]> {
    return this.sql<MatchRow>(
      `select m."stage_id" as "stageId", m."slot", m."a_entry_id" as "aEntryId", m."a_seed" as "aSeed", m."b_entry_id" as "bEntryId",
          m."b_seed" as "bSeed", m."winner_entry_id" as "winnerEntryId", m."status"
         from "tournament_matches" m where m."tournament_id" = ? order by m."stage_id", m."slot"`,
      [tournamentId],
    );
  }

  async writeMatches(tournamentId: string, stageId: string, matches: readonly MatchRow[]): Promise<void> {
    await this.sql('delete from "tournament_matches" where "stage_id" = ?', [stageId]);
    for (const m of matches) {
      await this.sql(
        `insert into "tournament_matches" ("stage_id", "slot", "tournament_id", "a_entry_id", "a_seed", "b_entry_id", "b_seed",
           "winner_entry_id", "status") values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [stageId, m.slot, tournamentId, m.aEntryId, m.aSeed, m.bEntryId, m.bSeed, m.winnerEntryId, m.status],
      );
    }
  }
}
