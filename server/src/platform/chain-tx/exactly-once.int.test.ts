import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betBody, postJson, type Caller } from '../../../test/support/bets.js';
import { OPERATOR_KEY } from '../../../test/support/chain.js';
import { confirmedMarket, fundedUser, UNIT, until } from '../../../test/support/market-fixtures.js';
import { spawnReady, type Spawned, type ChainNodeInfo } from '../../../test/support/processes.js';
import { proxyStats, setSendRawMode } from '../../../test/support/rpc-proxy.js';
import { startTcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';

/** The server in this process, its chain node and the RPC proxy between them in their own. */
async function startStack(env: Record<string, string> = {}, databaseThrough?: (url: string) => string) {
  const node = await spawnReady<ChainNodeInfo>('chain-node.process.ts');
  const proxy = await spawnReady<{ url: string }>('rpc-proxy.process.ts', { RPC_UPSTREAM: node.info.rpcUrl });
  const server = await startTestServer(
    {
      CHAIN_RPC_URL: proxy.info.url,
      CHAIN_CONTRACTS: JSON.stringify(node.info.addresses),
      CHAIN_OPERATOR_KEY: OPERATOR_KEY,
      CHAIN_CONFIRMATIONS: '0',
      CHAIN_BROADCAST_TIMEOUT_MS: '1500',
      CHAIN_RECONCILE_INTERVAL_MS: '500',
      CHAIN_REBROADCAST_AFTER_MS: '1000',
      JOBS_ENABLED: 'true',
      INDEXER_INTERVAL_MS: '200',
      ...env,
    },
    {},
    databaseThrough,
  );
  return { node, proxy, server };
}

async function count(server: TestServer, sql: string, params: unknown[]): Promise<number> {
  const rows = await server.container.orm.em.fork().getConnection().execute<{ n: string }[]>(sql, params);
  return Number(rows[0]?.n ?? 0);
}

/** Bought events the chain holds for one transaction. */
async function boughtOnChain(server: TestServer, txHash: `0x${string}`): Promise<number> {
  return (await server.container.chain.transactionEvents(txHash)).filter((e) => e.kind === 'bought').length;
}

describe('bets through a slow or dropping RPC', () => {
  let node: Spawned<ChainNodeInfo>;
  let proxy: Spawned<{ url: string }>;
  let server: TestServer;
  let caller: Caller;
  let duelId: string;

  beforeAll(async () => {
    ({ node, proxy, server } = await startStack());
    const creator = await fundedUser(server.container, server.builderKey, 'slow_creator');
    duelId = await confirmedMarket(server.container, creator);
    const bettor = await fundedUser(server.container, server.builderKey, 'slow_bettor');
    caller = { url: server.marketsUrl, builderKey: server.builderKey, token: bettor.token };
    // Gas and the allowance are in place before the faults start.
    const first = await postJson(caller, '/svc/user/bets/create', await betBody(caller, duelId, 5n * UNIT), 'warm-up');
    expect(first.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await proxy?.stop();
    await node?.stop();
  });

  it('answers a bet whose broadcast takes 15 s as pending without a 5xx; a retry gets the same txHash; one trade', async () => {
    await setSendRawMode(proxy.info.url, { mode: 'delay', ms: 15_000 });
    const body = await betBody(caller, duelId, 6n * UNIT);
    const started = Date.now();
    const first = await postJson(caller, '/svc/user/bets/create', body, 'slow-bet');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ success: true, chainState: 'pending' });
    expect(Date.now() - started).toBeLessThan(15_000);
    const txHash = first.body['txHash'] as `0x${string}`;
    const retry = await postJson(caller, '/svc/user/bets/create', body, 'slow-bet');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body['txHash']).toBe(txHash);
    await setSendRawMode(proxy.info.url, { mode: 'pass' });
    // The reconciler sends the same bytes again; the held copies reach the node after 15 s.
    await until(
      () => count(server, 'select count(*) as n from trades where tx_hash = ?', [txHash]),
      (n) => n === 1,
      40_000,
    );
    await until(
      () => proxyStats(proxy.info.url),
      (s) => s.forwarded === s.sendRaw,
      40_000,
    );
    expect(await boughtOnChain(server, txHash)).toBe(1);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await count(server, 'select count(*) as n from trades where duel_id = ?', [duelId])).toBe(2);
    expect(await count(server, `select count(*) as n from chain_txs where kind = 'markets.buy'`, [])).toBe(2);
  }, 90_000);

  it('answers pending when the connection drops after the node got the bet, and when it drops before: one trade each', async () => {
    const hashes: `0x${string}`[] = [];
    for (const mode of ['drop-after', 'drop-before'] as const) {
      await setSendRawMode(proxy.info.url, { mode, times: 1 });
      const body = await betBody(caller, duelId, 7n * UNIT);
      const answer = await postJson(caller, '/svc/user/bets/create', body, `dropped-${mode}`);
      expect(answer.status).toBe(201);
      expect(answer.body['chainState']).toBe('pending');
      hashes.push(answer.body['txHash'] as `0x${string}`);
      const again = await postJson(caller, '/svc/user/bets/create', body, `dropped-${mode}`);
      expect(again.body['txHash']).toBe(answer.body['txHash']);
    }
    for (const txHash of hashes) {
      // Dropped before the node saw it: the reconciler sends the same bytes again.
      await until(
        () => count(server, 'select count(*) as n from trades where tx_hash = ?', [txHash]),
        (n) => n === 1,
        30_000,
      );
      expect(await boughtOnChain(server, txHash)).toBe(1);
    }
    expect(await count(server, 'select count(*) as n from trades where duel_id = ?', [duelId])).toBe(4);
  }, 90_000);
});

describe('PostgreSQL failing right after the chain send', () => {
  let node: Spawned<ChainNodeInfo>;
  let proxy: Spawned<{ url: string }>;
  let server: TestServer;
  let pgProxy: TcpProxy;
  let hook: Server;

  beforeAll(async () => {
    pgProxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
    ({ node, proxy, server } = await startStack(
      { IDEMPOTENCY_LOCK_TIMEOUT_MS: '1500', IDEMPOTENCY_WAIT_MS: '200', DUEL_PUBLIC_LEAD_SECONDS: '0' },
      (url) => pgProxy.urlFor(url),
    ));
    // Called by the proxy once the node has the transaction, before the server hears back.
    hook = createServer((req, res) => {
      void pgProxy.cut().then(() => res.end('{}'));
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', () => resolve()));
  }, 120_000);

  afterAll(async () => {
    await pgProxy?.restore().catch(() => undefined);
    await server?.close();
    await proxy?.stop();
    await node?.stop();
    await new Promise<void>((resolve) => (hook ? hook.close(() => resolve()) : resolve()));
    await pgProxy?.close();
  });

  it('creates one duel: a retry replays the creation recorded with the write instead of running again', async () => {
    const creator = await fundedUser(server.container, server.builderKey, 'pgfail_creator');
    const caller: Caller = { url: server.marketsUrl, builderKey: server.builderKey, token: creator.token };
    // A first market puts gas and the allowance in place, so the next broadcast is the creation.
    await confirmedMarket(server.container, creator);
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`;
    await setSendRawMode(proxy.info.url, { mode: 'hook', hookUrl, times: 1 });
    const request = {
      question: 'Exactly once?',
      category: 'Football',
      startTime: new Date(Date.now() + 3_600_000).toISOString(),
      endTime: new Date(Date.now() + 7_200_000).toISOString(),
    };
    const first = await postJson(caller, '/svc/user/duels/create', request, 'create-once');
    // The database went away after the creation was recorded and sent: the answer is still the
    // accepted creation, never a 5xx that invites a second one.
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ chainState: 'pending' });
    await pgProxy.restore();
    // The answer went into the statement that recorded the write, before the send: the key is
    // completed with it although the database was gone when the request answered.
    const direct = new pg.Client({ connectionString: server.database.url });
    await direct.connect();
    const { rows } = await direct.query<{
      state: string;
      started: boolean;
      pending_status: number | null;
      response_body: unknown;
    }>(
      `select state, effect_started_at is not null as started, pending_status, response_body from idempotency_keys
        where idempotency_key = 'create-once'`,
    );
    await direct.end();
    expect(rows).toEqual([{ state: 'completed', started: true, pending_status: 201, response_body: first.body }]);
    // A retry replays the recorded creation; none of them creates a second duel.
    const retry = await until(
      () => postJson(caller, '/svc/user/duels/create', request, 'create-once'),
      (r) => r.status !== 201 || r.headers.get('idempotent-replayed') === 'true',
      30_000,
    );
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const duels = await count(server, 'select count(*) as n from duels where question = ?', ['Exactly once?']);
    expect(duels).toBe(1);
    await until(
      () => server.container.markets.repo.byDuelId(first.body['duelId'] as string),
      (d) => d?.chainState === 'confirmed',
      30_000,
    );
    const created = (await server.container.chain.marketEvents(0n, await server.container.chain.blockNumber())).filter(
      (e) => e.kind === 'created',
    );
    expect(created.map((e) => e.duelId.toLowerCase())).toContain(first.body['duelId']);
    expect(created).toHaveLength(2);
  }, 90_000);
});
