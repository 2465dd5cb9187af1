import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { getAddress } from 'viem';
import type { ReportName } from '@duelkit/contract';
import { DomainError } from '../../errors.js';
import { columnsOf, REPORTS, type ColumnType, type ReportDefinition } from './report.columns.js';
import type { ReportFilter, ReportRow } from './report.repository.js';

/** What the service needs of storage (ReportRepository on PostgreSQL). */
export interface ReportReader {
  page(def: ReportDefinition, filter: ReportFilter, limit: number): Promise<ReportRow[]>;
  stream(def: ReportDefinition, filter: ReportFilter): Promise<Readable>;
}

/** A report request as the contract parses it. */
export interface ReportQuery {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly builderAppId?: string | undefined;
  readonly status?: string | undefined;
  readonly order: 'asc' | 'desc';
  readonly cursor?: string | undefined;
  readonly limit: number;
}

const checksummed = new Map<string, string>();

/** EIP-55 form; memoised, since a report repeats the same few thousand addresses. */
function checksum(value: string): string {
  let out = checksummed.get(value);
  if (out === undefined) {
    out = getAddress(value);
    if (checksummed.size >= 50_000) checksummed.clear();
    checksummed.set(value, out);
  }
  return out;
}

/** A database value as text: strings as they are, numbers and booleans printed, anything else as JSON. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function wireValue(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'time':
      return (value instanceof Date ? value : new Date(textOf(value))).toISOString();
    case 'address':
      return checksum(textOf(value));
    case 'int':
      return Number(value);
    case 'bool':
      return value === true || value === 't' || value === 'true';
    case 'text':
      return textOf(value);
  }
}

/** A row as the contract's row schema has it. */
export function toWire(def: ReportDefinition, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, [, type]] of Object.entries(def.columns)) out[name] = wireValue(row[name], type);
  return out;
}

/**
 * §4.16 reports (docs/operations.md, "Reports"): each a fixed set of columns over the database,
 * filtered by time range, builder app and status, in keyset pages or as one CSV streamed from a
 * cursor (memory stays flat whatever the size; the first line leaves before the last row is read).
 */
export class ReportService {
  constructor(private readonly reader: ReportReader) {}

  async page(name: ReportName, query: ReportQuery) {
    const def = REPORTS[name];
    const filter = this.filter(name, query, true);
    const rows = await this.reader.page(def, filter, query.limit + 1);
    const hasMore = rows.length > query.limit;
    const pageRows = rows.slice(0, query.limit);
    const last = pageRows.at(-1);
    return {
      data: pageRows.map((r) => toWire(def, r)),
      nextCursor: hasMore && last ? encodeCursor(fingerprint(name, query), last.__t, last.__k) : null,
      hasMore,
    };
  }

  /** The CSV of every row the filters select (from the cursor position, when one is given). */
  async csv(name: ReportName, query: ReportQuery): Promise<Readable> {
    const def = REPORTS[name];
    const rows = await this.reader.stream(def, this.filter(name, query, true));
    const columns = columnsOf(name);
    const toRecord = new Transform({
      objectMode: true,
      transform(row: Record<string, unknown>, _enc, done) {
        done(null, toWire(def, row));
      },
    });
    const csv = stringify({
      header: true,
      columns,
      cast: { boolean: (v) => (v ? 'true' : 'false'), date: (v) => v.toISOString() },
    });
    const chunks = chunked(64 * 1024);
    // Errors travel downstream, and a consumer that stops early closes the cursor.
    rows.once('error', (err) => toRecord.destroy(err));
    toRecord.once('error', (err) => csv.destroy(err));
    csv.once('error', (err) => chunks.destroy(err));
    chunks.once('close', () => {
      rows.destroy();
      toRecord.destroy();
      csv.destroy();
    });
    return rows.pipe(toRecord).pipe(csv).pipe(chunks);
  }

  private filter(name: ReportName, query: ReportQuery, withCursor: boolean): ReportFilter {
    const from = query.from ? new Date(query.from) : undefined;
    const to = query.to ? new Date(query.to) : undefined;
    if (from && to && from.getTime() >= to.getTime()) {
      throw new DomainError('VALIDATION_FAILED', '`from` must be before `to`', {
        fieldErrors: { 'query.from': ['must be before `to`'] },
      });
    }
    const after = withCursor && query.cursor ? decodeCursor(query.cursor, fingerprint(name, query)) : undefined;
    return { from, to, builderAppId: query.builderAppId, status: query.status, order: query.order, after };
  }
}

/**
 * Gathers the CSV's lines into chunks of about `size` bytes: one write per line would cost a
 * system call and a chunk header each on the socket.
 */
function chunked(size: number): Transform {
  let pending: Buffer[] = [];
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer | string, _enc, done) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      pending.push(buf);
      bytes += buf.length;
      if (bytes >= size) {
        const out = Buffer.concat(pending, bytes);
        pending = [];
        bytes = 0;
        done(null, out);
      } else done();
    },
    flush(done) {
      done(null, bytes > 0 ? Buffer.concat(pending, bytes) : undefined);
    },
  });
}

/** What a cursor is only valid with: the report, its filters and the order. */
function fingerprint(name: string, q: ReportQuery): string {
  return createHash('sha256')
    .update(JSON.stringify([name, q.from ?? null, q.to ?? null, q.builderAppId ?? null, q.status ?? null, q.order]))
    .digest('base64url')
    .slice(0, 16);
}

function encodeCursor(f: string, t: string, k: string): string {
  return Buffer.from(JSON.stringify({ f, t, k })).toString('base64url');
}

function decodeCursor(cursor: string, f: string): { t: string; k: string } {
  const bad = (why: string) =>
    new DomainError('VALIDATION_FAILED', `Bad cursor: ${why}`, { fieldErrors: { 'query.cursor': [why] } });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad('not a cursor this report gave');
  }
  const c = parsed as { f?: unknown; t?: unknown; k?: unknown };
  if (typeof c.t !== 'string' || typeof c.k !== 'string' || typeof c.f !== 'string') {
    throw bad('not a cursor this report gave');
  }
  if (!/^\d{4}-\d{2}-\d{2}[ T][0-9:.]+([+-]\d{2}(:?\d{2})?|Z)?$/.test(c.t)) throw bad('not a cursor this report gave');
  if (c.f !== f) throw bad('it belongs to other filters or another order: start again without a cursor');
  return { t: c.t, k: c.k };
}
