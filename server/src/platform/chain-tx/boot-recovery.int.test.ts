import { createPublicClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { CollateralTokenAbi } from '../../adapters/chain/artifacts/CollateralToken.js';
import { ViemChainAdapter } from '../../adapters/chain/viem-chain.adapter.js';
import { createLogger } from '../../logger.js';
import { chainConfig, chainStores } from '../../../test/support/chain.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { UNIT, until } from '../../../test/support/market-fixtures.js';
import { spawnReady, type ChainNodeInfo, type ServerProcessInfo } from '../../../test/support/processes.js';
import { setSendRawMode } from '../../../test/support/rpc-proxy.js';
import { initOrm } from '../db/orm.js';
import { entities } from '../../entities.js';

const OPEN_WRITES = 200;

interface Readiness {
  status: string;
  checks: Record<string, { status: string; error?: string }>;
}

describe('a restarted instance with hundreds of open chain writes', () => {
  const running: { stop(): Promise<void> }[] = [];
  let db: TestDatabase | undefined;
  afterAll(async () => {
    for (const r of running.reverse()) await r.stop();
    await db?.drop();
  });

  it('serves while it recovers them in the background, says so in readiness, and lands each once', async () => {
    const node = await spawnReady<ChainNodeInfo>('chain-node.process.ts');
    running.push(node);
    const proxy = await spawnReady<{ url: string }>('rpc-proxy.process.ts', { RPC_UPSTREAM: node.info.rpcUrl });
    running.push(proxy);
    db = await createTestDatabase();

    // A first instance records the writes, and none reaches the node before it goes away.
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    const orm = await initOrm(entities, db.url, 4, false);
    const first = await ViemChainAdapter.connect(
      chainConfig({
        rpcUrl: proxy.info.url,
        addresses: node.info.addresses,
        embeddedRpcPort: null,
        broadcastTimeoutMs: 1_000,
      }),
      createLogger('silent'),
      chainStores(orm),
    );
    await setSendRawMode(proxy.info.url, { mode: 'drop-before', times: OPEN_WRITES });
    for (let i = 0; i < OPEN_WRITES; i += 20) {
      await Promise.all(Array.from({ length: 20 }, () => first.mint('credits', holder, UNIT)));
    }
    const open = await orm.em
      .fork()
      .getConnection()
      .execute<{ n: string }[]>(`select count(*)::text as n from chain_txs where status = 'signed'`);
    expect(Number(open[0]?.n)).toBe(OPEN_WRITES);
    await first.close();
    await orm.close(true);

    // The node stops answering about transactions: every check of an open write would wait on it.
    await setSendRawMode(proxy.info.url, {
      mode: 'pass',
      stall: ['eth_getTransactionReceipt', 'eth_getTransactionByHash'],
    });
    const server = await spawnReady<ServerProcessInfo>('server.process.ts', {
      DATABASE_URL: db.url,
      CHAIN_RPC_URL: proxy.info.url,
      CHAIN_CONTRACTS: JSON.stringify(node.info.addresses),
      CHAIN_OPERATOR_KEY: node.info.operatorKey,
      CHAIN_CONFIRMATIONS: '0',
      CHAIN_RECONCILE_INTERVAL_MS: '500',
      CHAIN_REBROADCAST_AFTER_MS: '1000',
      JOBS_ENABLED: 'true',
    });
    running.push(server);
    const health = await fetch(`${server.info.marketsUrl}/health`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${server.info.marketsUrl}/ready`);
    expect(ready.status).toBe(200);
    const readiness = (await ready.json()) as Readiness;
    expect(readiness.status).toBe('degraded');
    expect(readiness.checks['postgres']?.status).toBe('up');
    expect(readiness.checks['chainWritesRecovery']).toMatchObject({ status: 'down' });
    expect(readiness.checks['chainWritesRecovery']?.error).toMatch(/recovering open chain writes: \d+ left to check/);
    // A read that needs no chain write is served meanwhile.
    const markets = await fetch(`${server.info.marketsUrl}/svc/public/duels/all?page=1&limit=1`, {
      headers: { 'x-builder-api-key': server.info.builderKey },
    });
    expect(markets.status).toBe(200);

    // The node answers again: every write lands exactly once, and recovery reports done.
    await setSendRawMode(proxy.info.url, { mode: 'pass' });
    const client = createPublicClient({ transport: http(node.info.rpcUrl) });
    await until(
      () =>
        client.readContract({
          address: node.info.addresses.credits,
          abi: CollateralTokenAbi,
          functionName: 'balanceOf',
          args: [holder],
        }),
      (balance) => balance === BigInt(OPEN_WRITES) * UNIT,
      90_000,
    );
    await until(
      async () => ((await (await fetch(`${server.info.marketsUrl}/ready`)).json()) as Readiness).checks,
      (checks) => checks['chainWritesRecovery']?.status === 'up',
      90_000,
    );
    // The last receipts are recorded by the reconciler's next rounds.
    const check = await initOrm(entities, db.url, 2, false);
    const statuses = await until(
      () =>
        check.em
          .fork()
          .getConnection()
          .execute<{ status: string; n: string }[]>(
            `select status, count(*)::text as n from chain_txs where kind = 'collateral.mint' group by status`,
          ),
      (rows) => rows.length === 1 && rows[0]?.status === 'mined',
      30_000,
    ).finally(() => check.close(true));
    expect(statuses).toEqual([{ status: 'mined', n: String(OPEN_WRITES) }]);
  }, 300_000);
});
