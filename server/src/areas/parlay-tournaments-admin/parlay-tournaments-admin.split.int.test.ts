import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChainNode, type ChainNode } from '../../../test/support/chain-node.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import type { Body } from '../../../test/support/http.js';
import { startServerProcess, type ServerProcess } from '../../../test/support/server-process.js';
import { startTcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.js';
import { hashPassword } from '../identity/admin-auth.service.js';
import { tournamentPoolId } from '../tournaments/vault-pools.js';

/*
 * The hosts in two processes (SERVE_HOSTS=tournaments and SERVE_HOSTS=markets) on one database
 * and one chain node; the markets process reaches the tournaments process through a TCP proxy
 * the test cuts to take the tournaments host away.
 */

const UNIT = 10n ** 18n;
const builderKey = `dk_split_${randomBytes(12).toString('hex')}`;
const serviceToken = randomBytes(32).toString('base64url');
const cleanup: (() => Promise<unknown>)[] = [];
let node: ChainNode, database: TestDatabase, proxy: TcpProxy;
let tournamentsHost: ServerProcess, marketsHost: ServerProcess;
let db: pg.Client;
let adminToken: string;

async function call(base: string, path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = { 'x-builder-api-key': builderKey };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers['authorization'] = `Bearer ${init.token}`;
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Body };
}
const admin = (path: string, init: { method?: string; body?: unknown } = {}) =>
  call(marketsHost.marketsUrl, `/svc/admin/parlay-tournaments${path}`, { ...init, token: adminToken });

/** A LIVE tournament only its creator entered, written as part 1's create writes it. */
async function liveTournament(): Promise<string> {
  const id = randomBytes(12).toString('hex');
  const owner = privateKeyToAccount(generatePrivateKey()).address;
  const tx = `0x${randomBytes(32).toString('hex')}`;
  const starts = new Date(Date.now() + 24 * 3_600_000);
  await db.query(
    `insert into "tournaments" ("id", "name", "sport", "game_type", "format", "type", "status", "stake_asset", "owner_wallet",
       "total_stages", "min_entries", "max_entrants", "chips_per_stage", "group_size", "advance_per_group", "fixtures_per_stage",
       "league_id", "fee_bps", "payout_bps", "creator_deposit_tx_hash", "pool_id", "starts_at", "ends_at", "created_at", "updated_at")
     values ($1, 'Split cup', 'Football', 'CLASSIC', 'KNOCKOUT', 'COMMUNITY', 'LIVE', 'credits', $2, 1, 2, 2, 1000, 4, 2, 2, 8, 0,
       '[10000]'::jsonb, $3, $4, $5, $6, now(), now())`,
    [id, owner, tx, tournamentPoolId(id), starts, new Date(starts.getTime() + 3_600_000)],
  );
  await db.query(
    `insert into "tournament_deposits" ("tx_hash", "tournament_id", "stage_index", "wallet", "amount", "purpose", "created_at")
     values ($1, $2, 1, $3, $4, 'create', now())`,
    [tx, id, owner, (10n * UNIT).toString()],
  );
  await db.query(
    `insert into "tournament_entries" ("id", "tournament_id", "wallet", "is_creator", "seq", "deposit_tx_hash", "entered_at")
     values ($1, $2, $3, true, 1, $4, now())`,
    [randomUUID(), id, owner, tx],
  );
  return id;
}

async function statusOf(id: string) {
  const { rows } = await db.query<{ status: string; refunds: number }>(
    `select t."status", (select count(*)::int from "merkle_distributions" m where m."pool_id" = t."pool_id") as "refunds"
       from "tournaments" t where t."id" = $1`,
    [id],
  );
  return rows[0];
}

beforeAll(async () => {
  node = await startChainNode();
  cleanup.push(() => node.stop());
  database = await createTestDatabase();
  cleanup.push(() => database.drop());
  const shared = {
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '3',
    CHAIN_RPC_URL: node.rpcUrl,
    CHAIN_CONTRACTS: node.contracts,
    CHAIN_OPERATOR_KEY: node.operatorKey,
    CHAIN_CONFIRMATIONS: '0',
    JWT_SECRET: randomBytes(32).toString('base64url'),
    WALLET_MASTER_KEY: `0x${randomBytes(32).toString('hex')}`,
    TOURNAMENTS_SERVICE_TOKEN: serviceToken,
    DUELKIT_DEV_BUILDER_KEY: builderKey,
    BUILDER_KEY_CACHE_MS: '0',
    JOBS_ENABLED: 'false',
  };
  tournamentsHost = await startServerProcess({ ...shared, SERVE_HOSTS: 'tournaments' });
  cleanup.push(() => tournamentsHost.stop('SIGKILL'));
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(tournamentsHost.tournamentsUrl).port) });
  cleanup.push(() => proxy.close());
  marketsHost = await startServerProcess({
    ...shared,
    SERVE_HOSTS: 'markets',
    TOURNAMENTS_INTERNAL_URL: `http://127.0.0.1:${proxy.port}`,
    TOURNAMENTS_ADMIN_TIMEOUT_MS: '2000',
    TOURNAMENTS_ADMIN_BREAKER_COOLDOWN_MS: '1000',
  });
  cleanup.push(() => marketsHost.stop('SIGKILL'));
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
  cleanup.push(() => db.end());
  const email = `split-${randomBytes(4).toString('hex')}@example.com`;
  await db.query(
    `insert into "admins" ("id", "email", "password_hash", "two_factor_enabled", "backup_code_hashes", "created_at")
     values ($1, $2, $3, false, '{}', now())`,
    [randomUUID(), email, await hashPassword('split admin password')],
  );
  const login = await call(marketsHost.marketsUrl, '/svc/admin/auth/login', {
    body: { email, password: 'split admin password' },
  });
  adminToken = login.body['token'] as string;
}, 240_000);

afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
});

describe('markets-host admin with the hosts in two processes', () => {
  it('reaches the tournaments host over HTTP with the service credential', async () => {
    expect(marketsHost.tournamentsUrl).toBe('');
    const status = await admin('/config-status');
    expect(status.body).toMatchObject({
      mode: 'http',
      tournamentsUrl: `http://127.0.0.1:${proxy.port}`,
      credentialConfigured: true,
      reachable: true,
      breaker: { state: 'closed', consecutiveFailures: 0 },
      error: null,
    });
    // The internal routes take the service credential, nothing else.
    const direct = await fetch(`${tournamentsHost.tournamentsUrl}/internal/tournaments-admin/ping`);
    expect([direct.status, ((await direct.json()) as Body)['code']]).toEqual([401, 'UNAUTHENTICATED']);

    const id = await liveTournament();
    const removable = await admin('/tournaments/removable?limit=100');
    expect((removable.body['tournaments'] as Body[]).map((t): unknown => t['id'])).toContain(id);
    const cancelled = await admin(`/tournaments/${id}/cancel`, { body: { reason: 'Cancelled from the markets host' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      tournamentId: id,
      status: 'CANCELED',
      alreadyCancelled: false,
      refund: { total: (10n * UNIT).toString(), leafCount: 1 },
    });
    expect(cancelled.body['cancelledBy']).toMatch(/^admin:/);
    // A refusal of the tournaments side keeps its code and does not count against the breaker.
    const unknown = await admin(`/cancel-requests/${randomUUID()}/reject`, {
      method: 'PATCH',
      body: { reason: 'none' },
    });
    expect([unknown.status, unknown.body['code']]).toEqual([404, 'NOT_FOUND']);
    expect((await admin('/config-status')).body['breaker']).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it('fails cleanly with 503 TOURNAMENTS_UNAVAILABLE while the tournaments host is away, changing nothing', async () => {
    const id = await liveTournament();
    await proxy.cut();
    const refused = await admin(`/tournaments/${id}/cancel`, { body: { reason: 'While the host is down' } });
    expect([refused.status, refused.body['code'], refused.body['details']['reason']]).toEqual([
      503,
      'TOURNAMENTS_UNAVAILABLE',
      'unreachable',
    ]);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(await statusOf(id)).toEqual({ status: 'LIVE', refunds: 0 });

    const status = await admin('/config-status');
    expect(status.body).toMatchObject({ reachable: false, error: { code: 'TOURNAMENTS_UNAVAILABLE' } });
    // Three failures in a row open the breaker: calls are refused at once, without trying.
    const list = await admin('/cancel-requests');
    expect([list.status, list.body['code']]).toEqual([503, 'TOURNAMENTS_UNAVAILABLE']);
    const paused = await admin(`/tournaments/${id}/discard`, { body: {} });
    expect([paused.status, paused.body['details']['reason']]).toEqual([503, 'breaker-open']);
    expect((await admin('/config-status')).body['breaker']['state']).toBe('open');
    expect(await statusOf(id)).toEqual({ status: 'LIVE', refunds: 0 });

    await proxy.restore();
    // After the cool-down one trial call goes through and closes the breaker.
    const deadline = Date.now() + 20_000;
    let back = await admin('/config-status');
    while (!back.body['reachable'] && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      back = await admin('/config-status');
    }
    expect(back.body).toMatchObject({ reachable: true, breaker: { state: 'closed' } });
    const retried = await admin(`/tournaments/${id}/discard`, { body: { reason: 'Retried after the outage' } });
    expect(retried.body).toMatchObject({ tournamentId: id, status: 'CANCELED', alreadyDiscarded: false });
    expect(await statusOf(id)).toEqual({ status: 'CANCELED', refunds: 1 });
  });
});
