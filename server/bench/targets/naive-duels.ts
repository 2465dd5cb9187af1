import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

// The naive handler the markets bench compares against: node:http + pg doing the obvious thing
// per request — the same filter with count(*) and OFFSET, no cache.
const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: 10 });
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
  const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 20)));
  Promise.all([
    pool.query('select * from duels where not is_private order by created_at desc, id desc limit $1 offset $2', [
      limit,
      (page - 1) * limit,
    ]),
    pool.query<{ n: string }>('select count(*) as n from duels where not is_private'),
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
