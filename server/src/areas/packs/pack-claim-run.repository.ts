import type { Orm } from '../../platform/db/orm.js';
import { sqlIn } from '../../platform/db/sql.js';
import type { PackClaimRunRow } from './pack.entities.js';

const RUN = `"pack_id" as "packId", "kind", "generation", "status", "sent", "skipped", "failed", "last_error" as "lastError",
  "started_at" as "startedAt", "finished_at" as "finishedAt", "updated_at" as "updatedAt"`;

/** Auto-claim runs: one row per pack and distribution kind, the latest run's progress. */
export class PackClaimRunRepository {
  constructor(private readonly orm: Orm) {}

  async claimRun(packId: string, kind: PackClaimRunRow['kind']): Promise<PackClaimRunRow | null> {
    const [row] = await this.sql<PackClaimRunRow>(
      `select ${RUN} from "pack_claim_runs" where "pack_id" = ? and "kind" = ?`,
      [packId, kind],
    );
    return row ?? null;
  }

  /**
   * Starts a new run (the next generation) unless one is queued or running; returns the current
   * run and whether this call started it.
   */
  async startClaimRun(
    packId: string,
    kind: PackClaimRunRow['kind'],
  ): Promise<{ run: PackClaimRunRow; started: boolean }> {
    const [row] = await this.sql<PackClaimRunRow>(
      `insert into "pack_claim_runs" as r ("pack_id", "kind", "generation", "status", "sent", "skipped", "failed", "updated_at")
       values (?, ?, 1, 'queued', 0, 0, 0, now())
       on conflict ("pack_id", "kind") do update set "generation" = r."generation" + 1, "status" = 'queued', "sent" = 0,
         "skipped" = 0, "failed" = 0, "last_error" = null, "started_at" = null, "finished_at" = null, "updated_at" = now()
         where r."status" in ('done', 'failed') or r."updated_at" < now() - interval '5 minutes'
       returning ${RUN}`,
      [packId, kind],
    );
    if (row) return { run: row, started: true };
    return { run: (await this.claimRun(packId, kind)) as PackClaimRunRow, started: false };
  }

  /** Runs queued or running that nobody moved since `before`. */
  async staleClaimRuns(before: Date): Promise<PackClaimRunRow[]> {
    return this.sql<PackClaimRunRow>(
      `select ${RUN} from "pack_claim_runs" where "status" in ('queued', 'running') and "updated_at" < ? limit 50`,
      [before],
    );
  }

  /** Updates a run's progress; a stale generation changes nothing. */
  async updateClaimRun(
    packId: string,
    kind: PackClaimRunRow['kind'],
    generation: number,
    change: Partial<Pick<PackClaimRunRow, 'status' | 'lastError'>> & {
      sent?: number;
      skipped?: number;
      failed?: number;
    },
  ): Promise<void> {
    await this.sql(
      `update "pack_claim_runs" set "status" = coalesce(?, "status"), "sent" = "sent" + ?, "skipped" = "skipped" + ?,
         "failed" = "failed" + ?, "last_error" = case when ? then ? else "last_error" end,
         "started_at" = case when ? = 'running' then coalesce("started_at", now()) else "started_at" end,
         "finished_at" = case when ? in ('done', 'failed') then now() else "finished_at" end, "updated_at" = now()
        where "pack_id" = ? and "kind" = ? and "generation" = ?`,
      [
        change.status ?? null,
        change.sent ?? 0,
        change.skipped ?? 0,
        change.failed ?? 0,
        change.lastError !== undefined,
        change.lastError ?? null,
        change.status ?? null,
        change.status ?? null,
        packId,
        kind,
        generation,
      ],
    );
  }

  private sql<T = Record<string, unknown>>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return sqlIn(this.orm.em.fork())<T>(sql, params);
  }
}
