import { request } from 'node:http';
import pg from 'pg';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_NAMES } from '@duelkit/contract';
import { insertDuel } from '../../../test/support/duel-fixture.js';
import { marketsApi, type Body } from '../../../test/support/http.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { adminTokenOf } from '../tournaments/tournaments-close.test-kit.js';

let server: TestServer;
let admin: string;
let db: pg.Client;
const api = marketsApi(() => server);
const APP = '11111111-1111-4111-8111-111111111111';
/**
 * Rows seeded for the streamed export: 200,000 by default so the suite stays quick; the flat-memory
 * check runs unchanged on a million with REPORTS_CSV_ROWS=1000000 (docs/operations.md).
 */
const ROWS = Number(process.env['REPORTS_CSV_ROWS'] ?? 200_000);
let duelId: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await adminTokenOf(server);
  db = new pg.Client({ connectionString: server.database.url });
  await db.connect();
  duelId = await insertDuel(server.container.orm.em.fork().getConnection(), { builderAppId: APP });
  // A million trades in one statement: distinct times 1 ms apart, ten traders.
  await db.query(
    `insert into trades (id, duel_id, tx_hash, log_index, block_number, trader, side, option_index, collateral, fee, shares, created_at)
     select md5(i::text)::uuid, $1, '0x' || md5(i::text) || md5((i + 1)::text), i % 100, 1000 + i / 100,
            '0x' || lpad(to_hex(i % 10 + 1), 40, '0'), case when i % 4 = 0 then 'sell' else 'buy' end, i % 2,
            (i::numeric * 1000000000000), 0, (i::numeric * 2000000000000),
            timestamptz '2026-01-01T00:00:00Z' + i * interval '1 millisecond'
       from generate_series(1, ${ROWS}) i`,
    [duelId],
  );
}, 300_000);
afterAll(async () => {
  await db?.end();
  await server?.close();
});

/** Streams the report's CSV, keeping only the first lines, the last line, the count and the RSS peak. */
function streamCsv(
  path: string,
): Promise<{ lines: number; head: string[]; last: string; peakRss: number; firstByteMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let firstByteMs = -1;
    const url = new URL(`${server.marketsUrl}${path}`);
    const req = request(
      url,
      { headers: { 'x-builder-api-key': server.builderKey, authorization: `Bearer ${admin}`, accept: 'text/csv' } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
        let lines = 0;
        let rest = '';
        const head: string[] = [];
        let last = '';
        let peakRss = process.memoryUsage().rss;
        const sampler = setInterval(() => {
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
        }, 50);
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (firstByteMs < 0) firstByteMs = Date.now() - started;
          const parts = (rest + chunk).split('\n');
          rest = parts.pop() ?? '';
          for (const line of parts) {
            if (head.length < 3) head.push(line);
            last = line;
            lines++;
          }
        });
        res.on('end', () => {
          clearInterval(sampler);
          resolve({ lines, head, last, peakRss: Math.max(peakRss, process.memoryUsage().rss), firstByteMs });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The rows of a report page. */
const rowsOf = (page: { body: Body }) => page.body['data'] as Body[];
const csvLine = (row: Body | undefined, columns: string[]) =>
  columns.map((c) => (row?.[c] === null ? '' : String(row?.[c]))).join(',');

describe('admin reports', () => {
  it('streams a large CSV in flat memory, and its first and last rows are the pages’ ones', async () => {
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    const csv = await streamCsv('/svc/admin/reports/bets?order=asc');
    expect(csv.lines).toBe(ROWS + 1);
    expect(csv.peakRss - before).toBeLessThan(50 * 1024 * 1024);

    const columns = (csv.head[0] ?? '').split(',');
    expect(columns).toEqual([
      'id',
      'duelId',
      'trader',
      'side',
      'optionIndex',
      'collateral',
      'fee',
      'shares',
      'collateralStack',
      'txHash',
      'logIndex',
      'blockNumber',
      'builderAppId',
      'createdAt',
    ]);
    const first = await api('/svc/admin/reports/bets?order=asc&limit=2', { token: admin });
    expect(first.status).toBe(200);
    expect(csv.head[1]).toBe(csvLine(rowsOf(first)[0], columns));
    expect(csv.head[2]).toBe(csvLine(rowsOf(first)[1], columns));
    expect(rowsOf(first)[0]).toMatchObject({ createdAt: '2026-01-01T00:00:00.001Z', collateral: '1000000000000' });
    const lastPage = await api('/svc/admin/reports/bets?order=desc&limit=1', { token: admin });
    expect(csv.last).toBe(csvLine(rowsOf(lastPage)[0], columns));
    expect(rowsOf(lastPage)[0]?.['createdAt']).toBe(new Date(Date.UTC(2026, 0, 1) + ROWS).toISOString());
  }, 240_000);

  it('pages by keyset: pages follow each other without gaps or repeats, filters apply, cursors are checked', async () => {
    const q = '/svc/admin/reports/bets?order=asc&limit=100&from=2026-01-01T00:00:00.500Z&to=2026-01-01T00:00:00.750Z';
    const p1 = await api(q, { token: admin });
    expect(p1.body['data']).toHaveLength(100);
    expect(p1.body['hasMore']).toBe(true);
    const p2 = await api(`${q}&cursor=${p1.body['nextCursor']}`, { token: admin });
    const p3 = await api(`${q}&cursor=${p2.body['nextCursor']}`, { token: admin });
    expect(p3.body['data']).toHaveLength(50);
    expect(p3.body).toMatchObject({ hasMore: false, nextCursor: null });
    const times = [...rowsOf(p1), ...rowsOf(p2), ...rowsOf(p3)].map((r) => String(r['createdAt']));
    expect(new Set(times).size).toBe(250);
    expect(times[0]).toBe('2026-01-01T00:00:00.500Z');

    const sells = await api(`${q}&status=sell`, { token: admin });
    expect(rowsOf(sells).every((r) => r['side'] === 'sell')).toBe(true);
    const otherApp = await api(`/svc/admin/reports/bets?builderAppId=22222222-2222-4222-8222-222222222222`, {
      token: admin,
    });
    expect(otherApp.body['data']).toEqual([]);
    const app = await api(`/svc/admin/reports/bets?builderAppId=${APP}&limit=1`, { token: admin });
    expect(app.body['data'][0]['builderAppId']).toBe(APP);

    const mixed = await api(`/svc/admin/reports/bets?order=desc&cursor=${p1.body['nextCursor']}`, { token: admin });
    expect([mixed.status, mixed.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    const junk = await api('/svc/admin/reports/bets?cursor=junk', { token: admin });
    expect([junk.status, junk.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    const backwards = await api('/svc/admin/reports/bets?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', {
      token: admin,
    });
    expect([backwards.status, backwards.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    const badStatus = await api('/svc/admin/reports/duels?status=nope', { token: admin });
    expect(badStatus.status).toBe(400);
  });

  it('reports real rows written by the request extension, sign-ups, invites and the PnL job; every report answers JSON and CSV', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const invite = await api('/svc/admin/invite/create', { token: admin, body: { code: 'REPORTS-1', maxUses: 5 } });
    const challenge = await api('/svc/user/auth/eoa/challenge', { body: { address: account.address } });
    const message = challenge.body['message'] as string;
    const user = await api('/svc/user/auth/eoa/register', {
      body: {
        message,
        signature: await account.signMessage({ message }),
        username: 'rep_carol',
        inviteCode: 'REPORTS-1',
      },
    });
    const token = user.body['token'] as string;
    const creator = await api('/svc/user/requests', {
      token,
      body: { kind: 'creator', message: 'I run a football blog' },
    });
    expect(creator.status).toBe(201);
    const again = await api('/svc/user/requests', { token, body: { kind: 'creator', message: 'again' } });
    expect([again.status, again.body['code']]).toEqual([409, 'CONFLICT']);
    const league = await api('/svc/user/requests', { token, body: { kind: 'league', leagueId: 'premier-league' } });
    const tokenReq = await api('/svc/user/requests', {
      token,
      body: { kind: 'token', tokenName: 'Carol Coin', tokenSymbol: 'CRL' },
    });
    const decide = (id: string, body: unknown) => api(`/svc/admin/requests/${id}/decision`, { token: admin, body });
    expect((await decide(String(league.body['id']), { decision: 'approve' })).body['status']).toBe('approved');
    const tokenAddress = privateKeyToAccount(generatePrivateKey()).address;
    expect((await decide(String(tokenReq.body['id']), { decision: 'approve', tokenAddress })).status).toBe(200);
    expect((await decide(String(creator.body['id']), { decision: 'reject' })).body['code']).toBe('VALIDATION_FAILED');
    expect((await decide(String(creator.body['id']), { decision: 'reject', reason: 'not yet' })).body['status']).toBe(
      'rejected',
    );
    const twice = await decide(String(creator.body['id']), { decision: 'approve' });
    expect([twice.status, twice.body['code'], twice.body['details']]).toEqual([
      409,
      'INVALID_STATE',
      { status: 'rejected' },
    ]);
    expect(
      (await api(`/svc/admin/requests/${creator.body['id']}/decision`, { token, body: { decision: 'approve' } }))
        .status,
    ).toBe(401);
    await server.container.operations.requests.snapshotPnl(new Date(Date.UTC(2026, 0, 2)));

    const expectRows: Record<string, (rows: Body[]) => void> = {
      'creator-requests': (rows) =>
        expect(rows[0]).toMatchObject({ kind: 'creator', status: 'rejected', username: 'rep_carol' }),
      'league-requests': (rows) => expect(rows[0]).toMatchObject({ leagueId: 'premier-league', status: 'approved' }),
      'token-requests': (rows) => expect(rows[0]).toMatchObject({ tokenSymbol: 'CRL' }),
      'league-memberships': (rows) =>
        expect(rows[0]).toMatchObject({ leagueId: 'premier-league', userId: user.body['user']['id'] }),
      'launched-tokens': (rows) => expect(rows[0]).toMatchObject({ symbol: 'CRL', tokenAddress }),
      'invitation-usage': (rows) =>
        expect(rows[0]).toMatchObject({ kind: 'platform', code: 'REPORTS-1', invitationId: invite.body['id'] }),
      users: (rows) => expect(rows[0]).toMatchObject({ username: 'rep_carol', inviteCode: 'REPORTS-1' }),
      'pnl-snapshots': (rows) => expect(rows).toHaveLength(10),
      duels: (rows) => expect(rows[0]).toMatchObject({ duelId, builderAppId: APP }),
      bets: (rows) => expect(rows).toHaveLength(10),
    };
    for (const name of REPORT_NAMES) {
      const page = await api(`/svc/admin/reports/${name}?limit=10`, { token: admin });
      expect(page.status, name).toBe(200);
      expectRows[name]?.(page.body['data'] as Body[]);
      const csv = await fetch(`${server.marketsUrl}/svc/admin/reports/${name}?format=csv`, {
        headers: { 'x-builder-api-key': server.builderKey, authorization: `Bearer ${admin}` },
      });
      expect(csv.headers.get('content-type'), name).toMatch(/^text\/csv/);
      if (name !== 'bets')
        expect((await csv.text()).trim().split('\n').length, name).toBe(1 + (page.body['data'] as Body[]).length);
      else await csv.body?.cancel();
      expect((await api(`/svc/admin/reports/${name}`)).status, name).toBe(401);
      expect((await api(`/svc/admin/reports/${name}`, { token })).status, name).toBe(401);
    }
  }, 120_000);
});
