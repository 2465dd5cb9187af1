import type { Orm } from '../../platform/db/orm.js';
import type { DuelStatus } from '../markets/duel.entity.js';
import { iso, OPEN_STATUSES, perDuelPnl, scopeWhere, type PriceTable, type Scope } from './analytics.sql.js';
import type { CollateralStack } from './analytics.types.js';

export interface AccountSummaryRow {
  realizedPnl: string;
  unrealizedPnl: string;
  positionValue: string;
  openCostBasis: string;
  totalVolume: string;
  totalBets: number;
  totalTrades: number;
  duelsTraded: number;
}

interface DuelInfo {
  duelId: string;
  question: string;
  category: string;
  collateralStack: CollateralStack;
  status: DuelStatus;
  winningOptionIndex: number | null;
  /** ISO-8601, like every time below. */
  endTime: string;
}

export interface CreatedDuelRow extends DuelInfo {
  options: string[];
  isPrivate: boolean;
  startTime: string;
  createdAt: string;
  volume: string;
  trades: number;
  traders: number;
  feesGenerated: string;
}

export interface TradedDuelRow extends DuelInfo {
  bought: string;
  sold: string;
  costBasis: string;
  currentValue: string;
  realizedPnl: string;
  unrealizedPnl: string;
  trades: number;
  lastTradeAt: string;
}

export interface HistoryRow {
  txHash: string;
  logIndex: number;
  duelId: string;
  question: string;
  collateralStack: CollateralStack;
  side: 'buy' | 'sell';
  optionIndex: number;
  optionLabel: string | null;
  collateral: string;
  fee: string;
  shares: string;
  createdAt: string;
}

export interface HeldOptionRow {
  duelId: string;
  question: string;
  category: string;
  collateralStack: CollateralStack;
  status: DuelStatus;
  endTime: string;
  options: string[];
  poolBalances: string[];
  optionIndex: number;
  shares: string;
  costBasis: string;
}

export interface TradeForReplay {
  duelId: string;
  optionIndex: number;
  side: 'buy' | 'sell';
  collateral: string;
  shares: string;
  createdAt: string;
}

export interface OutcomeRow {
  duelId: string;
  status: 'settled' | 'cancelled';
  winningOptionIndex: number | null;
  /** When the result is booked: the resolution time, or the market's end when none is recorded. */
  bookedAt: string;
}

export interface Paged<T> {
  readonly rows: T[];
  readonly total: number;
}

/** Reads of one wallet's trades and positions (§4.14); every query starts from the wallet's own rows. */
export class PortfolioRepository {
  constructor(private readonly orm: Orm) {}

  async summary(address: string, scope: Scope, px: PriceTable): Promise<AccountSummaryRow> {
    const pnl = perDuelPnl(scope, px, address);
    const [row] = await this.execute<AccountSummaryRow>(
      `with ${pnl.sql}
        select coalesce(sum("realized"), 0)::text as "realizedPnl",
          coalesce(sum("unrealized"), 0)::text as "unrealizedPnl",
          coalesce(sum("value") filter (where "status" in ${OPEN_STATUSES}), 0)::text as "positionValue",
          coalesce(sum("basis") filter (where "status" in ${OPEN_STATUSES}), 0)::text as "openCostBasis",
          coalesce(sum("volume"), 0)::text as "totalVolume",
          coalesce(sum("buys"), 0)::int as "totalBets",
          coalesce(sum("trades"), 0)::int as "totalTrades",
          count(*)::int as "duelsTraded"
        from per_duel`,
      pnl.params,
    );
    if (!row) throw new Error('summary query returned no row');
    return row;
  }

  /** Options held with shares > 0 in markets still at market risk. */
  async openPositionCount(address: string, scope: Scope): Promise<number> {
    const where = scopeWhere(scope);
    const [row] = await this.execute<{ n: number }>(
      `select count(*)::int as "n" from "positions" p join "duels" d on d."duel_id" = p."duel_id"
        where p."holder" = ? and p."duel_id" in (select "duel_id" from "trades" where "trader" = ?)
          and p."shares" > 0 and d."status" in ${OPEN_STATUSES} and ${where.sql}`,
      [address, address, ...where.params],
    );
    return row?.n ?? 0;
  }

  async createdCount(address: string, scope: Scope): Promise<number> {
    const where = scopeWhere(scope);
    const [row] = await this.execute<{ n: number }>(
      `select count(*)::int as "n" from "duels" d where d."creator_address" = ? and ${where.sql}`,
      [address, ...where.params],
    );
    return row?.n ?? 0;
  }

  /** Markets the wallet created, newest first. */
  async created(address: string, scope: Scope, page: number, limit: number): Promise<Paged<CreatedDuelRow>> {
    const where = scopeWhere(scope);
    const rows = await this.execute<CreatedDuelRow>(
      `select d."duel_id" as "duelId", d."question", d."category", d."options", d."collateral_stack" as "collateralStack",
          d."is_private" as "isPrivate", d."status", d."winning_option_index" as "winningOptionIndex",
          ${iso('d."start_time"')} as "startTime", ${iso('d."end_time"')} as "endTime",
          ${iso('d."created_at"')} as "createdAt",
          coalesce(x."volume", 0)::text as "volume", coalesce(x."trades", 0)::int as "trades",
          coalesce(x."traders", 0)::int as "traders", coalesce(x."fees", 0)::text as "feesGenerated"
        from "duels" d
          left join lateral (
            select sum(t."collateral") as "volume", count(*) as "trades", count(distinct t."trader") as "traders",
              sum(t."fee") as "fees"
            from "trades" t where t."duel_id" = d."duel_id"
          ) x on true
        where d."creator_address" = ? and ${where.sql}
        order by d."created_at" desc, d."duel_id" desc
        limit ? offset ?`,
      [address, ...where.params, limit, (page - 1) * limit],
    );
    return { rows, total: await this.createdCount(address, scope) };
  }

  /** Markets the wallet traded with their profit and loss, most recently traded first. */
  async traded(
    address: string,
    scope: Scope,
    px: PriceTable,
    page: number,
    limit: number,
  ): Promise<Paged<TradedDuelRow>> {
    const pnl = perDuelPnl(scope, px, address);
    const rows = await this.execute<TradedDuelRow & { n: number }>(
      `with ${pnl.sql}
        select d."duel_id" as "duelId", d."question", d."category", d."collateral_stack" as "collateralStack",
          d."status", d."winning_option_index" as "winningOptionIndex", ${iso('d."end_time"')} as "endTime",
          p."bought"::text as "bought", p."sold"::text as "sold", p."basis"::text as "costBasis",
          p."value"::text as "currentValue", p."realized"::text as "realizedPnl",
          p."unrealized"::text as "unrealizedPnl", p."trades"::int as "trades", ${iso('p."last_trade_at"')} as "lastTradeAt",
          count(*) over ()::int as "n"
        from per_duel p join "duels" d on d."duel_id" = p."duel_id"
        order by p."last_trade_at" desc, d."duel_id" desc
        limit ? offset ?`,
      [...pnl.params, limit, (page - 1) * limit],
    );
    const total = rows[0]?.n ?? (await this.tradedCount(address, scope));
    return { rows: rows.map(({ n: _n, ...row }) => row), total };
  }

  /** The wallet's buys and sells, newest first. */
  async history(address: string, scope: Scope, page: number, limit: number): Promise<Paged<HistoryRow>> {
    const where = scopeWhere(scope);
    const rows = await this.execute<HistoryRow>(
      `select t."tx_hash" as "txHash", t."log_index" as "logIndex", t."duel_id" as "duelId", d."question",
          d."collateral_stack" as "collateralStack", t."side", t."option_index" as "optionIndex",
          d."options"[t."option_index" + 1] as "optionLabel", t."collateral"::text as "collateral",
          t."fee"::text as "fee", t."shares"::text as "shares", ${iso('t."created_at"')} as "createdAt"
        from "trades" t join "duels" d on d."duel_id" = t."duel_id"
        where t."trader" = ? and ${where.sql}
        order by t."created_at" desc, t."block_number" desc, t."log_index" desc
        limit ? offset ?`,
      [address, ...where.params, limit, (page - 1) * limit],
    );
    const [count] = await this.execute<{ n: number }>(
      `select count(*)::int as "n" from "trades" t join "duels" d on d."duel_id" = t."duel_id"
        where t."trader" = ? and ${where.sql}`,
      [address, ...where.params],
    );
    return { rows, total: count?.n ?? 0 };
  }

  /** Options held with shares > 0 in markets still at market risk, with what pricing them needs. */
  async heldOptions(address: string, scope: Scope): Promise<HeldOptionRow[]> {
    const where = scopeWhere(scope);
    return this.execute<HeldOptionRow>(
      `select d."duel_id" as "duelId", d."question", d."category", d."collateral_stack" as "collateralStack",
          d."status", ${iso('d."end_time"')} as "endTime", d."options", d."pool_balances" as "poolBalances",
          p."option_index" as "optionIndex", p."shares"::text as "shares", p."cost_basis"::text as "costBasis"
        from "positions" p join "duels" d on d."duel_id" = p."duel_id"
        where p."holder" = ? and p."duel_id" in (select "duel_id" from "trades" where "trader" = ?)
          and p."shares" > 0 and d."status" in ${OPEN_STATUSES} and ${where.sql}
        order by d."end_time" asc, d."duel_id" asc, p."option_index" asc`,
      [address, address, ...where.params],
    );
  }

  /** The wallet's trades in chain order, for replaying its realized profit and loss. */
  async tradesInChainOrder(address: string, scope: Scope): Promise<TradeForReplay[]> {
    const where = scopeWhere(scope);
    return this.execute<TradeForReplay>(
      `select t."duel_id" as "duelId", t."option_index" as "optionIndex", t."side", t."collateral"::text as "collateral",
          t."shares"::text as "shares", ${iso('t."created_at"')} as "createdAt"
        from "trades" t join "duels" d on d."duel_id" = t."duel_id"
        where t."trader" = ? and ${where.sql}
        order by t."block_number" asc, t."log_index" asc`,
      [address, ...where.params],
    );
  }

  /** Settled and cancelled markets the wallet traded. */
  async outcomes(address: string, scope: Scope): Promise<OutcomeRow[]> {
    const where = scopeWhere(scope);
    return this.execute<OutcomeRow>(
      `select d."duel_id" as "duelId", d."status", d."winning_option_index" as "winningOptionIndex",
          ${iso('coalesce(d."resolved_at", d."end_time")')} as "bookedAt"
        from "duels" d
        where d."duel_id" in (select "duel_id" from "trades" where "trader" = ?)
          and d."status" in ('settled', 'cancelled') and ${where.sql}`,
      [address, ...where.params],
    );
  }

  private async tradedCount(address: string, scope: Scope): Promise<number> {
    const where = scopeWhere(scope);
    const [row] = await this.execute<{ n: number }>(
      `select count(distinct t."duel_id")::int as "n" from "trades" t join "duels" d on d."duel_id" = t."duel_id"
        where t."trader" = ? and ${where.sql}`,
      [address, ...where.params],
    );
    return row?.n ?? 0;
  }

  private execute<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return this.orm.em
      .fork()
      .getConnection()
      .execute<T[]>(sql, [...params]);
  }
}
