import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Orm } from '../../platform/db/orm.js';
import { streamRows } from '../../platform/db/cursor.sql.js';
import { sqlIn, type SqlExec } from '../../platform/db/sql.js';
import { MIGRATION_TABLES } from './migration.archive.js';

export interface JobRecord {
  id: string;
  kind: 'export' | 'import';
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  archive_id: string;
  format_version: number;
  tables: { table: string; rows: number }[];
  rows_done: number;
  error_code: string | null;
  error_message: string | null;
  requested_by: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const JOB = `id, kind, status, archive_id, format_version, tables, rows_done, error_code, error_message, requested_by,
  created_at, started_at, finished_at`;

/** Thrown inside the load to roll it back with a reason. */
export class BrokenReference extends Error {
  constructor(
    readonly table: string,
    readonly column: string,
    readonly count: number,
  ) {
    super(`${count} rows of ${table}.${column} name a row the archive does not have`);
  }
}

/** Migration jobs, the tables' rows as JSON, and the all-or-nothing load. */
export class MigrationRepository {
  constructor(private readonly orm: Orm) {}

  async createJob(j: {
    id: string;
    kind: 'export' | 'import';
    archiveId: string;
    version: number;
    by: string;
    now: Date;
  }) {
    await this.sql()(
      `insert into stream_migration_jobs (id, kind, status, archive_id, format_version, tables, rows_done, requested_by, created_at)
       values (?, ?, 'queued', ?, ?, '[]', 0, ?, ?)`,
      [j.id, j.kind, j.archiveId, j.version, j.by, j.now],
    );
  }

  async job(id?: string): Promise<JobRecord | undefined> {
    const [row] = await this.sql()<JobRecord>(
      id
        ? `select ${JOB} from stream_migration_jobs where id = ?`
        : `select ${JOB} from stream_migration_jobs order by created_at desc, id desc limit 1`,
      id ? [id] : [],
    );
    return row;
  }

  async jobs(kind: string | undefined, limit: number, offset: number) {
    const rows = await this.sql()<JobRecord>(
      `select ${JOB} from stream_migration_jobs where (cast(? as text) is null or kind = ?) order by created_at desc, id desc limit ? offset ?`,
      [kind ?? null, kind ?? null, limit, offset],
    );
    const [count] = await this.sql()<{ n: string }>(
      `select count(*)::text as n from stream_migration_jobs where (cast(? as text) is null or kind = ?)`,
      [kind ?? null, kind ?? null],
    );
    return { rows, total: Number(count?.n ?? 0) };
  }

  async update(
    id: string,
    set: Partial<{
      status: string;
      tables: unknown;
      rows_done: number;
      error_code: string;
      error_message: string;
      started_at: Date;
      finished_at: Date;
    }>,
  ): Promise<void> {
    const entries = Object.entries(set);
    await this.sql()(`update stream_migration_jobs set ${entries.map(([k]) => `${k} = ?`).join(', ')} where id = ?`, [
      ...entries.map(([k, v]) => (k === 'tables' ? JSON.stringify(v) : v)),
      id,
    ]);
  }

  /** One table's rows as JSON text, in primary-key order, from a cursor. */
  tableRows(table: string): Promise<Readable> {
    return streamRows(this.orm, `select row_to_json(t)::text as j from ${quote(table)} t order by 1`, [], 1_000);
  }

  /** Tables of the scope that hold rows already. */
  async nonEmpty(): Promise<string[]> {
    const out: string[] = [];
    for (const { table } of MIGRATION_TABLES) {
      if ((await this.sql()(`select 1 from ${quote(table)} limit 1`)).length > 0) out.push(table);
    }
    return out;
  }

  /**
   * Loads every table in one transaction, then checks the references: a broken one (or any error)
   * rolls everything back. `rowsOf` yields a table's JSON rows in batches.
   */
  async load(
    rowsOf: (table: string) => AsyncIterable<string[]>,
    onTable: (table: string, rows: number) => Promise<void> | void,
  ): Promise<void> {
    await this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      for (const { table } of MIGRATION_TABLES) {
        let rows = 0;
        for await (const batch of rowsOf(table)) {
          if (batch.length === 0) continue;
          await sql(
            `insert into ${quote(table)} select * from json_populate_recordset(null::${quote(table)}, ?::json)`,
            [`[${batch.join(',')}]`],
          );
          rows += batch.length;
        }
        await onTable(table, rows);
      }
      await checkReferences(sql);
    });
  }

  private sql(): SqlExec {
    const conn = this.orm.em.fork().getConnection();
    return <T>(q: string, params: readonly unknown[] = []) => conn.execute<T[]>(q, [...params]);
  }
}

async function checkReferences(sql: SqlExec): Promise<void> {
  for (const { table, refs } of MIGRATION_TABLES) {
    for (const [column, parent, parentColumn] of refs) {
      const [row] = await sql<{ n: string }>(
        `select count(*)::text as n from ${quote(table)} c
          where c.${quote(column)} is not null
            and not exists (select 1 from ${quote(parent)} p where p.${quote(parentColumn)} = c.${quote(column)})`,
      );
      const n = Number(row?.n ?? 0);
      if (n > 0) throw new BrokenReference(table, column, n);
    }
  }
}

function quote(identifier: string): string {
  if (!/^[a-z_]+$/.test(identifier)) throw new Error(`not an identifier: ${identifier}`);
  return `"${identifier}"`;
}

export const newJobId = () => randomUUID();
