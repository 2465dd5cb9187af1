import type { Readable } from 'node:stream';
import type { Orm } from '../../platform/db/orm.js';
import { streamRows } from '../../platform/db/cursor.sql.js';
import type { ReportDefinition } from './report.columns.js';

/** The filters of one report read, already checked. */
export interface ReportFilter {
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
  readonly builderAppId?: string | undefined;
  readonly status?: string | undefined;
  readonly order: 'asc' | 'desc';
  /** The keyset position: rows strictly after it in `order`. */
  readonly after?: { readonly t: string; readonly k: string } | undefined;
}

/** A row as read: the report's columns, plus its time (text, full precision) and key for the keyset. */
export type ReportRow = Record<string, unknown> & { readonly __t: string; readonly __k: string };

function statement(
  def: ReportDefinition,
  f: ReportFilter,
  limit: number | undefined,
): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (def.where) where.push(def.where);
  if (f.from) {
    where.push(`${def.time} >= ?`);
    params.push(f.from);
  }
  if (f.to) {
    where.push(`${def.time} < ?`);
    params.push(f.to);
  }
  if (f.builderAppId) {
    where.push(`${def.builder} = ?::uuid`);
    params.push(f.builderAppId);
  }
  if (f.status !== undefined && def.status) {
    where.push(`${def.status} = ?`);
    params.push(f.status);
  }
  const dir = f.order === 'asc' ? 'asc' : 'desc';
  if (f.after) {
    where.push(`(${def.time}, ${def.key}) ${dir === 'asc' ? '>' : '<'} (?::timestamptz, ?)`);
    params.push(f.after.t, f.after.k);
  }
  const columns = Object.entries(def.columns).map(([name, [expr]]) => `${expr} as "${name}"`);
  const sql =
    `select ${columns.join(', ')}, (${def.time})::text as "__t", ${def.key} as "__k" from ${def.from}` +
    (where.length ? ` where ${where.join(' and ')}` : '') +
    ` order by ${def.time} ${dir}, ${def.key} ${dir}` +
    (limit === undefined ? '' : ` limit ${Math.trunc(limit)}`);
  return { sql, params };
}

/** The reads of §4.16's reports: a keyset page, or every selected row from a cursor. */
export class ReportRepository {
  constructor(private readonly orm: Orm) {}

  async page(def: ReportDefinition, filter: ReportFilter, limit: number): Promise<ReportRow[]> {
    const { sql, params } = statement(def, filter, limit);
    return this.orm.em.fork().getConnection().execute<ReportRow[]>(sql, params);
  }

  /** Every row the filter selects, as an object stream read from a server-side cursor. */
  stream(def: ReportDefinition, filter: ReportFilter): Promise<Readable> {
    const { sql, params } = statement(def, { ...filter, after: filter.after }, undefined);
    return streamRows(this.orm, sql, params, 250);
  }
}
