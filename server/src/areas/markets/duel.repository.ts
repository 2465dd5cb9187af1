import { randomUUID } from 'node:crypto';
import type { Orm } from '../../platform/db/orm.js';
import { directSql, pgArray, type SqlExec } from '../../platform/db/sql.js';
import type { Duel, DuelStatus } from './duel.entity.js';

export type DuelSortBy = 'createdAt' | 'startTime' | 'endTime' | 'extMarketVolume24h';

/** Filters and ordering of a duel list (§4.6), already validated. */
export interface DuelListFilter {
  readonly collateralStack?: 'usdc' | 'credits' | undefined;
  readonly category?: string | undefined;
  readonly status?: Exclude<DuelStatus, 'cancelled'> | undefined;
  readonly leagueId?: string | undefined;
  readonly includePrivate: boolean;
  readonly sortBy: DuelSortBy;
  readonly sortOrder: 'asc' | 'desc';
}

export interface DuelPageRequest extends DuelListFilter {
  readonly page: number;
  readonly limit: number;
  /** Keyset: the rows after this position (then `page` is not used for an offset). */
  readonly after?: DuelKeysetPosition | undefined;
}

/** The sort key and id of a list's last row: timestamps in epoch microseconds, volumes as integer text. */
export interface DuelKeysetPosition {
  readonly key: string | null;
  readonly id: string;
}

/** A row of a list page with its exact sort key (for the next page's cursor). */
export type DuelListRow = Duel & { readonly sortKey: string | null };

/** The exact sort key of each sort, as text: what a cursor carries. */
const SORT_KEY: Record<DuelSortBy, string> = {
  createdAt: '(extract(epoch from "created_at") * 1000000)::bigint::text',
  startTime: '(extract(epoch from "start_time") * 1000000)::bigint::text',
  endTime: '(extract(epoch from "end_time") * 1000000)::bigint::text',
  extMarketVolume24h: '"ext_volume24h"::text',
};

/**
 * `after` as a condition: the rows past it in the list's order (`col dir, id dir`). Timestamps
 * compare as exact microseconds; the volume may be null, ranked last descending, first ascending.
 */
function keyset(
  sortBy: DuelSortBy,
  dir: 'asc' | 'desc',
  after: DuelKeysetPosition,
): { sql: string; params: unknown[] } {
  const cmp = dir === 'desc' ? '<' : '>';
  const col = SORT_COLUMN[sortBy];
  if (sortBy !== 'extMarketVolume24h') {
    const value = `('epoch'::timestamptz + ?::bigint * interval '1 microsecond')`;
    return { sql: `(${col}, "id") ${cmp} (${value}, ?::uuid)`, params: [after.key, after.id] };
  }
  if (after.key === null) {
    // Past a null: descending (nulls last) only nulls with a lower id; ascending (nulls first) every
    // non-null and the nulls with a higher id.
    return dir === 'desc'
      ? { sql: `(${col} is null and "id" < ?::uuid)`, params: [after.id] }
      : { sql: `(${col} is not null or "id" > ?::uuid)`, params: [after.id] };
  }
  const nulls = dir === 'desc' ? `or ${col} is null` : '';
  return {
    sql: `((${col}, "id") ${cmp} (?::numeric, ?::uuid) ${nulls})`,
    params: [after.key, after.id],
  };
}

/** Sort keys map to columns through this table only: user input never reaches the SQL text. */
const SORT_COLUMN: Record<DuelSortBy, string> = {
  createdAt: '"created_at"',
  startTime: '"start_time"',
  endTime: '"end_time"',
  extMarketVolume24h: '"ext_volume24h"',
};

const COLUMNS = `"id", "duel_id" as "duelId", "builder_app_id" as "builderAppId", "creator_user_id" as "creatorUserId",
  "creator_address" as "creatorAddress", "question", "description", "category", "tags", "options", "duel_type" as "duelType",
  "collateral_stack" as "collateralStack", "is_private" as "isPrivate", "league_id" as "leagueId",
  "parent_market_id" as "parentMarketId", "cover_image_url" as "coverImageUrl", "start_time" as "startTime",
  "end_time" as "endTime", "created_at" as "createdAt", "status", "chain_state" as "chainState", "tx_hash" as "txHash",
  "chain_error" as "chainError", "winning_option_index" as "winningOptionIndex", "pool_balances" as "poolBalances",
  "total_volume"::text as "totalVolume", "unique_participants" as "uniqueParticipants", "yes_bps" as "yesBps",
  "ext_market_id" as "extMarketId", "ext_volume24h"::text as "extVolume24h", "ext_live" as "extLive",
  "is_canonical" as "isCanonical", "fee_bps" as "feeBps", "initial_liquidity"::text as "initialLiquidity",
  "resolved_at" as "resolvedAt", "contest_ends_at" as "contestEndsAt"`;

function where(filter: DuelListFilter): { sql: string; params: unknown[] } {
  // A creation the chain rejected never becomes a market.
  const clauses: string[] = [`"chain_state" <> 'failed'`];
  const params: unknown[] = [];
  if (!filter.includePrivate) clauses.push('not "is_private"');
  if (filter.collateralStack) {
    clauses.push('"collateral_stack" = ?');
    params.push(filter.collateralStack);
  }
  if (filter.category) {
    clauses.push('"category" = ?');
    params.push(filter.category);
  }
  if (filter.status) {
    clauses.push('"status" = ?');
    params.push(filter.status);
  }
  if (filter.leagueId) {
    clauses.push('"league_id" = ?');
    params.push(filter.leagueId);
  }
  // Ranking by paired external volume only makes sense for canonical duels.
  if (filter.sortBy === 'extMarketVolume24h') clauses.push('"is_canonical"');
  return { sql: clauses.length ? `where ${clauses.join(' and ')}` : '', params };
}

/** A duel whose creation is being recorded (status open, chainState pending). */
export interface PendingDuel {
  readonly duelId: string;
  readonly builderAppId: string;
  readonly creatorUserId: string;
  readonly creatorAddress: string;
  readonly question: string;
  readonly description: string | null;
  readonly category: string;
  readonly tags: readonly string[];
  readonly options: readonly string[];
  readonly duelType: string;
  readonly collateralStack: string;
  readonly isPrivate: boolean;
  readonly leagueId: string | null;
  readonly coverImageUrl: string | null;
  readonly startTime: Date;
  readonly endTime: Date;
  readonly yesBps: number;
  readonly feeBps: number;
  readonly initialLiquidity: bigint;
  readonly parentMarketId: string | null;
}

/** Reads of the duel read model. */
export class DuelRepository {
  /** Every estimate and bet reads its duel: straight on the driver, outside the ORM's layers. */
  private readonly sql: SqlExec;

  constructor(orm: Orm) {
    this.sql = directSql(orm);
  }

  /** Creations the chain has not confirmed yet, oldest first, a page of `limit` (the reconcile job's input). */
  pendingCreations(limit = 200): Promise<{ duel_id: string; tx_hash: string | null; created_at: Date }[]> {
    return this.sql(
      `select duel_id, tx_hash, created_at from duels where chain_state = 'pending' order by created_at limit ?`,
      [limit],
    );
  }

  /**
   * Marks a creation that is still pending as failed, with the reason; `sql` is the transaction of
   * a chain write's outcome when there is one.
   */
  async failPendingCreation(duelId: string, reason: string, sql: SqlExec = this.sql): Promise<void> {
    await sql(
      `update duels set chain_state = 'failed', chain_error = ? where duel_id = ? and chain_state = 'pending'`,
      [reason, duelId],
    );
  }

  /**
   * Writes the duel of a creation that is being recorded (chainState pending), inside the
   * recording transaction. Idempotent: a creation signed again only moves its tx_hash.
   */
  async insertPending(sql: SqlExec, duel: PendingDuel, txHash: string): Promise<void> {
    const row = [
      randomUUID(),
      duel.duelId,
      duel.builderAppId,
      duel.creatorUserId,
      duel.creatorAddress,
      duel.question,
      duel.description,
      duel.category,
      pgArray(duel.tags),
      pgArray(duel.options),
      duel.duelType,
      duel.collateralStack,
      duel.isPrivate,
      duel.leagueId,
      duel.coverImageUrl,
      duel.startTime,
      duel.endTime,
      duel.yesBps,
      duel.feeBps,
      duel.initialLiquidity.toString(),
      duel.parentMarketId,
    ];
    await sql(
      `insert into duels (id, duel_id, builder_app_id, creator_user_id, creator_address, question, description, category, tags,
         options, duel_type, collateral_stack, is_private, league_id, cover_image_url, start_time, end_time, created_at, status,
         chain_state, pool_balances, total_volume, unique_participants, yes_bps, ext_live, is_canonical, fee_bps, initial_liquidity,
         parent_market_id, tx_hash)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?::text[], ?::text[], ?, ?, ?, ?, ?, ?, ?, now(), 'open', 'pending', '{}', 0, 0, ?, false,
         false, ?, ?, ?, ?)
       on conflict (duel_id) do update set tx_hash = excluded.tx_hash`,
      [...row, txHash],
    );
  }

  /**
   * One page of a list, `limit` rows plus one more when there is one (so the caller knows whether
   * a next page exists): by offset, or past `req.after` (keyset, stable while rows are added).
   */
  async page(req: DuelPageRequest, extra = 0): Promise<DuelListRow[]> {
    const filter = where(req);
    const dir = req.sortOrder === 'asc' ? 'asc' : 'desc';
    const nulls = req.sortBy === 'extMarketVolume24h' ? ` nulls ${dir === 'desc' ? 'last' : 'first'}` : '';
    let sql = filter.sql;
    const params = [...filter.params];
    if (req.after) {
      const past = keyset(req.sortBy, dir, req.after);
      sql = `${sql} and ${past.sql}`;
      params.push(...past.params);
    }
    return this.execute<DuelListRow>(
      `select ${COLUMNS}, ${SORT_KEY[req.sortBy]} as "sortKey" from "duels" ${sql}
        order by ${SORT_COLUMN[req.sortBy]} ${dir}${nulls}, "id" ${dir}
        limit ? offset ?`,
      [...params, req.limit + extra, req.after ? 0 : (req.page - 1) * req.limit],
    );
  }

  async count(filter: DuelListFilter): Promise<number> {
    const { sql, params } = where(filter);
    const [row] = await this.execute<{ n: number }>(`select count(*)::int as "n" from "duels" ${sql}`, params);
    return row?.n ?? 0;
  }

  async byDuelId(duelId: string): Promise<Duel | null> {
    const [row] = await this.execute<Duel>(`select ${COLUMNS} from "duels" where "duel_id" = ?`, [
      duelId.toLowerCase(),
    ]);
    return row ?? null;
  }

  /** True when `id` is a database row id: lets a 404 say which id was expected instead. */
  async existsByRowId(id: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
    const rows = await this.execute<{ id: string }>('select "id" from "duels" where "id" = ?', [id]);
    return rows.length > 0;
  }

  /** Canonical credits duels still open, ranked by paired 24 h volume (§4.7). */
  async canonical(status: 'live' | 'upcoming' | 'all', limit: number, now: Date): Promise<Duel[]> {
    const mode =
      status === 'live'
        ? 'and ("ext_live" or "start_time" <= ?)'
        : status === 'upcoming'
          ? 'and not "ext_live" and "start_time" > ?'
          : '';
    return this.execute<Duel>(
      `select ${COLUMNS} from "duels"
        where "is_canonical" and not "is_private" and "collateral_stack" = 'credits' and "status" = 'open' ${mode}
        order by "ext_volume24h" desc nulls last, "id" desc limit ?`,
      mode ? [now, limit] : [limit],
    );
  }

  async hasTraded(duelId: string, trader: string): Promise<boolean> {
    const rows = await this.execute<{ one: number }>(
      'select 1 as "one" from "trades" where "duel_id" = ? and "trader" = ? limit 1',
      [duelId.toLowerCase(), trader],
    );
    return rows.length > 0;
  }

  /** Every holder's positions with their total paid in and received from sales, and username. */
  async participants(duelId: string) {
    return this.execute<{
      holder: string;
      optionIndex: number;
      shares: string;
      costBasis: string;
      username: string | null;
      bought: string;
      sold: string;
    }>(
      `select p."holder", p."option_index" as "optionIndex", p."shares"::text as "shares", p."cost_basis"::text as "costBasis",
          (select u."username" from "users" u where u."managed_address" = p."holder" limit 1) as "username",
          coalesce(t."bought", 0)::text as "bought", coalesce(t."sold", 0)::text as "sold"
        from "positions" p
        left join (
          select "trader", sum(case when "side" = 'buy' then "collateral" else 0 end) as "bought",
                 sum(case when "side" = 'sell' then "collateral" else 0 end) as "sold"
            from "trades" where "duel_id" = ? group by "trader"
        ) t on t."trader" = p."holder"
        where p."duel_id" = ?
        order by p."holder", p."option_index"`,
      [duelId.toLowerCase(), duelId.toLowerCase()],
    );
  }

  /** Positions of one holder in one duel. */
  async positionsOf(duelId: string, holder: string) {
    return this.execute<{ optionIndex: number; shares: string; costBasis: string }>(
      `select "option_index" as "optionIndex", "shares"::text as "shares", "cost_basis"::text as "costBasis"
         from "positions" where "duel_id" = ? and "holder" = ? order by "option_index"`,
      [duelId.toLowerCase(), holder],
    );
  }

  /** Cost basis of a holder's positions in markets that are neither settled nor cancelled. */
  async openExposure(holder: string): Promise<bigint> {
    const [row] = await this.execute<{ used: string }>(
      `select coalesce(sum(p."cost_basis"), 0)::text as "used" from "positions" p
         join "duels" d on d."duel_id" = p."duel_id"
        where p."holder" = ? and d."status" in ('open', 'pending', 'pending_contest')`,
      [holder],
    );
    return BigInt(row?.used ?? '0');
  }

  /** Marks a credits duel as mirroring an external market, or unmarks it (`null`). */
  async markCanonical(
    duelId: string,
    pairing: { extMarketId: string; volume24h: bigint; live: boolean } | null,
  ): Promise<'ok' | 'not_found' | 'not_credits'> {
    const [row] = await this.execute<{ collateralStack: string }>(
      'select "collateral_stack" as "collateralStack" from "duels" where "duel_id" = ?',
      [duelId.toLowerCase()],
    );
    if (!row) return 'not_found';
    if (row.collateralStack !== 'credits') return 'not_credits';
    await this.execute(
      `update "duels" set "is_canonical" = ?, "ext_market_id" = ?, "ext_volume24h" = ?, "ext_live" = ? where "duel_id" = ?`,
      pairing
        ? [true, pairing.extMarketId, pairing.volume24h.toString(), pairing.live, duelId.toLowerCase()]
        : [false, null, null, false, duelId.toLowerCase()],
    );
    return 'ok';
  }

  private execute<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.sql<T>(sql, params);
  }
}
