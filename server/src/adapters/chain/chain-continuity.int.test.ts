import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, http, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { betBody, postJson, type Caller } from '../../../test/support/bets.js';
import { OPERATOR_KEY } from '../../../test/support/chain.js';
import { createTestDatabase } from '../../../test/support/database.js';
import { marketsApi, publicDuel, signUpWallet } from '../../../test/support/http.js';
import { UNIT, until } from '../../../test/support/market-fixtures.js';
import {
  runToExit,
  spawnReady,
  type Spawned,
  type ChainNodeInfo,
  type ServerProcessInfo,
} from '../../../test/support/processes.js';
import type { TestServer } from '../../../test/support/test-server.js';
import { CollateralTokenAbi } from './artifacts/CollateralToken.js';
import type { ChainAddresses } from './chain.port.js';

describe('the embedded chain across a restart with DUELKIT_DATA_DIR', () => {
  const dir = mkdtempSync(join(tmpdir(), 'duelkit-restart-'));
  const running: Spawned<ServerProcessInfo>[] = [];
  afterAll(async () => {
    for (const r of running) await r.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the old duel: it still estimates and trades after a restart, and the indexer carries on', async () => {
    const env = {
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      DUELKIT_DATA_DIR: dir,
      // The operator the test mints with from outside, as `pnpm credits:grant` would sign.
      CHAIN_OPERATOR_KEY: OPERATOR_KEY,
      JOBS_ENABLED: 'true',
      INDEXER_INTERVAL_MS: '200',
      DUEL_PUBLIC_LEAD_SECONDS: '0',
      CHAIN_EMBEDDED_RPC_PORT: '0',
    };
    const first = await spawnReady<ServerProcessInfo>('server.process.ts', env);
    running.push(first);
    const api = marketsApi(
      () => ({ marketsUrl: first.info.marketsUrl, builderKey: first.info.builderKey }) as TestServer,
    );
    const signUp = await signUpWallet(api, 'restart_trader');
    const token = signUp.body['token'] as string;
    const address = signUp.body['user']['address'] as Address;
    // Collateral through the embedded chain's loopback RPC, as `pnpm credits:grant` sends it.
    const rpc = http(first.info.embeddedRpcUrl ?? '');
    const minter = createWalletClient({ transport: rpc, account: privateKeyToAccount(OPERATOR_KEY) });
    const addresses = (await (await fetch(`${first.info.embeddedRpcUrl}/duelkit/contracts`)).json()) as ChainAddresses;
    const hash = await minter.writeContract({
      address: addresses.credits,
      abi: CollateralTokenAbi,
      functionName: 'mint',
      args: [address, 1_000n * UNIT],
      chain: null,
    });
    await createPublicClient({ transport: rpc }).waitForTransactionReceipt({ hash, pollingInterval: 20 });

    let caller: Caller = { url: first.info.marketsUrl, builderKey: first.info.builderKey, token };
    const created = await postJson(caller, '/svc/user/duels/create', {
      question: 'Still here after a restart?',
      category: 'Football',
      startTime: new Date(Date.now() + 3_600_000).toISOString(),
      endTime: new Date(Date.now() + 7_200_000).toISOString(),
    });
    expect(created.status).toBe(201);
    const duelId = created.body['duelId'] as string;
    await until(
      () => publicDuel(first.info, duelId),
      (d) => d.chainState === 'confirmed',
      30_000,
    );
    const bet = await postJson(caller, '/svc/user/bets/create', await betBody(caller, duelId, 10n * UNIT), 'before');
    expect(bet.status).toBe(201);
    await until(
      () => publicDuel(first.info, duelId),
      (d) => d.totalVolume === (10n * UNIT).toString(),
      30_000,
    );
    await first.stop();

    const second = await spawnReady<ServerProcessInfo>('server.process.ts', env);
    running.push(second);
    caller = { url: second.info.marketsUrl, builderKey: first.info.builderKey, token };
    expect((await publicDuel(second.info, duelId)).chainState).toBe('confirmed');
    const again = await postJson(caller, '/svc/user/bets/create', await betBody(caller, duelId, 5n * UNIT, 1), 'after');
    expect(again.status).toBe(201);
    const duel = await until(
      () => publicDuel(second.info, duelId),
      (d) => d.totalVolume === (15n * UNIT).toString(),
      30_000,
    );
    expect(duel.uniqueParticipants).toBe(1);
  }, 180_000);
});

describe('a database that meets another chain', () => {
  it('refuses to start with one clear message, over RPC and with the embedded chain', async () => {
    const db = await createTestDatabase();
    const nodes: Spawned<ChainNodeInfo>[] = [];
    try {
      const original = await spawnReady<ChainNodeInfo>('chain-node.process.ts');
      nodes.push(original);
      const env = (node: ChainNodeInfo | undefined) => ({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        PORT: '0',
        TOURNAMENTS_PORT: '0',
        HOST: '127.0.0.1',
        REDIS_URL: undefined,
        DATABASE_URL: db.url,
        CHAIN_RPC_URL: node?.rpcUrl,
        CHAIN_CONTRACTS: node ? JSON.stringify(node.addresses) : undefined,
        CHAIN_OPERATOR_KEY: OPERATOR_KEY,
        CHAIN_CONFIRMATIONS: '0',
        CHAIN_EMBEDDED_RPC_PORT: '0',
        JOBS_ENABLED: 'false',
      });
      const server = await spawnReady<ServerProcessInfo>('server.process.ts', env(original.info));
      await server.stop();
      // A fresh node whose genesis is dated a minute back: another genesis, without waiting.
      const fresh = await spawnReady<ChainNodeInfo>('chain-node.process.ts', { CHAIN_NODE_GENESIS_AGO_MS: '60000' });
      nodes.push(fresh);

      const otherChain = await runToExit('src/main.ts', env(fresh.info));
      expect(otherChain.code).toBe(1);
      const lines = otherChain.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^Refusing to start: this database belongs to a chain reached over CHAIN_RPC_URL .* but the configured chain has genesis 0x[0-9a-f]{64}/,
      );

      const embedded = await runToExit('src/main.ts', env(undefined));
      expect(embedded.code).toBe(1);
      expect(embedded.stderr.trim().split('\n')).toHaveLength(1);
      expect(embedded.stderr).toContain('no CHAIN_RPC_URL is set');
    } finally {
      for (const node of nodes) await node.stop();
      await db.drop();
    }
  }, 120_000);
});
