import type { Orm } from '../../platform/db/orm.js';
import { directSql, type SqlExec } from '../../platform/db/sql.js';

/** A canonical duel already paired with an external event, as the sync job reads it. */
export interface PairedDuel {
  readonly duelId: string;
  readonly extMarketId: string;
  readonly volume24h: bigint;
  readonly live: boolean;
}

/** A public credits duel not paired yet: the pairing rule matches on its question. */
export interface UnpairedDuel {
  readonly duelId: string;
  readonly question: string;
}

/** What the sync job reads and writes; the in-memory fake of the unit test implements the same. */
export interface ExtSyncStore {
  paired(now: Date): Promise<PairedDuel[]>;
  unpaired(now: Date, limit: number): Promise<UnpairedDuel[]>;
  /** Writes a refreshed volume and live flag; false when the duel is no longer paired with `extMarketId`. */
  refresh(duelId: string, extMarketId: string, volume24h: bigint, live: boolean): Promise<boolean>;
  /** Pairs an unpaired duel (and makes it canonical); false when someone paired it meanwhile. */
  pair(duelId: string, extMarketId: string, volume24h: bigint, live: boolean): Promise<boolean>;
}

/** Duels the canonical list may show: public, credits, open, confirmed on chain and not ended. */
const ELIGIBLE = `not "is_private" and "collateral_stack" = 'credits' and "status" = 'open'
  and "chain_state" <> 'failed' and "end_time" > ?`;

export class ExtSyncRepository implements ExtSyncStore {
  private readonly sql: SqlExec;

  constructor(orm: Orm) {
    this.sql = directSql(orm);
  }

  async paired(now: Date): Promise<PairedDuel[]> {
    const rows = await this.sql<{ duelId: string; extMarketId: string; volume: string | null; live: boolean }>(
      `select "duel_id" as "duelId", "ext_market_id" as "extMarketId", "ext_volume24h"::text as "volume",
              "ext_live" as "live"
         from "duels" where "is_canonical" and "ext_market_id" is not null and ${ELIGIBLE}
        order by "duel_id"`,
      [now],
    );
    return rows.map((r) => ({
      duelId: r.duelId,
      extMarketId: r.extMarketId,
      volume24h: BigInt(r.volume ?? '0'),
      live: r.live,
    }));
  }

  unpaired(now: Date, limit: number): Promise<UnpairedDuel[]> {
    return this.sql<UnpairedDuel>(
      `select "duel_id" as "duelId", "question" from "duels"
        where "ext_market_id" is null and ${ELIGIBLE}
        order by "created_at", "duel_id" limit ?`,
      [now, limit],
    );
  }

  async refresh(duelId: string, extMarketId: string, volume24h: bigint, live: boolean): Promise<boolean> {
    const rows = await this.sql<{ duelId: string }>(
      `update "duels" set "ext_volume24h" = ?, "ext_live" = ?
        where "duel_id" = ? and "ext_market_id" = ? returning "duel_id" as "duelId"`,
      [volume24h.toString(), live, duelId, extMarketId],
    );
    return rows.length > 0;
  }

  async pair(duelId: string, extMarketId: string, volume24h: bigint, live: boolean): Promise<boolean> {
    const rows = await this.sql<{ duelId: string }>(
      `update "duels" set "is_canonical" = true, "ext_market_id" = ?, "ext_volume24h" = ?, "ext_live" = ?
        where "duel_id" = ? and "ext_market_id" is null and "collateral_stack" = 'credits'
        returning "duel_id" as "duelId"`,
      [extMarketId, volume24h.toString(), live, duelId],
    );
    return rows.length > 0;
  }
}
