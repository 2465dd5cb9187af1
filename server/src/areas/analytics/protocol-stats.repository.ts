import type { Orm } from '../../platform/db/orm.js';
import { sqlIn } from '../../platform/db/sql.js';
import { iso } from './analytics.sql.js';
import type { ProtocolStats } from './analytics.types.js';

/** Serialises stores across instances (an arbitrary constant key of pg_advisory_xact_lock). */
const STORE_LOCK = 0x64_6b_73_74; // "dkst"

const COLUMNS = `"id", ${iso('"computed_at"')} as "computedAt", "total_volume"::text as "totalVolume",
  "volume24h"::text as "volume24h", "previous_volume24h"::text as "previousVolume24h",
  "total_fees"::text as "totalFees", "total_trades" as "totalTrades", "trades24h" as "trades24h",
  "total_users" as "totalUsers", "active_users24h" as "activeUsers24h", "total_creators" as "totalCreators",
  "total_duels" as "totalDuels", "active_duels" as "activeDuels", "settled_duels" as "settledDuels",
  "cancelled_duels" as "cancelledDuels"`;

/** The stored protocol statistics rows (`protocol_stats`); computedAt reads back as ISO-8601. */
export class ProtocolStatsRepository {
  constructor(private readonly orm: Orm) {}

  /** The newest `n` rows, newest first. */
  latest(n: number): Promise<ProtocolStats[]> {
    return this.orm.em
      .fork()
      .getConnection()
      .execute<ProtocolStats[]>(
        `select ${COLUMNS} from "protocol_stats" order by "computed_at" desc, "id" desc limit ?`,
        [n],
      );
  }

  /**
   * Stores `row` computed at `now` unless the newest stored row is still `fresh`, under a lock
   * held until the transaction commits, so concurrent stores from any instance are serialised.
   */
  storeUnlessFresh(
    row: ProtocolStats,
    now: Date,
    fresh: (latest: ProtocolStats) => boolean,
  ): Promise<{ row: ProtocolStats; recomputed: boolean }> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      await sql('select pg_advisory_xact_lock(?)', [STORE_LOCK]);
      const [latest] = await sql<ProtocolStats>(
        `select ${COLUMNS} from "protocol_stats" order by "computed_at" desc, "id" desc limit 1`,
      );
      if (latest && fresh(latest)) return { row: latest, recomputed: false };
      await sql(
        `insert into "protocol_stats" ("id", "computed_at", "total_volume", "volume24h", "previous_volume24h",
           "total_fees", "total_trades", "trades24h", "total_users", "active_users24h", "total_creators",
           "total_duels", "active_duels", "settled_duels", "cancelled_duels")
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          row.id,
          now,
          row.totalVolume,
          row.volume24h,
          row.previousVolume24h,
          row.totalFees,
          row.totalTrades,
          row.trades24h,
          row.totalUsers,
          row.activeUsers24h,
          row.totalCreators,
          row.totalDuels,
          row.activeDuels,
          row.settledDuels,
          row.cancelledDuels,
        ],
      );
      return { row, recomputed: true };
    });
  }
}
