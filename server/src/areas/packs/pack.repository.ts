import type { PackStatus } from '@duelkit/contract';
import type { Orm } from '../../platform/db/orm.js';
import { sqlIn } from '../../platform/db/sql.js';
import type { PackEntryRow, PackMarketRow, PackPickRow, PackRow } from './pack.entities.js';

const PACK = `p."id", p."builder_app_id" as "builderAppId", p."status", p."created_by" as "createdBy",
  p."creator_user_id" as "creatorUserId", p."collateral", p."entry_fee"::text as "entryFee", p."fee_bps" as "feeBps",
  p."lock_at" as "lockAt", p."pool_id" as "poolId", p."pool_total"::text as "poolTotal", p."fee_amount"::text as "feeAmount",
  p."fee_tx_hash" as "feeTxHash", p."payout_root" as "payoutRoot", p."cancel_reason" as "cancelReason",
  p."created_at" as "createdAt", p."published_at" as "publishedAt", p."locked_at" as "lockedAt",
  p."resolving_at" as "resolvingAt", p."settled_at" as "settledAt", p."claimed_at" as "claimedAt",
  p."cancelled_at" as "cancelledAt", p."refunds_claimed_at" as "refundsClaimedAt"`;

const VIEW = `${PACK}, pm."question" as "title", pm."description", pm."category", pm."cover_image_url" as "coverImageUrl",
  pm."creator_address" as "creatorAddress",
  (select count(*) from "pack_entries" e where e."pack_id" = p."id" and e."status" = 'confirmed')::int as "entrants",
  (select coalesce(sum(e."amount"), 0) from "pack_entries" e where e."pack_id" = p."id" and e."status" = 'confirmed')::text as "prizePool",
  (select count(*) from "pack_markets" m where m."pack_id" = p."id")::int as "marketCount"
  from "packs" p join "parent_markets" pm on pm."id" = p."id"`;

const MARKET = `"pack_id" as "packId", "duel_id" as "duelId", "position", "added_at" as "addedAt",
  "resolve_tx_hash" as "resolveTxHash", "voided_at" as "voidedAt", "void_reason" as "voidReason", "void_tx_hash" as "voidTxHash"`;

const ENTRY = `e."id", e."pack_id" as "packId", e."user_id" as "userId", e."account", e."amount"::text as "amount", e."status",
  e."attempt", e."tx_hash" as "txHash", e."failure_reason" as "failureReason", e."created_at" as "createdAt",
  e."confirmed_at" as "confirmedAt", e."points", e."correct_picks" as "correctPicks", e."rank", e."payout"::text as "payout"`;

const PICK = `"pack_id" as "packId", "user_id" as "userId", "duel_id" as "duelId", "option_index" as "optionIndex",
  "price"::text as "price", "points_if_correct" as "pointsIfCorrect", "picked_at" as "pickedAt"`;

/** A pack with its parent market's presentation and its live counts. */
export interface PackView extends PackRow {
  title: string;
  description: string | null;
  category: string;
  coverImageUrl: string | null;
  creatorAddress: string;
  entrants: number;
  prizePool: string;
  marketCount: number;
}

export type NewPack = Pick<
  PackRow,
  'id' | 'builderAppId' | 'createdBy' | 'creatorUserId' | 'collateral' | 'entryFee' | 'feeBps' | 'lockAt' | 'poolId'
>;

/** Timestamp column set by a status change. */
const STAMP: Partial<Record<PackStatus, string>> = {
  published: 'published_at',
  locked: 'locked_at',
  resolving: 'resolving_at',
  settled: 'settled_at',
  claimed: 'claimed_at',
  cancelled: 'cancelled_at',
};

export interface StandingWrite {
  readonly entryId: string;
  readonly points: number;
  readonly correctPicks: number;
  readonly rank: number;
  readonly payout: bigint;
}

/** Every query of the packs area. */
export class PackRepository {
  constructor(private readonly orm: Orm) {}

  async insert(p: NewPack): Promise<void> {
    await this.sql(
      `insert into "packs" ("id", "builder_app_id", "status", "created_by", "creator_user_id", "collateral", "entry_fee",
         "fee_bps", "lock_at", "pool_id", "created_at")
       values (?, ?, 'draft', ?, ?, ?, ?, ?, ?, ?, now())`,
      [p.id, p.builderAppId, p.createdBy, p.creatorUserId, p.collateral, p.entryFee, p.feeBps, p.lockAt, p.poolId],
    );
  }

  async view(id: string): Promise<PackView | null> {
    const [row] = await this.sql<PackView>(`select ${VIEW} where p."id" = ?`, [id]);
    return row ?? null;
  }

  async page(
    filter: { status?: PackStatus | undefined; collateral?: string | undefined },
    page: number,
    limit: number,
  ): Promise<{ rows: PackView[]; total: number }> {
    const where = [`p."status" <> 'draft'`];
    const params: unknown[] = [];
    if (filter.status) {
      where.push('p."status" = ?');
      params.push(filter.status);
    }
    if (filter.collateral) {
      where.push('p."collateral" = ?');
      params.push(filter.collateral);
    }
    const clause = where.join(' and ');
    const [rows, [count]] = await Promise.all([
      this.sql<PackView>(`select ${VIEW} where ${clause} order by p."created_at" desc, p."id" desc limit ? offset ?`, [
        ...params,
        limit,
        (page - 1) * limit,
      ]),
      this.sql<{ n: number }>(`select count(*)::int as "n" from "packs" p where ${clause}`, params),
    ]);
    return { rows, total: count?.n ?? 0 };
  }

  /**
   * Moves the pack to `to` when it is in one of `from`, stamping the transition's time; false when
   * it was not (a concurrent request moved it first).
   */
  async transition(id: string, from: readonly PackStatus[], to: PackStatus, extra: { cancelReason?: string } = {}) {
    const stamp = STAMP[to];
    const rows = await this.sql(
      `update "packs" set "status" = ?${stamp ? `, "${stamp}" = coalesce("${stamp}", now())` : ''}
         ${extra.cancelReason !== undefined ? ', "cancel_reason" = ?' : ''}
        where "id" = ? and "status" = any(?::text[]) returning "id"`,
      [to, ...(extra.cancelReason !== undefined ? [extra.cancelReason] : []), id, `{${from.join(',')}}`],
    );
    return rows.length > 0;
  }

  async markets(packId: string): Promise<PackMarketRow[]> {
    return this.sql<PackMarketRow>(`select ${MARKET} from "pack_markets" where "pack_id" = ? order by "position"`, [
      packId,
    ]);
  }

  /**
   * Records every child market of the pack's parent that has no pack row yet, in creation order:
   * a market created or attached just before a crash joins the pack on the next call.
   */
  async syncMarkets(packId: string): Promise<void> {
    await this.sql(
      `insert into "pack_markets" ("pack_id", "duel_id", "position", "added_at")
       select ?, lower(d."duel_id"),
              (select coalesce(max(m."position"), 0) from "pack_markets" m where m."pack_id" = ?)
                + row_number() over (order by d."created_at", d."id"), now()
         from "duels" d
        where d."parent_market_id" = ?
          and not exists (select 1 from "pack_markets" m where m."pack_id" = ? and m."duel_id" = lower(d."duel_id"))
       on conflict do nothing`,
      [packId, packId, packId, packId],
    );
  }

  async setResolveTx(packId: string, duelId: string, txHash: string): Promise<void> {
    await this.sql('update "pack_markets" set "resolve_tx_hash" = ? where "pack_id" = ? and "duel_id" = ?', [
      txHash,
      packId,
      duelId.toLowerCase(),
    ]);
  }

  /** Records a void once; true when this call recorded it. */
  async voidMarket(packId: string, duelId: string, reason: string): Promise<boolean> {
    const rows = await this.sql(
      `update "pack_markets" set "voided_at" = now(), "void_reason" = ?
        where "pack_id" = ? and "duel_id" = ? and "voided_at" is null returning "duel_id"`,
      [reason, packId, duelId.toLowerCase()],
    );
    return rows.length > 0;
  }

  async setVoidTx(packId: string, duelId: string, txHash: string): Promise<void> {
    await this.sql('update "pack_markets" set "void_tx_hash" = ? where "pack_id" = ? and "duel_id" = ?', [
      txHash,
      packId,
      duelId.toLowerCase(),
    ]);
  }

  /** Creates the user's entry; null when they already have one. */
  async insertEntry(
    e: Pick<PackEntryRow, 'id' | 'packId' | 'userId' | 'account' | 'amount'>,
  ): Promise<PackEntryRow | null> {
    const [row] = await this.sql<PackEntryRow>(
      `insert into "pack_entries" as e ("id", "pack_id", "user_id", "account", "amount", "status", "attempt", "created_at")
       values (?, ?, ?, ?, ?, 'pending', 1, now()) on conflict ("pack_id", "user_id") do nothing returning ${ENTRY}`,
      [e.id, e.packId, e.userId, e.account, e.amount],
    );
    return row ?? null;
  }

  async entryOf(packId: string, userId: string): Promise<PackEntryRow | null> {
    const [row] = await this.sql<PackEntryRow>(
      `select ${ENTRY} from "pack_entries" e where e."pack_id" = ? and e."user_id" = ?`,
      [packId, userId],
    );
    return row ?? null;
  }

  /** A failed entry tries again under the next attempt number (a new deposit write key). */
  async retryEntry(id: string): Promise<PackEntryRow | null> {
    const [row] = await this.sql<PackEntryRow>(
      `update "pack_entries" as e set "status" = 'pending', "attempt" = e."attempt" + 1, "tx_hash" = null,
         "failure_reason" = null, "created_at" = now()
        where e."id" = ? and e."status" = 'failed' returning ${ENTRY}`,
      [id],
    );
    return row ?? null;
  }

  /**
   * Undoes an attempt whose deposit was never sent: a first attempt leaves no entry behind, a
   * retried one is failed again (its write key must never be reused for another deposit).
   */
  async abandonAttempt(id: string, attempt: number): Promise<void> {
    const guard = `"id" = ? and "attempt" = ? and "status" = 'pending' and "tx_hash" is null`;
    await this.sql(
      attempt === 1
        ? `delete from "pack_entries" where ${guard}`
        : `update "pack_entries" set "status" = 'failed', "failure_reason" = 'the deposit could not be sent' where ${guard}`,
      [id, attempt],
    );
  }

  async setEntryTx(id: string, attempt: number, txHash: string): Promise<void> {
    await this.sql(
      'update "pack_entries" set "tx_hash" = ? where "id" = ? and "attempt" = ? and "status" = \'pending\'',
      [txHash.toLowerCase(), id, attempt],
    );
  }

  async settleEntry(id: string, txHash: string, outcome: { confirmed: true } | { confirmed: false; reason: string }) {
    const rows = await this.sql(
      outcome.confirmed
        ? `update "pack_entries" set "status" = 'confirmed', "confirmed_at" = now()
            where "id" = ? and "tx_hash" = ? and "status" = 'pending' returning "id"`
        : `update "pack_entries" set "status" = 'failed', "failure_reason" = ?
            where "id" = ? and "tx_hash" = ? and "status" = 'pending' returning "id"`,
      outcome.confirmed ? [id, txHash] : [outcome.reason, id, txHash],
    );
    return rows.length > 0;
  }

  /** Pending entries whose deposit was sent, oldest first (of one pack, or of all). */
  async pendingEntries(packId: string | null, limit: number): Promise<PackEntryRow[]> {
    return this.sql<PackEntryRow>(
      `select ${ENTRY} from "pack_entries" e where e."status" = 'pending' and e."tx_hash" is not null
         ${packId ? 'and e."pack_id" = ?' : ''} order by e."created_at" limit ?`,
      packId ? [packId, limit] : [limit],
    );
  }

  /**
   * Entries whose deposit may still land: sent and not yet verified, or being entered right now.
   * An entry whose request died before its deposit was recorded, and was never retried, stops
   * counting after ten minutes (entering again resumes it under the same write key).
   */
  async countPending(packId: string): Promise<number> {
    const [row] = await this.sql<{ n: number }>(
      `select count(*)::int as "n" from "pack_entries"
        where "pack_id" = ? and "status" = 'pending'
          and ("tx_hash" is not null or "created_at" > now() - interval '10 minutes')`,
      [packId],
    );
    return row?.n ?? 0;
  }

  async confirmedEntries(packId: string): Promise<(PackEntryRow & { username: string | null })[]> {
    return this.sql(
      `select ${ENTRY}, u."username" from "pack_entries" e left join "users" u on u."id" = e."user_id"
        where e."pack_id" = ? and e."status" = 'confirmed' order by e."account"`,
      [packId],
    );
  }

  async upsertPicks(rows: readonly Omit<PackPickRow, 'pickedAt'>[]): Promise<void> {
    await this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      for (const p of rows) {
        await sql(
          `insert into "pack_picks" ("pack_id", "user_id", "duel_id", "option_index", "price", "points_if_correct", "picked_at")
           values (?, ?, ?, ?, ?, ?, now())
           on conflict ("pack_id", "user_id", "duel_id") do update set "option_index" = excluded."option_index",
             "price" = excluded."price", "points_if_correct" = excluded."points_if_correct", "picked_at" = excluded."picked_at"`,
          [p.packId, p.userId, p.duelId.toLowerCase(), p.optionIndex, p.price, p.pointsIfCorrect],
        );
      }
    });
  }

  async picksOf(packId: string, userId: string): Promise<PackPickRow[]> {
    return this.sql<PackPickRow>(`select ${PICK} from "pack_picks" where "pack_id" = ? and "user_id" = ?`, [
      packId,
      userId,
    ]);
  }

  async allPicks(packId: string): Promise<PackPickRow[]> {
    return this.sql<PackPickRow>(`select ${PICK} from "pack_picks" where "pack_id" = ?`, [packId]);
  }

  /** Writes the settlement in one transaction; false when the pack was no longer settleable. */
  async writeSettlement(
    packId: string,
    from: readonly PackStatus[],
    result: { poolTotal: bigint; feeAmount: bigint; payoutRoot: string | null; standings: readonly StandingWrite[] },
  ): Promise<boolean> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      const moved = await sql(
        `update "packs" set "status" = 'settled', "settled_at" = now(), "pool_total" = ?, "fee_amount" = ?, "payout_root" = ?
          where "id" = ? and "status" = any(?::text[]) returning "id"`,
        [result.poolTotal.toString(), result.feeAmount.toString(), result.payoutRoot, packId, `{${from.join(',')}}`],
      );
      if (!moved.length) return false;
      for (const s of result.standings) {
        await sql(
          `update "pack_entries" set "points" = ?, "correct_picks" = ?, "rank" = ?, "payout" = ? where "id" = ?`,
          [s.points, s.correctPicks, s.rank, s.payout.toString(), s.entryId],
        );
      }
      return true;
    });
  }

  async setFeeTx(packId: string, txHash: string): Promise<void> {
    await this.sql('update "packs" set "fee_tx_hash" = ? where "id" = ? and "fee_tx_hash" is null', [txHash, packId]);
  }

  async markRefundsClaimed(packId: string): Promise<boolean> {
    const rows = await this.sql(
      `update "packs" set "refunds_claimed_at" = now() where "id" = ? and "refunds_claimed_at" is null returning "id"`,
      [packId],
    );
    return rows.length > 0;
  }

  /** Ids of packs in `status` (oldest first), with `lockAt` passed when `lockedBy` is given. */
  async idsIn(status: PackStatus, opts: { lockedBy?: Date; limit: number }): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `select "id" from "packs" where "status" = ? ${opts.lockedBy ? 'and "lock_at" <= ?' : ''}
        order by "created_at" limit ?`,
      opts.lockedBy ? [status, opts.lockedBy, opts.limit] : [status, opts.limit],
    );
    return rows.map((r) => r.id);
  }

  /** Settled packs whose fee release was not sent yet. */
  async feesDue(limit: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `select "id" from "packs" where "status" in ('settled', 'claimed') and "fee_tx_hash" is null
         and coalesce("fee_amount", 0) > 0 order by "settled_at" limit ?`,
      [limit],
    );
    return rows.map((r) => r.id);
  }

  /** Cancelled packs whose refunds are not all claimed yet. */
  async refundsOpen(limit: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `select "id" from "packs" where "status" = 'cancelled' and "refunds_claimed_at" is null order by "cancelled_at" limit ?`,
      [limit],
    );
    return rows.map((r) => r.id);
  }

  private sql<T = Record<string, unknown>>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return sqlIn(this.orm.em.fork())<T>(sql, params);
  }
}
