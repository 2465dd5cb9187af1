import type { Orm } from '../../platform/db/orm.js';
import { sqlIn, type SqlExec } from '../../platform/db/sql.js';
import type { FixtureResult } from './tournament-format.js';
import { PlayRepository } from './tournament-play.repository.js';
import { BondRepository } from './tournament-bond.repository.js';
import { DepositRepository } from './tournament-deposit.repository.js';
import { CloseRepository } from './tournament-close.repository.js';
import { CancellationRepository } from './tournament-cancellation.repository.js';
import type { EntryRow, FixtureRow, StageRow, TournamentRow, TournamentStatus } from './tournament.types.js';
import { TOURNAMENT } from './tournament.columns.js';

const STAGE = `s."id", s."tournament_id" as "tournamentId", s."stage_index" as "stageIndex", s."stage_name" as "stageName",
  s."kind", s."buyin"::text as "buyin", s."multiplier", s."is_final" as "isFinal", s."start_chips"::float8 as "startChips",
  s."window_start" as "windowStart", s."window_end" as "windowEnd", s."starts_at" as "startsAt", s."lock_at" as "lockAt",
  s."ends_at" as "endsAt", s."completed_at" as "completedAt",
  (select max(f."lock_at") from "tournament_fixtures" f where f."stage_id" = s."id") as "lastLockAt",
  (select count(*)::int from "tournament_stage_entries" se where se."stage_id" = s."id") as "participants"`;

const FIXTURE = `f."id", f."tournament_id" as "tournamentId", f."stage_id" as "stageId", f."provider_fixture_id"::float8 as "providerFixtureId",
  f."title", f."home_team" as "homeTeam", f."away_team" as "awayTeam", f."starts_at" as "startsAt", f."lock_at" as "lockAt",
  f."ends_at" as "endsAt", f."expires_at" as "expiresAt", f."odds_home" as "oddsHome", f."odds_draw" as "oddsDraw",
  f."odds_away" as "oddsAway", f."result", f."home_score" as "homeScore", f."away_score" as "awayScore", f."settled_at" as "settledAt"`;

const ENTRY = `e."id", e."tournament_id" as "tournamentId", e."wallet", e."user_id" as "userId", e."is_creator" as "isCreator",
  (row_number() over (partition by e."tournament_id" order by e."seq"))::int as "seed", e."deposit_tx_hash" as "depositTxHash",
  e."entered_at" as "enteredAt", e."placement", e."stages_played" as "stagesPlayed", e."points"::float8 as "points", e."status"`;

/** Which tournaments a list asks for. */
export interface TournamentFilter {
  readonly statuses?: readonly TournamentStatus[];
  readonly gameType?: string;
  readonly sport?: string;
  readonly ownerWallet?: string;
  /** Discarded tournaments are hidden from every list unless this is set (admin lists). */
  readonly includeDiscarded?: boolean;
}

export type NewTournament = Omit<
  TournamentRow,
  | 'entryCount'
  | 'prizePool'
  | 'firstOpenStage'
  | 'activatedAt'
  | 'completedAt'
  | 'championWallet'
  | 'cancelledAt'
  | 'cancelReason'
  | 'cancelledBy'
  | 'discardedAt'
>;
export type NewStage = Omit<StageRow, 'lastLockAt' | 'participants' | 'completedAt'>;
export type NewFixture = Omit<FixtureRow, 'result' | 'homeScore' | 'awayScore' | 'settledAt'>;

function where(filter: TournamentFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = filter.includeDiscarded ? [] : [`t."discarded_at" is null`];
  const params: unknown[] = [];
  if (filter.statuses?.length) {
    clauses.push(`t."status" = any(?::text[])`);
    params.push(`{${filter.statuses.join(',')}}`);
  }
  const add = (clause: string, value: unknown) => {
    clauses.push(clause);
    params.push(value);
  };
  if (filter.gameType) add(`t."game_type" = ?`, filter.gameType);
  if (filter.sport) add(`lower(t."sport") = lower(?)`, filter.sport);
  if (filter.ownerWallet) add(`lower(t."owner_wallet") = lower(?)`, filter.ownerWallet);
  return { sql: clauses.length ? `where ${clauses.join(' and ')}` : '', params };
}

/** Tournaments, stages, fixtures, entries and deposits. */
export class TournamentRepository {
  constructor(private readonly sql: SqlExec) {}

  async insertTournament(t: NewTournament): Promise<boolean> {
    const rows = await this.sql(
      `insert into "tournaments" ("id", "builder_app_id", "name", "description", "sport", "league", "category", "game_type", "format",
         "type", "status", "stake_asset", "owner_wallet", "owner_user_id", "total_stages", "min_entries", "max_entrants",
         "chips_per_stage", "group_size", "advance_per_group", "fixtures_per_stage", "league_id", "fee_bps", "payout_bps",
         "creator_deposit_tx_hash", "pool_id", "starts_at", "ends_at", "created_at", "updated_at")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?)
       on conflict do nothing returning "id"`,
      [
        t.id,
        t.builderAppId,
        t.name,
        t.description,
        t.sport,
        t.league,
        t.category,
        t.gameType,
        t.format,
        t.type,
        t.status,
        t.stakeAsset,
        t.ownerWallet,
        t.ownerUserId,
        t.totalStages,
        t.minEntries,
        t.maxEntrants,
        t.chipsPerStage,
        t.groupSize,
        t.advancePerGroup,
        t.fixturesPerStage,
        t.leagueId,
        t.feeBps,
        JSON.stringify(t.payoutBps),
        t.creatorDepositTxHash,
        t.poolId,
        t.startsAt,
        t.endsAt,
        // The operation's time, not the database's: rules read it (a racing entry's first period).
        t.createdAt,
        t.createdAt,
      ],
    );
    return rows.length > 0;
  }

  async byId(id: string): Promise<TournamentRow | null> {
    const [row] = await this.sql<TournamentRow>(`select ${TOURNAMENT} from "tournaments" t where t."id" = ?`, [id]);
    return row ?? null;
  }

  /** Takes the tournament's row lock for the rest of the transaction: entries and recomputes queue behind it. */
  async lock(id: string): Promise<boolean> {
    const rows = await this.sql('select "id" from "tournaments" where "id" = ? for update', [id]);
    return rows.length > 0;
  }

  /**
   * The tournament's status under a share lock held for the rest of the transaction: a pick made
   * against it commits before a cancellation or settlement (which take the row for update) changes
   * it, or sees the change. Concurrent picks share the lock.
   */
  async statusShared(id: string): Promise<TournamentRow['status'] | null> {
    const [row] = await this.sql<Pick<TournamentRow, 'status'>>(
      'select "status" from "tournaments" where "id" = ? for share',
      [id],
    );
    return row?.status ?? null;
  }

  async list(filter: TournamentFilter, limit: number, offset: number): Promise<TournamentRow[]> {
    const w = where(filter);
    return this.sql<TournamentRow>(
      `select ${TOURNAMENT} from "tournaments" t ${w.sql} order by t."created_at" desc, t."id" desc limit ? offset ?`,
      [...w.params, limit, offset],
    );
  }

  async count(filter: TournamentFilter): Promise<number> {
    const w = where(filter);
    const [row] = await this.sql<{ n: number }>(`select count(*)::int as "n" from "tournaments" t ${w.sql}`, w.params);
    return row?.n ?? 0;
  }

  /** Tournaments a wallet created or entered, with its role, newest first. */
  async byWallet(wallet: string, limit: number, offset: number) {
    return this.sql<TournamentRow & { role: 'creator' | 'entrant' }>(
      `select ${TOURNAMENT}, case when lower(t."owner_wallet") = lower(?) then 'creator' else 'entrant' end as "role"
         from "tournaments" t
        where lower(t."owner_wallet") = lower(?)
           or exists (select 1 from "tournament_entries" e where e."tournament_id" = t."id" and lower(e."wallet") = lower(?))
        order by t."created_at" desc, t."id" desc limit ? offset ?`,
      [wallet, wallet, wallet, limit, offset],
    );
  }

  async countByWallet(wallet: string): Promise<number> {
    const [row] = await this.sql<{ n: number }>(
      `select count(*)::int as "n" from "tournaments" t
        where lower(t."owner_wallet") = lower(?)
           or exists (select 1 from "tournament_entries" e where e."tournament_id" = t."id" and lower(e."wallet") = lower(?))`,
      [wallet, wallet],
    );
    return row?.n ?? 0;
  }

  /**
   * LIVE tournaments past their first lock, with enough entries, whose activation was not recorded
   * yet (those without enough entries wait for cancellation, not for another recompute).
   */
  async awaitingActivation(now: Date, limit: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `select t."id" from "tournaments" t where t."status" = 'LIVE' and t."activated_at" is null and t."starts_at" <= ?
          and (select count(*) from "tournament_entries" e where e."tournament_id" = t."id") >= t."min_entries"
        order by t."starts_at" limit ?`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  }

  async liveCountOf(wallet: string): Promise<number> {
    const [row] = await this.sql<{ n: number }>(
      `select count(*)::int as "n" from "tournaments" where lower("owner_wallet") = lower(?) and "status" = 'LIVE'`,
      [wallet],
    );
    return row?.n ?? 0;
  }

  async setActivated(id: string, at: Date): Promise<void> {
    await this.sql(
      `update "tournaments" set "activated_at" = ?, "updated_at" = now() where "id" = ? and "activated_at" is null`,
      [at, id],
    );
  }

  async setCompleted(id: string, at: Date, champion: string | null): Promise<void> {
    await this.sql(
      `update "tournaments" set "status" = 'COMPLETED', "completed_at" = ?, "champion_wallet" = ?, "updated_at" = now()
        where "id" = ? and "status" = 'LIVE'`,
      [at, champion, id],
    );
  }

  /** A correction changed who won a completed tournament. */
  async setChampion(id: string, champion: string | null): Promise<void> {
    await this.sql(
      `update "tournaments" set "champion_wallet" = ?, "updated_at" = now()
        where "id" = ? and "status" = 'COMPLETED' and "champion_wallet" is distinct from ?`,
      [champion, id, champion],
    );
  }

  async insertStage(s: NewStage): Promise<void> {
    await this.sql(
      `insert into "tournament_stages" ("id", "tournament_id", "stage_index", "stage_name", "kind", "buyin", "multiplier", "is_final",
         "start_chips", "window_start", "window_end", "starts_at", "lock_at", "ends_at")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        s.id,
        s.tournamentId,
        s.stageIndex,
        s.stageName,
        s.kind,
        s.buyin,
        s.multiplier,
        s.isFinal,
        s.startChips,
        s.windowStart,
        s.windowEnd,
        s.startsAt,
        s.lockAt,
        s.endsAt,
      ],
    );
  }

  async stages(tournamentId: string): Promise<StageRow[]> {
    return this.sql<StageRow>(
      `select ${STAGE} from "tournament_stages" s where s."tournament_id" = ? order by s."stage_index"`,
      [tournamentId],
    );
  }

  async markStageCompleted(stageId: string, at: Date): Promise<void> {
    await this.sql(`update "tournament_stages" set "completed_at" = ? where "id" = ? and "completed_at" is null`, [
      at,
      stageId,
    ]);
  }

  async insertFixture(f: NewFixture): Promise<void> {
    await this.sql(
      `insert into "tournament_fixtures" ("id", "tournament_id", "stage_id", "provider_fixture_id", "title", "home_team", "away_team",
         "starts_at", "lock_at", "ends_at", "expires_at", "odds_home", "odds_draw", "odds_away")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        f.id,
        f.tournamentId,
        f.stageId,
        f.providerFixtureId,
        f.title,
        f.homeTeam,
        f.awayTeam,
        f.startsAt,
        f.lockAt,
        f.endsAt,
        f.expiresAt,
        f.oddsHome,
        f.oddsDraw,
        f.oddsAway,
      ],
    );
  }

  async fixtures(tournamentId: string): Promise<FixtureRow[]> {
    return this.sql<FixtureRow>(
      `select ${FIXTURE} from "tournament_fixtures" f where f."tournament_id" = ? order by f."starts_at", f."provider_fixture_id"`,
      [tournamentId],
    );
  }

  async fixture(id: string): Promise<FixtureRow | null> {
    const [row] = await this.sql<FixtureRow>(`select ${FIXTURE} from "tournament_fixtures" f where f."id" = ?`, [id]);
    return row ?? null;
  }

  /** Fixtures of LIVE tournaments past their expected end without a result, or with a result not yet settled. */
  async fixturesDue(now: Date, limit: number): Promise<FixtureRow[]> {
    return this.sql<FixtureRow>(
      `select ${FIXTURE} from "tournament_fixtures" f join "tournaments" t on t."id" = f."tournament_id"
        where t."status" = 'LIVE' and ((f."result" is null and f."ends_at" <= ?) or (f."result" is not null and f."settled_at" is null))
        order by f."ends_at", f."id" limit ?`,
      [now, limit],
    );
  }

  /** Records a fixture's result once; false when it already had one. */
  async recordResult(id: string, result: FixtureResult, home: number | null, away: number | null): Promise<boolean> {
    const rows = await this.sql(
      `update "tournament_fixtures" set "result" = ?, "home_score" = ?, "away_score" = ? where "id" = ? and "result" is null returning "id"`,
      [result, home, away, id],
    );
    return rows.length > 0;
  }

  async markFixtureSettled(id: string, at: Date): Promise<void> {
    await this.sql(`update "tournament_fixtures" set "settled_at" = ? where "id" = ? and "settled_at" is null`, [
      at,
      id,
    ]);
  }

  async entries(tournamentId: string): Promise<EntryRow[]> {
    return this.sql<EntryRow>(
      `select ${ENTRY} from "tournament_entries" e where e."tournament_id" = ? order by e."seq"`,
      [tournamentId],
    );
  }

  async entryOf(tournamentId: string, wallet: string): Promise<EntryRow | null> {
    const rows = await this.entries(tournamentId);
    return rows.find((e) => e.wallet.toLowerCase() === wallet.toLowerCase()) ?? null;
  }

  async insertEntry(e: {
    id: string;
    tournamentId: string;
    wallet: string;
    userId: string | null;
    isCreator: boolean;
    depositTxHash: string;
    enteredAt: Date;
  }): Promise<boolean> {
    const rows = await this.sql(
      `insert into "tournament_entries" ("id", "tournament_id", "wallet", "user_id", "is_creator", "seq", "deposit_tx_hash", "entered_at")
       values (?, ?, ?, ?, ?, (select coalesce(max("seq"), 0) + 1 from "tournament_entries" where "tournament_id" = ?), ?, ?)
       on conflict do nothing returning "id"`,
      [e.id, e.tournamentId, e.wallet, e.userId, e.isCreator, e.tournamentId, e.depositTxHash, e.enteredAt],
    );
    return rows.length > 0;
  }

  /** Removes an entry with its stage places and picks. */
  async deleteEntry(entryId: string): Promise<void> {
    await this.sql('delete from "tournament_picks" where "entry_id" = ?', [entryId]);
    await this.sql('delete from "tournament_stage_entries" where "entry_id" = ?', [entryId]);
    await this.sql('delete from "tournament_entries" where "id" = ?', [entryId]);
  }

  async setPlacement(entryId: string, p: { placement: number; stagesPlayed: number; points: number; status: string }) {
    await this.sql(
      `update "tournament_entries" set "placement" = ?, "stages_played" = ?, "points" = ?, "status" = ?
        where "id" = ? and ("placement" is distinct from ? or "stages_played" <> ? or "points" <> ? or "status" <> ?)`,
      [p.placement, p.stagesPlayed, p.points, p.status, entryId, p.placement, p.stagesPlayed, p.points, p.status],
    );
  }
}

/** The area's repositories on one connection, or inside one transaction. */
export interface TournamentRepos {
  readonly tournaments: TournamentRepository;
  readonly play: PlayRepository;
  readonly bonds: BondRepository;
  readonly deposits: DepositRepository;
  readonly close: CloseRepository;
  readonly cancellation: CancellationRepository;
}

export function reposOn(sql: SqlExec): TournamentRepos {
  return {
    tournaments: new TournamentRepository(sql),
    play: new PlayRepository(sql),
    bonds: new BondRepository(sql),
    deposits: new DepositRepository(sql),
    close: new CloseRepository(sql),
    cancellation: new CancellationRepository(sql),
  };
}

/** Entry point to the area's storage: plain reads, or a transaction spanning every repository. */
export class TournamentDb {
  readonly read: TournamentRepos;

  constructor(private readonly orm: Orm) {
    this.read = reposOn((sql, params = []) =>
      orm.em
        .fork()
        .getConnection()
        .execute(sql, [...params]),
    );
  }

  transaction<T>(fn: (repos: TournamentRepos) => Promise<T>): Promise<T> {
    return this.orm.em.fork().transactional((em) => fn(reposOn(sqlIn(em))));
  }
}
