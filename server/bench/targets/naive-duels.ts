import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

// The naive handler the markets bench compares against: node:http + pg doing the obvious thing
// per request — the same filter and sort with count(*) and OFFSET, no cache.
const SORT: Record<string, string> = {
  createdAt: 'created_at',
  startTime: 'start_time',
  endTime: 'end_time',
  extMarketVolume24h: 'ext_volume24h',
};
const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: 10 });
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
  const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 20)));
  const sortBy = url.searchParams.get('sortBy') ?? 'createdAt';
  const column = SORT[sortBy] ?? 'created_at';
  const dir = url.searchParams.get('sortOrder') === 'asc' ? 'asc' : 'desc';
  const nulls = sortBy === 'extMarketVolume24h' ? (dir === 'desc' ? ' nulls last' : ' nulls first') : '';
  const where = `where not is_private and chain_state <> 'failed'${sortBy === 'extMarketVolume24h' ? ' and is_canonical' : ''}`;
  Promise.all([
    pool.query(`select * from duels ${where} order by ${column} ${dir}${nulls}, id ${dir} limit $1 offset $2`, [
      limit,
      (page - 1) * limit,
    ]),
    pool.query<{ n: string }>(`select count(*) as n from duels ${where}`),
  ]).then(
    ([rows, count]) => {
      const total = Number(count.rows[0]?.n ?? 0);
      const body = JSON.stringify({
        data: rows.rows,
        pagination: { page, limit, total, hasMore: page * limit < total },
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    },
    (err: unknown) => {
      res.writeHead(500);
      res.end(String(err));
    },
  );
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
// Exit on SIGTERM through process.exit, so a CPU profile (BENCH_CPU_PROF_DIR) is written.
process.on('SIGTERM', () => process.exit(0));
