import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { startChainNode, type ChainNode } from '../../../test/support/chain-node.js';
import { createTestDatabase } from '../../../test/support/database.js';
import { marketsApi, signUpWallet, type Body } from '../../../test/support/http.js';
import { startServerProcess, type ServerProcess } from '../../../test/support/server-process.js';
import { startTcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.js';
import type { TestServer } from '../../../test/support/test-server.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
});

async function proxyTo(port: number): Promise<TcpProxy> {
  const proxy = await startTcpProxy({ host: '127.0.0.1', port });
  cleanup.push(() => proxy.close());
  return proxy;
}

async function serverProcess(env: Record<string, string>): Promise<{ server: ServerProcess; key: string }> {
  const key = env['DUELKIT_DEV_BUILDER_KEY'] ?? `dk_outage_${randomBytes(12).toString('hex')}`;
  const server = await startServerProcess({
    DUELKIT_DEV_BUILDER_KEY: key,
    BUILDER_KEY_CACHE_MS: '0',
    JOBS_ENABLED: 'false',
    LOG_LEVEL: 'info',
    ...env,
  });
  cleanup.push(() => server.stop('SIGKILL'));
  return { server, key };
}

/** A server's settings for a chain node reached through `proxy`, on a fresh database. */
async function behindProxy(node: ChainNode, proxy: TcpProxy): Promise<Record<string, string>> {
  return {
    DATABASE_URL: await testDatabaseUrl(),
    CHAIN_RPC_URL: `http://127.0.0.1:${proxy.port}`,
    CHAIN_CONTRACTS: node.contracts,
    CHAIN_OPERATOR_KEY: node.operatorKey,
    CHAIN_CONFIRMATIONS: '0',
  };
}

async function testDatabaseUrl(): Promise<string> {
  const db = await createTestDatabase();
  cleanup.push(() => db.drop());
  return db.url;
}

async function call(base: string, key: string, path: string, init: { body?: unknown; idempotencyKey?: string } = {}) {
  const headers: Record<string, string> = { 'x-builder-api-key': key };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey;
  const res = await fetch(`${base}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as Body,
  };
}

/** A signed-up (unfunded) user of the instance, and a market they may try to create. */
async function marketCreator(marketsUrl: string, builderKey: string, username: string, question: string) {
  const api = marketsApi(() => ({ marketsUrl, builderKey }) as TestServer);
  const signedUp = await signUpWallet(api, username);
  const market = {
    question,
    category: 'Football',
    startTime: new Date(Date.now() + 2 * 3_600_000).toISOString(),
    endTime: new Date(Date.now() + 3 * 3_600_000).toISOString(),
  };
  return { api, token: signedUp.body['token'] as string, market };
}

/** Polls until the instance reports `status` on /ready (the pools reconnect by themselves). */
async function readyState(base: string, status: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${base}/ready`);
    const body = (await res.json()) as { status: string; checks: Record<string, { status: string }> };
    if (body.status === status) return { httpStatus: res.status, body };
    if (Date.now() > deadline) throw new Error(`/ready stayed ${body.status}, wanted ${status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('outages', () => {
  it('PostgreSQL down: 503 DATABASE_UNAVAILABLE with Retry-After, recovery without restart, nothing lost', async () => {
    const proxy = await proxyTo(5432);
    const { server, key } = await serverProcess({
      DATABASE_URL: proxy.urlFor(await testDatabaseUrl()),
      DATABASE_POOL_SIZE: '3',
    });
    const base = server.marketsUrl;
    const before = privateKeyToAccount(generatePrivateKey()).address;
    const during = privateKeyToAccount(generatePrivateKey()).address;
    const register = (address: string, idempotencyKey: string) =>
      call(base, key, '/svc/user/bulk-register/register-simple', { body: { address }, idempotencyKey });
    expect((await register(before, 'before-1')).status).toBe(201);

    await proxy.cut();
    const read = await call(base, key, '/svc/user/auth/check-username?username=outage_user');
    expect(read.status).toBe(503);
    expect(read.body['code']).toBe('DATABASE_UNAVAILABLE');
    expect(Number(read.retryAfter)).toBeGreaterThan(0);
    const write = await register(during, 'during-1');
    expect(write.status).toBe(503);
    expect(write.body['code']).toBe('DATABASE_UNAVAILABLE');
    const notReady = await readyState(base, 'not_ready');
    expect(notReady.httpStatus).toBe(503);
    expect(notReady.body.checks['postgres']?.status).toBe('down');

    await proxy.restore();
    expect((await readyState(base, 'ready')).httpStatus).toBe(200);
    expect((await call(base, key, '/svc/user/auth/check-username?username=outage_user')).status).toBe(200);
    // The refused write runs when retried with its key; the one acknowledged before replays.
    const retried = await register(during, 'during-1');
    expect(retried.status).toBe(201);
    const replay = await register(before, 'before-1');
    expect(replay.status).toBe(201);
    for (const address of [before, during]) {
      const found = await call(base, key, `/svc/user/bulk-register/check-user?address=${address}`);
      expect(found.body['exists']).toBe(true);
    }
    expect(await server.stop()).toBe(0);
  }, 120_000);

  it('chain node down: 503 CHAIN_UNAVAILABLE with Retry-After, readiness degraded, recovery without restart', async () => {
    const node = await startChainNode();
    cleanup.push(() => node.stop());
    const proxy = await proxyTo(Number(new URL(node.rpcUrl).port));
    const { server, key } = await serverProcess(await behindProxy(node, proxy));
    const { api, token, market } = await marketCreator(server.marketsUrl, key, 'chain_outage', 'Chain outage?');

    await proxy.cut();
    const refused = await api('/svc/user/duels/create', { body: market, token });
    expect(refused.status).toBe(503);
    expect(refused.body['code']).toBe('CHAIN_UNAVAILABLE');
    const degraded = await readyState(server.marketsUrl, 'degraded');
    expect(degraded.httpStatus).toBe(200);
    expect(degraded.body.checks['chain']?.status).toBe('down');
    // Reads from the database keep working.
    expect((await api('/svc/public/duels/all')).status).toBe(200);

    await proxy.restore();
    await readyState(server.marketsUrl, 'ready');
    // The chain answers again: the unfunded creator is refused for a reason the chain gave.
    const answered = await api('/svc/user/duels/create', { body: market, token });
    expect(answered.body['code']).toBe('INSUFFICIENT_CREDITS');
  }, 180_000);

  it('chain node down at start: the instance comes up degraded and serves, and reaches the chain once the node answers as the recorded one', async () => {
    const node = await startChainNode();
    cleanup.push(() => node.stop());
    const proxy = await proxyTo(Number(new URL(node.rpcUrl).port));
    const env = await behindProxy(node, proxy);
    // A first start records the chain's identity in the database.
    const first = await serverProcess(env);
    await readyState(first.server.marketsUrl, 'ready');
    expect(await first.server.stop('SIGTERM')).toBe(0);

    await proxy.cut();
    // The builder key the first start registered.
    const { server, key } = await serverProcess({ ...env, DUELKIT_DEV_BUILDER_KEY: first.key });
    expect(key).toBe(first.key);
    expect(server.lines.some((l) => l.includes('chain node unreachable at start'))).toBe(true);
    const degraded = await readyState(server.marketsUrl, 'degraded');
    expect(degraded.httpStatus).toBe(200);
    expect(degraded.body.checks['chain']?.status).toBe('down');
    expect(degraded.body.checks['chainIdentity']?.status).toBe('up');
    const { api, token, market } = await marketCreator(
      server.marketsUrl,
      key,
      'chain_away_at_start',
      'Chain away at start?',
    );
    const refused = await api('/svc/user/duels/create', { body: market, token });
    expect(refused.status).toBe(503);
    expect(refused.body['code']).toBe('CHAIN_UNAVAILABLE');
    expect((await api('/svc/public/duels/all')).status).toBe(200);

    await proxy.restore();
    await readyState(server.marketsUrl, 'ready');
    expect(server.lines.some((l) => l.includes('chain node verified'))).toBe(true);
    // The chain answers: the unfunded creator is refused for a reason the chain gave.
    const answered = await api('/svc/user/duels/create', { body: market, token });
    expect(answered.body['code']).toBe('INSUFFICIENT_CREDITS');
    expect(server.child.exitCode).toBeNull();
  }, 180_000);

  it('chain node replaced by another chain during an outage: chain calls stay refused, and readiness fails on the chain identity', async () => {
    const [node, other] = await Promise.all([startChainNode(), startChainNode()]);
    cleanup.push(
      () => node.stop(),
      () => other.stop(),
    );
    const proxy = await proxyTo(Number(new URL(node.rpcUrl).port));
    const { server, key } = await serverProcess(await behindProxy(node, proxy));
    await readyState(server.marketsUrl, 'ready');
    const { api, token, market } = await marketCreator(server.marketsUrl, key, 'chain_replaced', 'Chain replaced?');

    await proxy.cut();
    await readyState(server.marketsUrl, 'degraded');
    expect(server.lines.some((l) => l.includes('chain node connection lost'))).toBe(true);
    // Behind the same address, a node of another chain answers.
    proxy.retarget({ host: '127.0.0.1', port: Number(new URL(other.rpcUrl).port) });
    await proxy.restore();

    const refused = await readyState(server.marketsUrl, 'not_ready');
    expect(refused.httpStatus).toBe(503);
    expect(refused.body.checks['chainIdentity']).toMatchObject({
      status: 'down',
      error: expect.stringContaining('this database belongs to a chain reached over CHAIN_RPC_URL'),
    });
    expect(server.lines.some((l) => l.includes('chain node answers as another chain'))).toBe(true);
    const write = await api('/svc/user/duels/create', { body: market, token });
    expect(write.status).toBe(503);
    expect(write.body['code']).toBe('CHAIN_UNAVAILABLE');
    // Reads from the database are still answered.
    expect((await api('/svc/public/duels/all')).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 180_000);

  it('chain node down at a first start: the start is refused, since the chain it would record is unknown', async () => {
    const node = await startChainNode();
    cleanup.push(() => node.stop());
    const proxy = await proxyTo(Number(new URL(node.rpcUrl).port));
    await proxy.cut();
    const failed = await serverProcess(await behindProxy(node, proxy)).then(
      () => null,
      (err: unknown) => err,
    );
    expect(String(failed)).toContain('did not start');
  }, 120_000);

  it('Redis down: readiness degraded (200) and requests still served from the in-memory fallbacks', async () => {
    const proxy = await proxyTo(6379);
    const { server, key } = await serverProcess({
      DATABASE_URL: await testDatabaseUrl(),
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
    });
    expect((await readyState(server.marketsUrl, 'ready')).body.checks['redis']?.status).toBe('up');
    await proxy.cut();
    const degraded = await readyState(server.tournamentsUrl, 'degraded');
    expect(degraded.httpStatus).toBe(200);
    expect(degraded.body.checks['redis']?.status).toBe('down');
    const username = await call(server.marketsUrl, key, '/svc/user/auth/check-username?username=redis_down');
    expect(username.status).toBe(200);
    const sports = await call(server.tournamentsUrl, key, '/svc/sports/proxy', {
      body: { path: 'football/fixtures/7' },
    });
    expect(sports.status).toBe(200);
    await proxy.restore();
    await readyState(server.marketsUrl, 'ready');
  }, 120_000);

  it('Redis down at start: the instance comes up degraded and serves, and its background jobs start once Redis answers', async () => {
    const proxy = await proxyTo(6379);
    await proxy.cut();
    const prefix = `{dk-outage-${randomBytes(6).toString('hex')}}`;
    const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    cleanup.push(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    });
    // The jobs on Redis (the backend a deployment with REDIS_URL and DATABASE_URL gets).
    const { server, key } = await serverProcess({
      DATABASE_URL: await testDatabaseUrl(),
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      JOBS_ENABLED: 'true',
      JOBS_REDIS_PREFIX: prefix,
    });
    expect(server.lines.some((l) => l.includes('background jobs wait for Redis'))).toBe(true);
    const degraded = await readyState(server.marketsUrl, 'degraded');
    expect(degraded.body.checks['redis']?.status).toBe('down');
    const username = await call(server.marketsUrl, key, '/svc/user/auth/check-username?username=redis_away_at_start');
    expect(username.status).toBe(200);
    expect(await redis.zcard(`${prefix}:markets:completed`)).toBe(0);

    await proxy.restore();
    await readyState(server.marketsUrl, 'ready');
    // The jobs start, once, and the scheduled tasks run: the indexer's runs complete on the markets queue.
    const started = () => server.lines.filter((l) => l.includes('"background jobs started"')).length;
    const completed = () => redis.zcard(`${prefix}:markets:completed`);
    for (let i = 0; i < 150 && (started() === 0 || (await completed()) === 0); i++) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await completed()).toBeGreaterThan(0);
    expect(started()).toBe(1);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);
});
