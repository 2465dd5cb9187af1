import { connect, type Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveEmbeddedSocket, type EmbeddedSocketServer } from './embedded-socket.server.js';

let db: PGlite;
let server: EmbeddedSocketServer;
const pools: pg.Pool[] = [];

function pool(): pg.Pool {
  const p = new pg.Pool({ connectionString: `postgres://postgres@${server.address}/postgres`, max: 4 });
  pools.push(p);
  return p;
}

/** A frontend message: type byte, length, body. */
function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
const cstr = (s: string) => Buffer.from(`${s}\0`, 'utf8');
const int16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

/** A raw protocol client, so a test can split one extended-protocol batch across two writes. */
async function rawClient(address: string) {
  const [host, port] = address.split(':') as [string, string];
  const socket: Socket = connect(Number(port), host);
  let received = Buffer.alloc(0);
  let waiter: (() => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    waiter?.();
  });
  /** Backend messages up to and including the next ReadyForQuery. */
  const untilReady = async (): Promise<{ type: string; body: Buffer }[]> => {
    for (;;) {
      const out: { type: string; body: Buffer }[] = [];
      let offset = 0;
      while (received.length - offset >= 5) {
        const length = received.readInt32BE(offset + 1);
        if (received.length - offset < 1 + length) break;
        const type = String.fromCharCode(received[offset] as number);
        out.push({ type, body: received.subarray(offset + 5, offset + 1 + length) });
        offset += 1 + length;
        if (type === 'Z') {
          received = received.subarray(offset);
          return out;
        }
      }
      await new Promise<void>((resolve) => (waiter = resolve));
    }
  };
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const startup = Buffer.concat([
    int32(196608),
    cstr('user'),
    cstr('postgres'),
    cstr('database'),
    cstr('postgres'),
    cstr(''),
  ]);
  socket.write(Buffer.concat([int32(startup.length + 4), startup]));
  await untilReady();
  return { socket, untilReady };
}

beforeAll(async () => {
  db = await PGlite.create();
  await db.exec('create table ledger (id serial primary key, who text not null, amount int not null)');
  server = await serveEmbeddedSocket(db);
}, 60_000);

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await server?.stop();
  await db?.close();
});

describe('embedded socket server', () => {
  it('runs a batch split across writes as one unit, even when another connection queries in between', async () => {
    const a = await rawClient(server.address);
    a.socket.write(message('P', cstr(''), cstr('select $1::int + $2::int as v'), int16(0)));
    await new Promise((r) => setTimeout(r, 50));
    // Another statement shape on another connection, sent while the first batch is half written.
    const other = pool().query<{ v: number }>('select $1::int + $2::int + $3::int + $4::int as v', [1, 1, 1, 1]);
    await new Promise((r) => setTimeout(r, 50));
    const param = Buffer.from('2');
    a.socket.write(
      Buffer.concat([
        message('B', cstr(''), cstr(''), int16(0), int16(2), int32(1), Buffer.from('1'), int32(1), param, int16(0)),
        message('E', cstr(''), int32(0)),
        message('S'),
      ]),
    );
    const replies = await a.untilReady();
    const errors = replies.filter((m) => m.type === 'E').map((m) => m.body.toString('utf8'));
    expect(errors).toEqual([]);
    const row = replies.find((m) => m.type === 'D');
    // DataRow: column count (2), then length (4) and text of the one value.
    expect(row?.body.subarray(6).toString('utf8')).toBe('3');
    expect((await other).rows[0]?.v).toBe(4);
    a.socket.destroy();
  });

  it('keeps concurrent extended-protocol batches of different shapes apart', async () => {
    const [a, b, c] = [pool(), pool(), pool()];
    const shapes = [
      (i: number) => a.query<{ v: number }>('select $1::int + $2::int as v', [i, 1]),
      (i: number) => b.query<{ v: number }>('select $1::int + $2::int + $3::int + $4::int as v', [i, 1, 1, 1]),
      (i: number) =>
        c.query<{ v: number }>('select $1::int + $2::int + $3::int + $4::int + $5::int + $6::int + $7::int as v', [
          i,
          1,
          1,
          1,
          1,
          1,
          1,
        ]),
    ];
    const runs = Array.from({ length: 300 }, (_, i) => {
      const shape = i % 3;
      return (shapes[shape] as (i: number) => Promise<pg.QueryResult<{ v: number }>>)(i).then((r) => ({
        i,
        shape,
        v: r.rows[0]?.v,
      }));
    });
    const results = await Promise.all(runs);
    for (const r of results) expect(r.v).toBe(r.i + [1, 3, 6][r.shape]!);
  });

  it('runs a transaction of one connection without statements of another inside it', async () => {
    const writer = pool();
    const other = pool();
    const client = await writer.connect();
    try {
      await client.query('begin');
      await client.query('insert into ledger (who, amount) values ($1, $2)', ['tx', 1]);
      // Queued behind the open transaction: it must see neither the row nor run inside the transaction.
      const outside = other.query<{ n: string }>('select count(*) as n from ledger where who = $1', ['tx']);
      await client.query('insert into ledger (who, amount) values ($1, $2)', ['tx', 2]);
      await client.query('rollback');
      expect((await outside).rows[0]?.n).toBe('0');
    } finally {
      client.release();
    }
  });

  it('rolls back the transaction of a connection that goes away, and keeps serving the others', async () => {
    const lost = new pg.Client({ connectionString: `postgres://postgres@${server.address}/postgres` });
    lost.on('error', () => undefined);
    await lost.connect();
    await lost.query('begin');
    await lost.query('insert into ledger (who, amount) values ($1, $2)', ['lost', 1]);
    const waiting = pool().query<{ n: string }>('select count(*) as n from ledger where who = $1', ['lost']);
    (lost as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    expect((await waiting).rows[0]?.n).toBe('0');
  });
});
