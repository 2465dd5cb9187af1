import type { Orm } from '../../platform/db/orm.js';
import { sqlIn, type SqlExec } from '../../platform/db/sql.js';
import { reposOn, type TournamentRepos } from '../tournaments/tournament.repository.js';

export interface RacingTournamentRow {
  tournamentId: string;
  seasonId: number;
  seasonName: string;
  completedAt: Date | null;
}

export interface PeriodRow {
  tournamentId: string;
  wallet: string;
  periodStart: Date;
  reentries: number;
  lastDepositTxHash: string;
}

export interface PredictionRow {
  id: string;
  tournamentId: string;
  eventId: number;
  roundId: number;
  wallet: string;
  driverIds: number[];
  lockedEarlyAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SideBetRow {
  id: string;
  tournamentId: string;
  roundId: number;
  wallet: string;
  prop: string;
  value: string;
  points: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SettledEventRow {
  tournamentId: string;
  eventId: number;
  roundId: number;
  seq: number;
  state: 'finished' | 'cancelled';
  classification: {
    order: number[];
    fastestLapDriverId: number | null;
    dnfDriverIds: number[];
    safetyCar: boolean;
  } | null;
  settledAt: Date;
}

export interface EventScoreRow {
  eventId: number;
  roundId: number;
  wallet: string;
  points: number;
  exact: number;
  inTopN: number;
  podium: number;
  bonus: number;
}

export interface EloRow {
  eventId: number;
  seq: number;
  wallet: string;
  ratingBefore: number;
  ratingAfter: number;
}

const PREDICTION = `p."id", p."tournament_id" as "tournamentId", p."event_id" as "eventId", p."round_id" as "roundId", p."wallet",
  p."driver_ids" as "driverIds", p."locked_early_at" as "lockedEarlyAt", p."created_at" as "createdAt", p."updated_at" as "updatedAt"`;
const SIDE_BET = `b."id", b."tournament_id" as "tournamentId", b."round_id" as "roundId", b."wallet", b."prop", b."value", b."points",
  b."created_at" as "createdAt", b."updated_at" as "updatedAt"`;
const SETTLED = `s."tournament_id" as "tournamentId", s."event_id" as "eventId", s."round_id" as "roundId", s."seq", s."state",
  s."classification", s."settled_at" as "settledAt"`;
const SCORE = `x."event_id" as "eventId", x."round_id" as "roundId", x."wallet", x."points", x."exact", x."in_top_n" as "inTopN",
  x."podium", x."bonus"`;

/** The racing area's tables: seasons of tournaments, scoring periods, predictions, side bets, settled events, scores, Elo. */
export class RacingRepository {
  constructor(private readonly sql: SqlExec) {}

  async insertRacing(r: { tournamentId: string; seasonId: number; seasonName: string }): Promise<void> {
    await this.sql(
      `insert into "racing_tournaments" ("tournament_id", "season_id", "season_name") values (?, ?, ?) on conflict do nothing`,
      [r.tournamentId, r.seasonId, r.seasonName],
    );
  }

  async racing(tournamentId: string): Promise<RacingTournamentRow | null> {
    const [row] = await this.sql<RacingTournamentRow>(
      `select "tournament_id" as "tournamentId", "season_id" as "seasonId", "season_name" as "seasonName", "completed_at" as "completedAt"
         from "racing_tournaments" where "tournament_id" = ?`,
      [tournamentId],
    );
    return row ?? null;
  }

  /** Racing tournaments not yet paid out: live, or completed with the payout root still to publish (oldest first). */
  async open(limit: number): Promise<RacingTournamentRow[]> {
    return this.sql<RacingTournamentRow>(
      `select r."tournament_id" as "tournamentId", r."season_id" as "seasonId", r."season_name" as "seasonName", r."completed_at" as "completedAt"
         from "racing_tournaments" r join "tournaments" t on t."id" = r."tournament_id"
        where r."paid_at" is null and t."status" in ('LIVE', 'COMPLETED') order by t."created_at" limit ?`,
      [limit],
    );
  }

  /** Racing tournament ids, newest first, for the external dashboards. */
  async ids(limit: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `select r."tournament_id" as "id" from "racing_tournaments" r join "tournaments" t on t."id" = r."tournament_id"
        where t."discarded_at" is null order by t."created_at" desc, t."id" desc limit ?`,
      [limit],
    );
    return rows.map((r) => r.id);
  }

  async markCompleted(tournamentId: string, at: Date): Promise<boolean> {
    const rows = await this.sql(
      `update "racing_tournaments" set "completed_at" = ? where "tournament_id" = ? and "completed_at" is null returning 1`,
      [at, tournamentId],
    );
    return rows.length > 0;
  }

  async markPaid(tournamentId: string, at: Date): Promise<void> {
    await this.sql(`update "racing_tournaments" set "paid_at" = ? where "tournament_id" = ? and "paid_at" is null`, [
      at,
      tournamentId,
    ]);
  }

  async period(tournamentId: string, wallet: string): Promise<PeriodRow | null> {
    const [row] = await this.sql<PeriodRow>(
      `select "tournament_id" as "tournamentId", "wallet", "period_start" as "periodStart", "reentries",
          "last_deposit_tx_hash" as "lastDepositTxHash"
         from "racing_periods" where "tournament_id" = ? and lower("wallet") = lower(?)`,
      [tournamentId, wallet],
    );
    return row ?? null;
  }

  async periods(tournamentId: string): Promise<PeriodRow[]> {
    return this.sql<PeriodRow>(
      `select "tournament_id" as "tournamentId", "wallet", "period_start" as "periodStart", "reentries",
          "last_deposit_tx_hash" as "lastDepositTxHash"
         from "racing_periods" where "tournament_id" = ?`,
      [tournamentId],
    );
  }

  async upsertPeriod(p: PeriodRow): Promise<void> {
    await this.sql(
      `insert into "racing_periods" ("tournament_id", "wallet", "period_start", "reentries", "last_deposit_tx_hash")
       values (?, ?, ?, ?, ?)
       on conflict ("tournament_id", "wallet") do update set "period_start" = excluded."period_start",
         "reentries" = excluded."reentries", "last_deposit_tx_hash" = excluded."last_deposit_tx_hash"`,
      [p.tournamentId, p.wallet, p.periodStart, p.reentries, p.lastDepositTxHash],
    );
  }

  async insertPrediction(p: Omit<PredictionRow, 'lockedEarlyAt'>): Promise<boolean> {
    const rows = await this.sql(
      `insert into "racing_predictions" ("id", "tournament_id", "event_id", "round_id", "wallet", "driver_ids", "created_at", "updated_at")
       values (?, ?, ?, ?, ?, ?::jsonb, ?, ?) on conflict do nothing returning 1`,
      [p.id, p.tournamentId, p.eventId, p.roundId, p.wallet, JSON.stringify(p.driverIds), p.createdAt, p.updatedAt],
    );
    return rows.length > 0;
  }

  async prediction(tournamentId: string, id: string): Promise<PredictionRow | null> {
    const [row] = await this.sql<PredictionRow>(
      `select ${PREDICTION} from "racing_predictions" p where p."tournament_id" = ? and p."id" = ?`,
      [tournamentId, id],
    );
    return row ?? null;
  }

  async predictionOf(tournamentId: string, eventId: number, wallet: string): Promise<PredictionRow | null> {
    const [row] = await this.sql<PredictionRow>(
      `select ${PREDICTION} from "racing_predictions" p
        where p."tournament_id" = ? and p."event_id" = ? and lower(p."wallet") = lower(?)`,
      [tournamentId, eventId, wallet],
    );
    return row ?? null;
  }

  async predictionsOfWallet(tournamentId: string, wallet: string): Promise<PredictionRow[]> {
    return this.sql<PredictionRow>(
      `select ${PREDICTION} from "racing_predictions" p where p."tournament_id" = ? and lower(p."wallet") = lower(?)
        order by p."event_id"`,
      [tournamentId, wallet],
    );
  }

  async predictionsOfEvent(tournamentId: string, eventId: number): Promise<PredictionRow[]> {
    return this.sql<PredictionRow>(
      `select ${PREDICTION} from "racing_predictions" p where p."tournament_id" = ? and p."event_id" = ? order by p."created_at", p."id"`,
      [tournamentId, eventId],
    );
  }

  async updatePrediction(id: string, driverIds: readonly number[], at: Date): Promise<void> {
    await this.sql(`update "racing_predictions" set "driver_ids" = ?::jsonb, "updated_at" = ? where "id" = ?`, [
      JSON.stringify(driverIds),
      at,
      id,
    ]);
  }

  async lockPrediction(id: string, at: Date): Promise<void> {
    await this.sql(
      `update "racing_predictions" set "locked_early_at" = ? where "id" = ? and "locked_early_at" is null`,
      [at, id],
    );
  }

  async deletePrediction(id: string): Promise<void> {
    await this.sql(`delete from "racing_predictions" where "id" = ?`, [id]);
  }

  async upsertSideBet(b: Omit<SideBetRow, 'points'>): Promise<void> {
    await this.sql(
      `insert into "racing_side_bets" ("id", "tournament_id", "round_id", "wallet", "prop", "value", "created_at", "updated_at")
       values (?, ?, ?, ?, ?, ?, ?, ?)
       on conflict ("tournament_id", "round_id", lower("wallet"), "prop") do update set "value" = excluded."value", "updated_at" = excluded."updated_at"`,
      [b.id, b.tournamentId, b.roundId, b.wallet, b.prop, b.value, b.createdAt, b.updatedAt],
    );
  }

  async sideBetsOfRound(tournamentId: string, roundId: number): Promise<SideBetRow[]> {
    return this.sql<SideBetRow>(
      `select ${SIDE_BET} from "racing_side_bets" b where b."tournament_id" = ? and b."round_id" = ? order by b."wallet", b."prop"`,
      [tournamentId, roundId],
    );
  }

  async sideBetsOfWallet(tournamentId: string, wallet: string): Promise<SideBetRow[]> {
    return this.sql<SideBetRow>(
      `select ${SIDE_BET} from "racing_side_bets" b where b."tournament_id" = ? and lower(b."wallet") = lower(?)
        order by b."round_id", b."prop"`,
      [tournamentId, wallet],
    );
  }

  async setSideBetPoints(id: string, points: number): Promise<void> {
    await this.sql(`update "racing_side_bets" set "points" = ? where "id" = ?`, [points, id]);
  }

  /** Records an event as settled; false when it already was (the one effect per event). */
  async insertSettled(s: Omit<SettledEventRow, 'seq'>): Promise<number | null> {
    const rows = await this.sql<{ seq: number }>(
      `insert into "racing_settled_events" ("tournament_id", "event_id", "round_id", "seq", "state", "classification", "settled_at")
       values (?, ?, ?, (select coalesce(max("seq"), 0) + 1 from "racing_settled_events" where "tournament_id" = ?), ?, ?::jsonb, ?)
       on conflict do nothing returning "seq"`,
      [
        s.tournamentId,
        s.eventId,
        s.roundId,
        s.tournamentId,
        s.state,
        s.classification ? JSON.stringify(s.classification) : null,
        s.settledAt,
      ],
    );
    return rows[0]?.seq ?? null;
  }

  async settled(tournamentId: string): Promise<SettledEventRow[]> {
    return this.sql<SettledEventRow>(
      `select ${SETTLED} from "racing_settled_events" s where s."tournament_id" = ? order by s."seq"`,
      [tournamentId],
    );
  }

  async insertScore(tournamentId: string, s: EventScoreRow): Promise<void> {
    await this.sql(
      `insert into "racing_event_scores" ("tournament_id", "event_id", "round_id", "wallet", "points", "exact", "in_top_n", "podium", "bonus")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
      [tournamentId, s.eventId, s.roundId, s.wallet, s.points, s.exact, s.inTopN, s.podium, s.bonus],
    );
  }

  async scores(tournamentId: string): Promise<EventScoreRow[]> {
    return this.sql<EventScoreRow>(
      `select ${SCORE} from "racing_event_scores" x where x."tournament_id" = ? order by x."event_id", x."wallet"`,
      [tournamentId],
    );
  }

  async insertElo(tournamentId: string, e: EloRow): Promise<void> {
    await this.sql(
      `insert into "racing_elo" ("tournament_id", "event_id", "seq", "wallet", "rating_before", "rating_after")
       values (?, ?, ?, ?, ?, ?) on conflict do nothing`,
      [tournamentId, e.eventId, e.seq, e.wallet, e.ratingBefore, e.ratingAfter],
    );
  }

  async eloHistory(tournamentId: string): Promise<EloRow[]> {
    return this.sql<EloRow>(
      `select "event_id" as "eventId", "seq", "wallet", "rating_before" as "ratingBefore", "rating_after" as "ratingAfter"
         from "racing_elo" where "tournament_id" = ? order by "seq", "wallet"`,
      [tournamentId],
    );
  }

  /** The crowd's drivers × positions for an event, counted in SQL. */
  async heatmap(tournamentId: string, eventId: number) {
    return this.sql<{ position: number; driverId: number; count: number }>(
      `select d."pos"::int as "position", d."driver"::int as "driverId", count(*)::int as "count"
         from "racing_predictions" p, jsonb_array_elements_text(p."driver_ids") with ordinality as d("driver", "pos")
        where p."tournament_id" = ? and p."event_id" = ?
        group by d."pos", d."driver" order by d."pos", count(*) desc, d."driver"::int`,
      [tournamentId, eventId],
    );
  }

  /** The crowd's side-bet picks of a round, counted in SQL. */
  async sideBetHeatmap(tournamentId: string, roundId: number) {
    return this.sql<{ prop: string; value: string; count: number }>(
      `select b."prop", b."value", count(*)::int as "count" from "racing_side_bets" b
        where b."tournament_id" = ? and b."round_id" = ? group by b."prop", b."value" order by b."prop", count(*) desc, b."value"`,
      [tournamentId, roundId],
    );
  }

  /** Usernames of wallets (managed wallets of users), for leaderboards. */
  async usernames(wallets: readonly string[]): Promise<Map<string, string>> {
    if (wallets.length === 0) return new Map();
    const rows = await this.sql<{ wallet: string; username: string }>(
      `select lower(u."managed_address") as "wallet", u."username" from "users" u
        where lower(u."managed_address") = any(?::text[]) and u."username" is not null`,
      [`{${wallets.map((w) => w.toLowerCase()).join(',')}}`],
    );
    return new Map(rows.map((r) => [r.wallet, r.username]));
  }
}

/** The racing tables with the tournaments area's, on one connection or inside one transaction. */
export interface RacingRepos {
  readonly racing: RacingRepository;
  readonly t: TournamentRepos;
}

export class RacingDb {
  readonly read: RacingRepos;

  constructor(private readonly orm: Orm) {
    const sql: SqlExec = (q, params = []) =>
      orm.em
        .fork()
        .getConnection()
        .execute(q, [...params]);
    this.read = { racing: new RacingRepository(sql), t: reposOn(sql) };
  }

  transaction<T>(fn: (repos: RacingRepos) => Promise<T>): Promise<T> {
    return this.orm.em.fork().transactional((em) => {
      const sql = sqlIn(em);
      return fn({ racing: new RacingRepository(sql), t: reposOn(sql) });
    });
  }
}
