import type { Orm } from '../../platform/db/orm.js';

interface Amounts {
  credits: string;
  usdc: string;
}

function byAsset(rows: readonly { asset: string; amount: string }[]): Amounts {
  const out: Amounts = { credits: '0', usdc: '0' };
  for (const r of rows) if (r.asset === 'credits' || r.asset === 'usdc') out[r.asset] = r.amount;
  return out;
}

const USER = (wallet: string) =>
  `left join lateral (select u."username", u."profile_image_url" from "users" u where u."managed_address" = ${wallet} limit 1) u on true`;

/**
 * Leaderboards and statistics as SQL aggregates over entries, picks and deposits (a read model
 * named as a repository). Cancelled tournaments count in no leaderboard.
 */
export class TournamentStatsQueries {
  constructor(private readonly orm: Orm) {}

  private sql<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.orm.em.fork().getConnection().execute<T[]>(sql, params);
  }

  async leaderboard(tournamentId: string, limit: number, offset: number) {
    const rows = await this.sql<{
      wallet: string;
      placement: number | null;
      points: number;
      stagesPlayed: number;
      status: 'ALIVE' | 'ELIMINATED' | 'CHAMPION';
      username: string | null;
      avatarUrl: string | null;
    }>(
      `select e."wallet", e."placement", e."points"::float8 as "points", e."stages_played" as "stagesPlayed", e."status",
          u."username", u."profile_image_url" as "avatarUrl"
         from "tournament_entries" e ${USER('e."wallet"')}
        where e."tournament_id" = ? order by e."placement" nulls last, e."seq" limit ? offset ?`,
      [tournamentId, limit, offset],
    );
    const [count] = await this.sql<{ n: number }>(
      `select count(*)::int as "n" from "tournament_entries" where "tournament_id" = ?`,
      [tournamentId],
    );
    return { rows, total: count?.n ?? 0 };
  }

  async globalLeaderboard(limit: number, offset: number) {
    const rows = await this.sql<{
      wallet: string;
      tournamentsPlayed: number;
      wins: number;
      points: number;
      stagesPlayed: number;
      username: string | null;
      avatarUrl: string | null;
    }>(
      `select g.*, u."username", u."profile_image_url" as "avatarUrl" from (
          select e."wallet", count(*)::int as "tournamentsPlayed", (count(*) filter (where e."status" = 'CHAMPION'))::int as "wins",
              coalesce(sum(e."points"), 0)::float8 as "points", coalesce(sum(e."stages_played"), 0)::int as "stagesPlayed"
            from "tournament_entries" e join "tournaments" t on t."id" = e."tournament_id"
           where t."status" <> 'CANCELED' group by e."wallet") g ${USER('g."wallet"')}
        order by g."wins" desc, g."points" desc, g."wallet" limit ? offset ?`,
      [limit, offset],
    );
    const [count] = await this.sql<{ n: number }>(
      `select count(distinct e."wallet")::int as "n" from "tournament_entries" e
         join "tournaments" t on t."id" = e."tournament_id" where t."status" <> 'CANCELED'`,
    );
    return { rows, total: count?.n ?? 0 };
  }

  async platformAggregate() {
    const [t] = await this.sql<{ total: number; live: number; completed: number; canceled: number; creators: number }>(
      `select count(*)::int as "total", (count(*) filter (where "status" = 'LIVE'))::int as "live",
          (count(*) filter (where "status" = 'COMPLETED'))::int as "completed",
          (count(*) filter (where "status" = 'CANCELED'))::int as "canceled",
          count(distinct "owner_wallet")::int as "creators"
         from "tournaments"`,
    );
    const [e] = await this.sql<{ entries: number; players: number }>(
      `select count(*)::int as "entries", count(distinct "wallet")::int as "players" from "tournament_entries"`,
    );
    const [p] = await this.sql<{ picks: number }>(`select count(*)::int as "picks" from "tournament_picks"`);
    const pools = await this.sql<{ asset: string; amount: string }>(
      `select t."stake_asset" as "asset", sum(d."amount")::text as "amount" from "tournament_deposits" d
         join "tournaments" t on t."id" = d."tournament_id" where d."refunded_at" is null group by t."stake_asset"`,
    );
    return {
      tournaments: {
        total: t?.total ?? 0,
        live: t?.live ?? 0,
        completed: t?.completed ?? 0,
        canceled: t?.canceled ?? 0,
      },
      entries: e?.entries ?? 0,
      players: e?.players ?? 0,
      creators: t?.creators ?? 0,
      picks: p?.picks ?? 0,
      prizePools: byAsset(pools),
    };
  }

  async creatorStats(wallet: string) {
    const [t] = await this.sql<{ created: number; live: number; completed: number; canceled: number }>(
      `select count(*)::int as "created", (count(*) filter (where "status" = 'LIVE'))::int as "live",
          (count(*) filter (where "status" = 'COMPLETED'))::int as "completed",
          (count(*) filter (where "status" = 'CANCELED'))::int as "canceled"
         from "tournaments" where "owner_wallet" = ?`,
      [wallet],
    );
    const [e] = await this.sql<{ entries: number; players: number }>(
      `select count(*)::int as "entries", count(distinct e."wallet")::int as "players"
         from "tournament_entries" e join "tournaments" t on t."id" = e."tournament_id" where t."owner_wallet" = ?`,
      [wallet],
    );
    const pools = await this.sql<{ asset: string; amount: string }>(
      `select t."stake_asset" as "asset", sum(d."amount")::text as "amount" from "tournament_deposits" d
         join "tournaments" t on t."id" = d."tournament_id"
        where t."owner_wallet" = ? and d."refunded_at" is null group by t."stake_asset"`,
      [wallet],
    );
    return {
      tournamentsCreated: t?.created ?? 0,
      live: t?.live ?? 0,
      completed: t?.completed ?? 0,
      canceled: t?.canceled ?? 0,
      totalEntries: e?.entries ?? 0,
      uniquePlayers: e?.players ?? 0,
      prizePools: byAsset(pools),
    };
  }

  async userStats(wallet: string) {
    const [e] = await this.sql<{ entered: number; wins: number; stages: number; points: number; best: number | null }>(
      `select count(*)::int as "entered", (count(*) filter (where "status" = 'CHAMPION'))::int as "wins",
          coalesce(sum("stages_played"), 0)::int as "stages", coalesce(sum("points"), 0)::float8 as "points",
          min("placement") as "best"
         from "tournament_entries" where "wallet" = ?`,
      [wallet],
    );
    const [p] = await this.sql<{
      total: number;
      won: number;
      lost: number;
      void: number;
      open: number;
      staked: number;
      returned: number;
    }>(
      `select count(*)::int as "total", (count(*) filter (where "status" = 'WON'))::int as "won",
          (count(*) filter (where "status" = 'LOST'))::int as "lost", (count(*) filter (where "status" = 'VOID'))::int as "void",
          (count(*) filter (where "status" = 'OPEN'))::int as "open", coalesce(sum("stake"), 0)::float8 as "staked",
          coalesce(sum("payout"), 0)::float8 as "returned"
         from "tournament_picks" where "wallet" = ?`,
      [wallet],
    );
    const deposits = await this.sql<{ asset: string; amount: string }>(
      `select t."stake_asset" as "asset", sum(d."amount")::text as "amount" from "tournament_deposits" d
         join "tournaments" t on t."id" = d."tournament_id"
        where d."wallet" = ? and d."refunded_at" is null group by t."stake_asset"`,
      [wallet],
    );
    return {
      tournamentsEntered: e?.entered ?? 0,
      wins: e?.wins ?? 0,
      stagesPlayed: e?.stages ?? 0,
      points: e?.points ?? 0,
      bestRank: e?.best ?? null,
      picks: { total: p?.total ?? 0, won: p?.won ?? 0, lost: p?.lost ?? 0, void: p?.void ?? 0, open: p?.open ?? 0 },
      chipsStaked: p?.staked ?? 0,
      chipsReturned: p?.returned ?? 0,
      deposited: byAsset(deposits),
    };
  }
}
