import type { Orm } from '../../platform/db/orm.js';
import {
  iso,
  OPEN_STATUSES,
  perDuelPnl,
  priceTable,
  scopeWhere,
  type PriceTable,
  type Scope,
} from './analytics.sql.js';
import type { SortOrder } from './analytics.types.js';

export interface PageRequest {
  readonly page: number;
  readonly limit: number;
  readonly sortOrder: SortOrder;
}

/** A page of ranked rows and the number of rows in the whole ordering. */
export interface RankedPage<T> {
  readonly rows: T[];
  readonly total: number;
}

export interface TraderVolumeRow {
  address: string;
  volume: string;
  trades: number;
  duelsTraded: number;
  /** ISO-8601. */
  lastTradeAt: string;
}

export interface PnlRow {
  address: string;
  realizedPnl: string;
  unrealizedPnl: string;
  totalPnl: string;
  volume: string;
}

export interface CreatorRow {
  address: string;
  duelsCreated: number;
  settledDuels: number;
  volume: string;
  trades: number;
  traders: number;
  feesGenerated: string;
}

export interface CreatorPnlRow {
  address: string;
  duelsCreated: number;
  feesGenerated: string;
  realizedPnl: string;
  unrealizedPnl: string;
  totalPnl: string;
}

/** Totals over the markets of a scope; the 24-hour figures are relative to `now`. */
export interface Totals {
  totalVolume: string;
  totalFees: string;
  totalTrades: number;
  totalTraders: number;
  totalCreators: number;
  totalDuels: number;
  openDuels: number;
  activeDuels: number;
  settledDuels: number;
  cancelledDuels: number;
  volume24h: string;
  previousVolume24h: string;
  trades24h: number;
  activeUsers24h: number;
}

export interface BreakdownRow {
  key: string;
  duels: number;
  volume: string;
  fees: string;
  trades: number;
  traders: number;
}

export interface BucketRow {
  /** Bucket start, seconds since the epoch. */
  bucket: number;
  volume: string;
  trades: number;
  traders: number;
}

export type TraderSort = 'volume' | 'trades';
export type PnlSort = 'totalPnl' | 'realizedPnl' | 'unrealizedPnl';
export type CreatorSort = 'volume' | 'duelsCreated' | 'traders';

// Sort keys reach the SQL text only through these tables.
const TRADER_SORT: Record<TraderSort, string> = { volume: '"volume"', trades: '"trades"' };
const PNL_SORT: Record<PnlSort, string> = {
  totalPnl: '"total"',
  realizedPnl: '"realized"',
  unrealizedPnl: '"unrealized"',
};
const CREATOR_SORT: Record<CreatorSort, string> = {
  volume: '"volume"',
  duelsCreated: '"duels_created"',
  traders: '"traders"',
};
const BREAKDOWN_KEY = { category: 'd."category"', collateral: 'd."collateral_stack"', status: 'd."status"' } as const;

function direction(order: SortOrder): string {
  return order === 'asc' ? 'asc' : 'desc';
}

function offset(req: PageRequest): number {
  return (req.page - 1) * req.limit;
}

/**
 * SQL aggregates over the market read model (duels, trades, positions) for the public boards and
 * the protocol statistics. Every public figure excludes private and unconfirmed markets.
 */
export class AnalyticsRepository {
  constructor(private readonly orm: Orm) {}

  /** Marginal prices of the open markets of a scope (optionally only those `trader` traded). */
  async openPrices(scope: Scope, trader?: string): Promise<PriceTable> {
    const where = scopeWhere(scope);
    const byTrader = trader ? 'and d."duel_id" in (select "duel_id" from "trades" where "trader" = ?)' : '';
    const rows = await this.execute<{ duelId: string; poolBalances: string[] }>(
      `select d."duel_id" as "duelId", d."pool_balances" as "poolBalances" from "duels" d
        where ${where.sql} and d."status" in ${OPEN_STATUSES} ${byTrader}`,
      [...where.params, ...(trader ? [trader] : [])],
    );
    return priceTable(rows);
  }

  async traders(scope: Scope, req: PageRequest & { sortBy: TraderSort }): Promise<RankedPage<TraderVolumeRow>> {
    const where = scopeWhere(scope);
    const rows = await this.execute<TraderVolumeRow & { n: number }>(
      `select t."trader" as "address", sum(t."collateral")::text as "volume", count(*)::int as "trades",
          count(distinct t."duel_id")::int as "duelsTraded", ${iso('max(t."created_at")')} as "lastTradeAt",
          count(*) over ()::int as "n"
        from "trades" t join "duels" d on d."duel_id" = t."duel_id"
        where ${where.sql}
        group by t."trader"
        order by ${TRADER_SORT[req.sortBy]} ${direction(req.sortOrder)}, "address" asc
        limit ? offset ?`,
      [...where.params, req.limit, offset(req)],
    );
    return this.ranked(rows, () => this.countTraders(scope));
  }

  async tradersPnl(scope: Scope, px: PriceTable, req: PageRequest & { sortBy: PnlSort }): Promise<RankedPage<PnlRow>> {
    const pnl = perDuelPnl(scope, px);
    const rows = await this.execute<PnlRow & { n: number }>(
      `with ${pnl.sql},
        ranked as (
          select "address", sum("realized") as "realized", sum("unrealized") as "unrealized",
            sum("realized") + sum("unrealized") as "total", sum("volume") as "volume"
          from per_duel group by "address"
        )
        select "address", "realized"::text as "realizedPnl", "unrealized"::text as "unrealizedPnl",
          "total"::text as "totalPnl", "volume"::text as "volume", count(*) over ()::int as "n"
        from ranked
        order by ${PNL_SORT[req.sortBy]} ${direction(req.sortOrder)}, "address" asc
        limit ? offset ?`,
      [...pnl.params, req.limit, offset(req)],
    );
    return this.ranked(rows, () => this.countTraders(scope));
  }

  async creators(scope: Scope, req: PageRequest & { sortBy: CreatorSort }): Promise<RankedPage<CreatorRow>> {
    const where = scopeWhere(scope);
    const rows = await this.execute<CreatorRow & { n: number }>(
      `with created as (
          select d."creator_address" as "address", count(*) as "duels_created",
            count(*) filter (where d."status" = 'settled') as "settled_duels"
          from "duels" d where ${where.sql} group by d."creator_address"
        ),
        traded as (
          select d."creator_address" as "address", sum(t."collateral") as "volume", count(*) as "trades",
            count(distinct t."trader") as "traders", sum(t."fee") as "fees"
          from "trades" t join "duels" d on d."duel_id" = t."duel_id"
          where ${where.sql} group by d."creator_address"
        ),
        joined as (
          select c."address", c."duels_created", c."settled_duels", coalesce(x."volume", 0) as "volume",
            coalesce(x."trades", 0) as "trades", coalesce(x."traders", 0) as "traders", coalesce(x."fees", 0) as "fees"
          from created c left join traded x on x."address" = c."address"
        )
        select "address", "duels_created"::int as "duelsCreated", "settled_duels"::int as "settledDuels",
          "volume"::text as "volume", "trades"::int as "trades", "traders"::int as "traders",
          "fees"::text as "feesGenerated", count(*) over ()::int as "n"
        from joined
        order by ${CREATOR_SORT[req.sortBy]} ${direction(req.sortOrder)}, "address" asc
        limit ? offset ?`,
      [...where.params, ...where.params, req.limit, offset(req)],
    );
    return this.ranked(rows, () => this.countCreators(scope));
  }

  async creatorsPnl(
    scope: Scope,
    px: PriceTable,
    req: PageRequest & { sortBy: PnlSort },
  ): Promise<RankedPage<CreatorPnlRow>> {
    const where = scopeWhere(scope);
    const pnl = perDuelPnl(scope, px);
    const rows = await this.execute<CreatorPnlRow & { n: number }>(
      `with ${pnl.sql},
        created as (
          select d."creator_address" as "address", count(*) as "duels_created"
          from "duels" d where ${where.sql} group by d."creator_address"
        ),
        fees as (
          select d."creator_address" as "address", sum(t."fee") as "fees"
          from "trades" t join "duels" d on d."duel_id" = t."duel_id"
          where ${where.sql} group by d."creator_address"
        ),
        pnl as (
          select "address", sum("realized") as "realized", sum("unrealized") as "unrealized"
          from per_duel group by "address"
        ),
        ranked as (
          select c."address", c."duels_created", coalesce(f."fees", 0) as "fees",
            coalesce(p."realized", 0) as "realized", coalesce(p."unrealized", 0) as "unrealized",
            coalesce(p."realized", 0) + coalesce(p."unrealized", 0) as "total"
          from created c left join fees f on f."address" = c."address" left join pnl p on p."address" = c."address"
        )
        select "address", "duels_created"::int as "duelsCreated", "fees"::text as "feesGenerated",
          "realized"::text as "realizedPnl", "unrealized"::text as "unrealizedPnl", "total"::text as "totalPnl",
          count(*) over ()::int as "n"
        from ranked
        order by ${PNL_SORT[req.sortBy]} ${direction(req.sortOrder)}, "address" asc
        limit ? offset ?`,
      [...pnl.params, ...where.params, ...where.params, req.limit, offset(req)],
    );
    return this.ranked(rows, () => this.countCreators(scope));
  }

  async countCreators(scope: Scope): Promise<number> {
    const where = scopeWhere(scope);
    const [row] = await this.execute<{ n: number }>(
      `select count(distinct d."creator_address")::int as "n" from "duels" d where ${where.sql}`,
      where.params,
    );
    return row?.n ?? 0;
  }

  async totals(scope: Scope, now: Date): Promise<Totals> {
    const where = scopeWhere(scope);
    const [row] = await this.execute<Totals>(
      `with scope as not materialized (
          select d."duel_id", d."status", d."end_time", d."creator_address" from "duels" d where ${where.sql}
        ),
        t as (
          select t."collateral", t."fee", t."trader", t."created_at"
          from "trades" t join scope s on s."duel_id" = t."duel_id"
        ),
        w as (select ?::timestamptz as "now")
        select
          (select coalesce(sum("collateral"), 0)::text from t) as "totalVolume",
          (select coalesce(sum("fee"), 0)::text from t) as "totalFees",
          (select count(*)::int from t) as "totalTrades",
          (select count(distinct "trader")::int from t) as "totalTraders",
          (select count(distinct "creator_address")::int from scope) as "totalCreators",
          (select count(*)::int from scope) as "totalDuels",
          (select count(*)::int from scope where "status" in ${OPEN_STATUSES}) as "openDuels",
          (select count(*)::int from scope, w where "status" = 'open' and "end_time" > w."now") as "activeDuels",
          (select count(*)::int from scope where "status" = 'settled') as "settledDuels",
          (select count(*)::int from scope where "status" = 'cancelled') as "cancelledDuels",
          (select coalesce(sum("collateral"), 0)::text from t, w
            where "created_at" > w."now" - interval '24 hours' and "created_at" <= w."now") as "volume24h",
          (select coalesce(sum("collateral"), 0)::text from t, w
            where "created_at" > w."now" - interval '48 hours' and "created_at" <= w."now" - interval '24 hours')
            as "previousVolume24h",
          (select count(*)::int from t, w
            where "created_at" > w."now" - interval '24 hours' and "created_at" <= w."now") as "trades24h",
          (select count(distinct "trader")::int from t, w
            where "created_at" > w."now" - interval '24 hours' and "created_at" <= w."now") as "activeUsers24h"`,
      [...where.params, now],
    );
    if (!row) throw new Error('totals query returned no row');
    return row;
  }

  /** Duels, volume, fees, trades and traders grouped by a whitelisted duel column. */
  async breakdown(scope: Scope, by: keyof typeof BREAKDOWN_KEY): Promise<BreakdownRow[]> {
    const where = scopeWhere(scope);
    const key = BREAKDOWN_KEY[by];
    return this.execute<BreakdownRow>(
      `select ${key} as "key", count(distinct d."duel_id")::int as "duels",
          coalesce(sum(t."collateral"), 0)::text as "volume", coalesce(sum(t."fee"), 0)::text as "fees",
          count(t."id")::int as "trades", count(distinct t."trader")::int as "traders"
        from "duels" d left join "trades" t on t."duel_id" = d."duel_id"
        where ${where.sql}
        group by ${key}
        order by coalesce(sum(t."collateral"), 0) desc, ${key} asc`,
      where.params,
    );
  }

  /** Volume, trades and active traders per bucket of `seconds`, for trades in [from, to). */
  async buckets(scope: Scope, from: Date, to: Date, seconds: number): Promise<BucketRow[]> {
    const where = scopeWhere(scope);
    const rows = await this.execute<{ bucket: string; volume: string; trades: number; traders: number }>(
      `select (floor(extract(epoch from t."created_at") / ?) * ?)::bigint::text as "bucket",
          sum(t."collateral")::text as "volume", count(*)::int as "trades", count(distinct t."trader")::int as "traders"
        from "trades" t join "duels" d on d."duel_id" = t."duel_id"
        where t."created_at" >= ? and t."created_at" < ? and ${where.sql}
        group by 1`,
      [seconds, seconds, from, to, ...where.params],
    );
    return rows.map((r) => ({ ...r, bucket: Number(r.bucket) }));
  }

  /**
   * Traders by the bucket of their first trade: `bucket = -1` counts those whose first trade is
   * before `from`; trades from `to` on are ignored.
   */
  async firstTradeBuckets(
    scope: Scope,
    from: Date,
    to: Date,
    seconds: number,
  ): Promise<{ bucket: number; n: number }[]> {
    const where = scopeWhere(scope);
    const rows = await this.execute<{ bucket: string; n: number }>(
      `with firsts as (
          select t."trader", min(t."created_at") as "first"
          from "trades" t join "duels" d on d."duel_id" = t."duel_id"
          where t."created_at" < ? and ${where.sql}
          group by t."trader"
        )
        select (case when "first" < ? then -1 else floor(extract(epoch from "first") / ?) * ? end)::bigint::text as "bucket",
          count(*)::int as "n"
        from firsts group by 1`,
      [to, ...where.params, from, seconds, seconds],
    );
    return rows.map((r) => ({ bucket: Number(r.bucket), n: r.n }));
  }

  /** Time of the first trade in a scope, or null when there is none. */
  async firstTradeAt(scope: Scope): Promise<Date | null> {
    const where = scopeWhere(scope);
    const [row] = await this.execute<{ first: string | null }>(
      `select ${iso('min(t."created_at")')} as "first" from "trades" t join "duels" d on d."duel_id" = t."duel_id"
        where ${where.sql}`,
      where.params,
    );
    return row?.first ? new Date(row.first) : null;
  }

  private async countTraders(scope: Scope): Promise<number> {
    const where = scopeWhere(scope);
    const [row] = await this.execute<{ n: number }>(
      `select count(distinct t."trader")::int as "n" from "trades" t join "duels" d on d."duel_id" = t."duel_id"
        where ${where.sql}`,
      where.params,
    );
    return row?.n ?? 0;
  }

  /** Strips the window count; a page past the end has no rows to carry it, so count separately. */
  private async ranked<T extends { n: number }>(
    rows: T[],
    count: () => Promise<number>,
  ): Promise<RankedPage<Omit<T, 'n'>>> {
    const total = rows[0]?.n ?? (await count());
    return { rows: rows.map(({ n: _n, ...rest }) => rest), total };
  }

  private execute<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return this.orm.em
      .fork()
      .getConnection()
      .execute<T[]>(sql, [...params]);
  }
}
