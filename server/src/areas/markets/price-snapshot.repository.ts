import type { Connection, Transaction } from '@mikro-orm/core';
import { BPS, ONE, prices } from './fpmm.math.js';
import type { Orm } from '../../platform/db/orm.js';
import type { Duel } from './duel.entity.js';

/** The one method of a MikroORM connection these writes need (also a transaction's connection). */
export type SqlConnection = Pick<Connection, 'execute'>;

/** A PostgreSQL array literal of decimal strings (the query formatter would expand a JS array). */
function textArray(values: readonly string[]): string {
  return `{${values.join(',')}}`;
}

/** Prices of a pool, or null when the pool is not a live market (fewer than two or empty balances). */
export function poolPrices(balances: readonly bigint[]): bigint[] | null {
  if (balances.length < 2 || balances.some((b) => b <= 0n)) return null;
  return prices(balances);
}

function yesBpsOf(optionPrices: readonly bigint[]): number {
  return Number(((optionPrices[0] ?? 0n) * BPS) / ONE);
}

/** What a trade's snapshot stores: the option prices (an array literal) and the yes price in bps. */
export interface TradeSnapshot {
  readonly optionPrices: string;
  readonly yesBps: number;
}

/** The snapshot a trade's pools leave behind, or null when the pool is not a live market. */
export function tradeSnapshot(balances: readonly bigint[]): TradeSnapshot | null {
  const optionPrices = poolPrices(balances);
  if (!optionPrices) return null;
  return { optionPrices: textArray(optionPrices.map((p) => p.toString())), yesBps: yesBpsOf(optionPrices) };
}

/**
 * The insert of trade snapshots whose rows `source` yields as (duel_id, option_prices text[],
 * yes_bps int, created_at timestamptz): a `values` list, or a select over a statement's own rows.
 */
export function tradeSnapshotInsertSql(source: string): string {
  return `insert into price_snapshots (duel_id, option_prices, yes_bps, source, bucket_start, created_at)
     select s.duel_id, s.option_prices, s.yes_bps, 'trade', null, s.created_at
       from (${source}) as s(duel_id, option_prices, yes_bps, created_at)`;
}

/**
 * Records the prices a trade left behind, at the trade's block time (the indexer writes them in
 * its statement for the trade, `MarketIndexRepository.applyTrade`); pass the transaction context
 * (`em.getTransactionContext()`) to make it part of the caller's transaction.
 */
export async function recordTradeSnapshot(
  conn: SqlConnection,
  duelId: string,
  balances: readonly bigint[],
  timestampSeconds: number,
  ctx?: Transaction,
): Promise<void> {
  const snapshot = tradeSnapshot(balances);
  if (!snapshot) return;
  await conn.execute(
    tradeSnapshotInsertSql('values (?::text, ?::text[], ?::int, to_timestamp(?))'),
    [duelId.toLowerCase(), snapshot.optionPrices, snapshot.yesBps, timestampSeconds],
    'all',
    ctx,
  );
}

/** A stored snapshot as charts read it. */
export interface SnapshotPoint {
  readonly duelId: string;
  readonly createdAt: Date;
  readonly optionPrices: string[];
}

/** What the price-history rules need of a duel. */
export type ChartDuel = Pick<
  Duel,
  'duelId' | 'question' | 'options' | 'isPrivate' | 'creatorAddress' | 'poolBalances' | 'createdAt'
>;

interface RawPoint {
  duelId: string;
  createdAt: Date | string;
  optionPrices: string[];
}

const toPoint = (r: RawPoint): SnapshotPoint => ({
  duelId: r.duelId,
  createdAt: new Date(r.createdAt),
  optionPrices: r.optionPrices,
});

/** Reads and scheduled writes of `price_snapshots`. Duel ids are lower-case, as the indexer stores them. */
export class PriceSnapshotRepository {
  constructor(private readonly orm: Orm) {}

  /** Child duels of a parent market, oldest first; duels the chain rejected are left out. */
  async children(parentMarketId: string): Promise<ChartDuel[]> {
    return this.execute<ChartDuel>(
      `select "duel_id" as "duelId", "question", "options", "is_private" as "isPrivate",
         "creator_address" as "creatorAddress", "pool_balances" as "poolBalances", "created_at" as "createdAt"
       from "duels" where "parent_market_id" = ? and "chain_state" <> 'failed'
       order by "created_at", "id"`,
      [parentMarketId],
    );
  }

  /**
   * The last snapshot of every `bucketSeconds`-wide bucket (aligned to the Unix epoch) at or after
   * `from`, keeping the `limit` most recent buckets per duel; oldest first within a duel.
   */
  async lastPerBucket(
    duelIds: readonly string[],
    from: Date,
    bucketSeconds: number,
    limit: number,
  ): Promise<SnapshotPoint[]> {
    if (!duelIds.length) return [];
    const rows = await this.execute<RawPoint>(
      `select "duelId", "createdAt", "optionPrices" from (
         select "duelId", "createdAt", "optionPrices", "id",
           row_number() over (partition by "duelId" order by "createdAt" desc, "id" desc) as "rank"
         from (
           select distinct on (s.duel_id, floor(extract(epoch from s.created_at) / ?))
             s.duel_id as "duelId", s.created_at as "createdAt", s.option_prices as "optionPrices", s.id as "id"
           from price_snapshots s
           where s.duel_id in (?) and s.created_at >= ?::timestamptz
           order by s.duel_id, floor(extract(epoch from s.created_at) / ?), s.created_at desc, s.id desc
         ) as last_per_bucket
       ) as ranked
       where "rank" <= ?
       order by "duelId", "createdAt", "id"`,
      [bucketSeconds, duelIds, from.toISOString(), bucketSeconds, limit],
    );
    return rows.map(toPoint);
  }

  /** Per duel, the last snapshot strictly before `at` (duels without one are absent). */
  async lastBefore(duelIds: readonly string[], at: Date): Promise<SnapshotPoint[]> {
    if (!duelIds.length) return [];
    const rows = await this.execute<RawPoint>(
      `select d.duel_id as "duelId", s.created_at as "createdAt", s.option_prices as "optionPrices"
       from unnest(array[?]::text[]) as d(duel_id)
       cross join lateral (
         select p.created_at, p.option_prices from price_snapshots p
         where p.duel_id = d.duel_id and p.created_at < ?::timestamptz
         order by p.created_at desc, p.id desc limit 1
       ) as s`,
      [duelIds, at.toISOString()],
    );
    return rows.map(toPoint);
  }

  /** Time of the oldest snapshot of any of these duels. */
  async earliest(duelIds: readonly string[]): Promise<Date | null> {
    if (!duelIds.length) return null;
    const [row] = await this.execute<{ at: Date | string | null }>(
      `select min(created_at) as "at" from price_snapshots where duel_id in (?)`,
      [duelIds],
    );
    return row?.at ? new Date(row.at) : null;
  }

  /**
   * Writes one `schedule` snapshot, dated `now`, for every confirmed open duel with no snapshot
   * since `bucketStart`; returns how many it wrote. Prices are computed in bigint from the pool
   * (never in SQL), so the duels are read first; the insert re-checks the guard and the unique
   * (duel_id, bucket_start) absorbs a concurrent run, so a retried job adds nothing twice.
   */
  async insertScheduled(now: Date, bucketStart: Date): Promise<number> {
    const due = await this.execute<{ duelId: string; poolBalances: string[] }>(
      `select d.duel_id as "duelId", d.pool_balances as "poolBalances" from duels d
       where d.status = 'open' and d.chain_state = 'confirmed'
         and not exists (select 1 from price_snapshots s where s.duel_id = d.duel_id and s.created_at >= ?::timestamptz)`,
      [bucketStart.toISOString()],
    );
    const rows = due.flatMap(({ duelId, poolBalances }) => {
      const optionPrices = poolPrices(poolBalances.map((b) => BigInt(b)));
      if (!optionPrices) return [];
      return [{ duel_id: duelId, prices: optionPrices.map((p) => p.toString()), yes_bps: yesBpsOf(optionPrices) }];
    });
    if (!rows.length) return 0;
    const inserted = await this.execute<{ id: string }>(
      `insert into price_snapshots (duel_id, option_prices, yes_bps, source, bucket_start, created_at)
       select v.duel_id, v.prices, v.yes_bps, 'schedule', ?::timestamptz, ?::timestamptz
       from json_to_recordset(?::json) as v(duel_id text, prices text[], yes_bps int)
       where not exists (
         select 1 from price_snapshots s where s.duel_id = v.duel_id and s.created_at >= ?::timestamptz
       )
       on conflict (duel_id, bucket_start) do nothing
       returning id`,
      [bucketStart.toISOString(), now.toISOString(), JSON.stringify(rows), bucketStart.toISOString()],
    );
    return inserted.length;
  }

  private execute<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.orm.em.fork().getConnection().execute<T[]>(sql, params);
  }
}
