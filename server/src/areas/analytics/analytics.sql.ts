import { pgArray } from '../../platform/db/sql.js';
import { prices } from '../markets/fpmm.math.js';
import type { CollateralStack } from './analytics.types.js';

/** Which markets an aggregate covers. Only chain-confirmed markets ever count. */
export interface Scope {
  readonly collateralStack?: CollateralStack | undefined;
  /** Public aggregates never include private markets; a wallet's own portfolio does. */
  readonly includePrivate: boolean;
}

/** A SQL fragment with its `?` parameters, in text order. */
export interface Fragment {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** Statuses whose positions are still at market risk (valued at the marginal price). */
export const OPEN_STATUSES = `('open', 'pending', 'pending_contest')`;

/** A timestamptz expression rendered as an ISO-8601 UTC string (the driver would hand back PostgreSQL's text form). */
export function iso(expr: string): string {
  return `to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** `where` conditions on `duels` aliased `alias`. */
export function scopeWhere(scope: Scope, alias = 'd'): Fragment {
  const clauses = [`${alias}."chain_state" = 'confirmed'`];
  const params: unknown[] = [];
  if (!scope.includePrivate) clauses.push(`not ${alias}."is_private"`);
  if (scope.collateralStack) {
    clauses.push(`${alias}."collateral_stack" = ?`);
    params.push(scope.collateralStack);
  }
  return { sql: clauses.join(' and '), params };
}

/** Marginal price (scaled by 10^18) of every option of some open markets, as SQL array parameters. */
export interface PriceTable {
  readonly duelIds: string;
  readonly options: string;
  readonly prices: string;
}

/** Prices each market's options with the market maker's own formula (exact bigint arithmetic). */
export function priceTable(markets: readonly { duelId: string; poolBalances: readonly string[] }[]): PriceTable {
  const ids: string[] = [];
  const options: number[] = [];
  const values: string[] = [];
  for (const m of markets) {
    const balances = m.poolBalances.map((b) => BigInt(b));
    let ps: bigint[];
    try {
      ps = prices(balances);
    } catch {
      ps = balances.map(() => 0n); // an emptied pool has no price
    }
    ps.forEach((p, i) => {
      ids.push(m.duelId);
      options.push(i);
      values.push(p.toString());
    });
  }
  return { duelIds: pgArray(ids), options: pgArray(options), prices: pgArray(values) };
}

/**
 * Profit and loss per (address, market), as CTEs ending in `per_duel`. Per market, with
 * B = collateral paid for buys, S = collateral received from sells, C = cost basis still held:
 * open markets realize S − B + C and carry (held shares × marginal price) − C unrealized; settled
 * markets realize S − B + winning shares; cancelled markets realize S − B + C (the refund).
 * `trader` narrows everything to one address and lets PostgreSQL start from its trades.
 */
export function perDuelPnl(scope: Scope, px: PriceTable, trader?: string): Fragment {
  const where = scopeWhere(scope);
  const byTrader = trader ? 'and t."trader" = ?' : '';
  const byHolder = trader
    ? 'and p."holder" = ? and p."duel_id" in (select "duel_id" from "trades" where "trader" = ?)'
    : '';
  const sql = `scope as not materialized (
      select d."duel_id", d."status", d."winning_option_index" from "duels" d where ${where.sql}
    ),
    px as (select * from unnest(?::text[], ?::int[], ?::numeric[]) as px("duel_id", "option_index", "price")),
    flows as (
      select t."trader" as "address", t."duel_id",
        coalesce(sum(t."collateral") filter (where t."side" = 'buy'), 0) as "bought",
        coalesce(sum(t."collateral") filter (where t."side" = 'sell'), 0) as "sold",
        sum(t."collateral") as "volume",
        count(*) as "trades",
        count(*) filter (where t."side" = 'buy') as "buys",
        max(t."created_at") as "last_trade_at"
      from "trades" t join scope s on s."duel_id" = t."duel_id"
      where true ${byTrader}
      group by t."trader", t."duel_id"
    ),
    holdings as (
      select p."holder" as "address", p."duel_id",
        sum(p."cost_basis") as "basis",
        coalesce(sum(p."shares") filter (where p."option_index" = s."winning_option_index"), 0) as "winning",
        coalesce(sum(div(p."shares" * px."price", 1000000000000000000)), 0) as "marked"
      from "positions" p
        join scope s on s."duel_id" = p."duel_id"
        left join px on px."duel_id" = p."duel_id" and px."option_index" = p."option_index"
      where true ${byHolder}
      group by p."holder", p."duel_id"
    ),
    per_duel as (
      select f."address", f."duel_id", s."status", f."bought", f."sold", f."volume", f."trades", f."buys",
        f."last_trade_at",
        coalesce(h."basis", 0) as "basis",
        case s."status" when 'settled' then coalesce(h."winning", 0) when 'cancelled' then coalesce(h."basis", 0)
          else coalesce(h."marked", 0) end as "value",
        f."sold" - f."bought" + case s."status" when 'settled' then coalesce(h."winning", 0)
          else coalesce(h."basis", 0) end as "realized",
        case when s."status" in ${OPEN_STATUSES} then coalesce(h."marked", 0) - coalesce(h."basis", 0)
          else 0 end as "unrealized"
      from flows f
        join scope s on s."duel_id" = f."duel_id"
        left join holdings h on h."address" = f."address" and h."duel_id" = f."duel_id"
    )`;
  const params: unknown[] = [...where.params, px.duelIds, px.options, px.prices];
  if (trader) params.push(trader, trader, trader);
  return { sql, params };
}
