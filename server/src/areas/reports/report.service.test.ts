import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { columnsOf, type ReportDefinition } from './report.columns.js';
import type { ReportFilter, ReportRow } from './report.repository.js';
import { ReportService, toWire, type ReportQuery } from './report.service.js';

const U = 10n ** 18n;
const T0 = Date.UTC(2026, 10, 1);
const TRADER = `0x${'ab'.repeat(20)}`;
const pgTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '+00');

/** A trade as the bets report's SQL reads it: database values, plus the keyset's time and key. */
function bet(n: number, atMs = T0 + n * 60_000): ReportRow {
  return {
    __t: pgTime(atMs),
    __k: `k${String(n).padStart(4, '0')}`,
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    duelId: `0x${'d1'.repeat(32)}`,
    trader: TRADER,
    side: n % 2 ? 'sell' : 'buy',
    optionIndex: '1',
    collateral: (123_456_789n * U).toString(),
    fee: '0',
    shares: U.toString(),
    collateralStack: 'usdc',
    txHash: `0x${'ee'.repeat(32)}`,
    logIndex: n,
    blockNumber: '18446744073709551617',
    builderAppId: null,
    createdAt: new Date(atMs),
  };
}

/** Rows in the keyset order the SQL gives: (time, key) ascending or descending, strictly after the cursor. */
class MemoryReader {
  rows: ReportRow[] = [];
  filters: ReportFilter[] = [];
  limits: number[] = [];
  streamed: Readable | null = null;
  /** Rows the stream has handed out so far. */
  pulled = 0;
  private select(f: ReportFilter) {
    const cmp = (a: ReportRow, b: { __t: string; __k: string }) =>
      a.__t === b.__t ? a.__k.localeCompare(b.__k) : a.__t.localeCompare(b.__t);
    const sign = f.order === 'asc' ? 1 : -1;
    const after = f.after && { __t: f.after.t, __k: f.after.k };
    return this.rows.filter((r) => !after || sign * cmp(r, after) > 0).sort((a, b) => sign * cmp(a, b));
  }
  page(_def: ReportDefinition, f: ReportFilter, limit: number) {
    this.filters.push(f);
    this.limits.push(limit);
    return Promise.resolve(this.select(f).slice(0, limit));
  }
  stream(_def: ReportDefinition, f: ReportFilter) {
    this.filters.push(f);
    const rows = this.select(f);
    const counted = function* (this: MemoryReader) {
      for (const row of rows) {
        this.pulled++;
        yield row;
      }
    }.call(this);
    this.streamed = Readable.from(counted);
    return Promise.resolve(this.streamed);
  }
}

/** A duels-report row with a 10,000-character question: a few fill a 64 KiB chunk. */
function wideDuel(n: number): ReportRow {
  return {
    __t: pgTime(T0 + n * 60_000),
    __k: `k${String(n).padStart(4, '0')}`,
    duelId: `0x${n}`,
    question: 'q'.repeat(10_000),
    isPrivate: false,
    createdAt: new Date(T0 + n * 60_000),
  };
}

function setup(n = 0) {
  const reader = new MemoryReader();
  reader.rows = Array.from({ length: n }, (_, i) => bet(i + 1));
  return { reader, service: new ReportService(reader) };
}

const q = (over: Partial<ReportQuery> = {}): ReportQuery => ({ order: 'desc', limit: 20, ...over });

async function refusal(p: Promise<unknown>) {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof DomainError ? { code: e.code, fields: Object.keys(e.fieldErrors ?? {}) } : String(e);
  }
}

async function text(stream: Readable): Promise<{ body: string; chunks: number[] }> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return { body: Buffer.concat(chunks).toString('utf8'), chunks: chunks.map((c) => c.length) };
}

describe('ReportService', () => {
  it('pages by keyset: every row once, in order, the last page without a cursor', async () => {
    const { service } = setup(7);
    for (const order of ['asc', 'desc'] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      for (;;) {
        const page = await service.page('bets', q({ order, limit: 3, cursor }));
        pages++;
        seen.push(...page.data.map((r) => r.id as string));
        if (!page.hasMore) {
          expect(page.nextCursor).toBeNull();
          break;
        }
        cursor = page.nextCursor ?? undefined;
      }
      const ids = Array.from({ length: 7 }, (_, i) => bet(i + 1).id as string);
      expect(seen).toEqual(order === 'asc' ? ids : ids.reverse());
      expect(pages).toBe(3);
    }
  });

  it('breaks ties of time by the row key', async () => {
    const { reader, service } = setup();
    reader.rows = [bet(3, T0), bet(1, T0), bet(2, T0)];
    const first = await service.page('bets', q({ order: 'asc', limit: 2 }));
    const rest = await service.page('bets', q({ order: 'asc', limit: 2, cursor: first.nextCursor ?? undefined }));
    expect([...first.data, ...rest.data].map((r) => r.logIndex)).toEqual([1, 2, 3]);
  });

  it('reads one row more than the page to know whether more follow, and no cursor on an exact fit', async () => {
    const { reader, service } = setup(3);
    const page = await service.page('bets', q({ limit: 3 }));
    expect(reader.limits).toEqual([4]);
    expect(page).toMatchObject({ hasMore: false, nextCursor: null });
    expect(page.data).toHaveLength(3);
  });

  it('writes rows the way the contract has them: checksummed addresses, integers, ISO times, exact amounts', async () => {
    const { service } = setup(1);
    const [row] = (await service.page('bets', q())).data;
    expect(row).toEqual({
      id: bet(1).id,
      duelId: `0x${'d1'.repeat(32)}`,
      trader: getAddress(TRADER),
      side: 'sell',
      optionIndex: 1,
      collateral: (123_456_789n * U).toString(),
      fee: '0',
      shares: U.toString(),
      collateralStack: 'usdc',
      txHash: `0x${'ee'.repeat(32)}`,
      logIndex: 1,
      blockNumber: '18446744073709551617',
      builderAppId: null,
      createdAt: new Date(T0 + 60_000).toISOString(),
    });
    expect(Object.keys(row!)).toEqual(columnsOf('bets'));
  });

  it('reads PostgreSQL booleans and timestamp text, and keeps nulls', async () => {
    const { REPORTS } = await import('./report.columns.js');
    const wire = toWire(REPORTS.duels, {
      isPrivate: 't',
      startTime: '2026-11-01 10:00:00+00',
      endTime: null,
      uniqueParticipants: '12',
      creatorAddress: TRADER.toUpperCase().replace('0X', '0x'),
    });
    expect(wire).toMatchObject({
      isPrivate: true,
      startTime: '2026-11-01T10:00:00.000Z',
      endTime: null,
      uniqueParticipants: 12,
      creatorAddress: getAddress(TRADER),
      question: null,
    });
    expect(toWire(REPORTS.duels, { isPrivate: false }).isPrivate).toBe(false);
    expect(toWire(REPORTS.duels, { isPrivate: 'f' }).isPrivate).toBe(false);
  });

  it('passes the filters to storage as dates, and refuses a range whose start is not before its end', async () => {
    const { reader, service } = setup();
    await service.page(
      'bets',
      q({ from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z', status: 'buy', builderAppId: 'app' }),
    );
    expect(reader.filters[0]).toEqual({
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-11-02T00:00:00Z'),
      builderAppId: 'app',
      status: 'buy',
      order: 'desc',
      after: undefined,
    });
    const same = q({ from: '2026-11-01T00:00:00Z', to: '2026-11-01T00:00:00Z' });
    expect(await refusal(service.page('bets', same))).toEqual({ code: 'VALIDATION_FAILED', fields: ['query.from'] });
    expect(await refusal(service.csv('bets', same))).toEqual({ code: 'VALIDATION_FAILED', fields: ['query.from'] });
    expect(reader.filters).toHaveLength(1);
  });

  it('refuses a cursor with other filters, another order or another report', async () => {
    const { service } = setup(5);
    const { nextCursor } = await service.page('bets', q({ limit: 2, status: 'buy' }));
    const cursor = nextCursor ?? undefined;
    expect(await refusal(service.page('bets', q({ limit: 2, status: 'buy', cursor })))).toBe('ok');
    const refused = { code: 'VALIDATION_FAILED', fields: ['query.cursor'] };
    expect(await refusal(service.page('bets', q({ limit: 2, status: 'sell', cursor })))).toEqual(refused);
    expect(await refusal(service.page('bets', q({ limit: 2, status: 'buy', order: 'asc', cursor })))).toEqual(refused);
    expect(await refusal(service.page('bets', q({ limit: 5, status: 'buy', cursor })))).toBe('ok'); // limit is free
    expect(await refusal(service.page('duels', q({ limit: 2, status: 'buy', cursor })))).toEqual(refused);
  });

  it('refuses cursors it did not give: garbage, missing fields, a time that is not a timestamp', async () => {
    const { service } = setup(3);
    const { nextCursor } = await service.page('bets', q({ limit: 1 }));
    const decoded = JSON.parse(Buffer.from(nextCursor!, 'base64url').toString()) as { f: string };
    const forge = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const refused = { code: 'VALIDATION_FAILED', fields: ['query.cursor'] };
    for (const cursor of [
      'not-base64-json',
      forge({ f: decoded.f, t: 1, k: 'k' }),
      forge({ f: decoded.f, t: "2026-11-01'; drop table trades; --", k: 'k' }),
    ]) {
      expect(await refusal(service.page('bets', q({ limit: 1, cursor })))).toEqual(refused);
    }
    expect(await refusal(service.page('bets', q({ limit: 1, cursor: forge({ ...decoded, k: 'k0001' }) })))).toBe('ok');
  });

  it('streams every selected row as CSV: a header of the contract’s columns, then one line per row', async () => {
    const { reader, service } = setup();
    reader.rows = [bet(1), bet(2)];
    const { body } = await text(await service.csv('bets', q({ order: 'asc' })));
    const lines = body.trimEnd().split('\n');
    expect(lines[0]).toBe(columnsOf('bets').join(','));
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(
      [
        bet(1).id,
        `0x${'d1'.repeat(32)}`,
        getAddress(TRADER),
        'sell',
        1,
        (123_456_789n * U).toString(),
        0,
        U.toString(),
        'usdc',
        `0x${'ee'.repeat(32)}`,
        1,
        '18446744073709551617',
        '',
        new Date(T0 + 60_000).toISOString(),
      ].join(','),
    );
  });

  it('writes booleans as true/false in CSV and continues from a cursor', async () => {
    const { reader, service } = setup();
    reader.rows = [bet(1), bet(2), bet(3)];
    const { nextCursor } = await service.page('bets', q({ order: 'asc', limit: 1 }));
    const { body } = await text(await service.csv('bets', q({ order: 'asc', cursor: nextCursor ?? undefined })));
    expect(
      body
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[10]),
    ).toEqual(['2', '3']);

    const duels = setup();
    duels.reader.rows = [{ __t: pgTime(T0), __k: 'a', duelId: '0x1', isPrivate: 't' }];
    const csv = (await text(await duels.service.csv('duels', q()))).body.split('\n')[1]!;
    expect(csv.split(',')[columnsOf('duels').indexOf('isPrivate')]).toBe('true');
  });

  it('sends CSV in chunks of at least 64 KiB, the last one holding the rest', async () => {
    const { reader, service } = setup();
    reader.rows = Array.from({ length: 20 }, (_, i) => wideDuel(i));
    const { body, chunks } = await text(await service.csv('duels', q()));
    expect(body.split('\n')).toHaveLength(22);
    expect(chunks.length).toBeGreaterThan(2);
    // Whole lines are gathered until 64 KiB is reached, so a chunk overshoots by less than a line.
    expect(chunks.slice(0, -1).every((n) => n >= 64 * 1024 && n < 64 * 1024 + 10_100)).toBe(true);
    expect(chunks.reduce((a, b) => a + b, 0)).toBe(Buffer.byteLength(body));
  });

  it('closes the source when the consumer stops early, and passes a source failure to the consumer', async () => {
    const { reader, service } = setup();
    reader.rows = Array.from({ length: 200 }, (_, i) => wideDuel(i));
    const out = await service.csv('duels', q());
    for await (const _ of out) break;
    await finished(reader.streamed!).catch(() => undefined);
    expect(reader.streamed?.destroyed).toBe(true);
    expect(reader.pulled).toBeLessThan(200);

    const failing = setup();
    failing.reader.stream = () =>
      Promise.resolve(
        new Readable({
          objectMode: true,
          read() {
            this.destroy(new Error('connection lost'));
          },
        }),
      );
    await expect(text(await failing.service.csv('bets', q()))).rejects.toThrow('connection lost');
  });
});
