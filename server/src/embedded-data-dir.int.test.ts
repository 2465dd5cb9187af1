import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, http, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { CollateralTokenAbi } from './adapters/chain/artifacts/CollateralToken.js';
import type { ChainAddresses } from './adapters/chain/chain.port.js';
import { betBody, postJson, type Caller } from '../test/support/bets.js';
import { OPERATOR_KEY } from '../test/support/chain.js';
import { marketsApi, publicDuel, signUpWallet } from '../test/support/http.js';
import { UNIT, until } from '../test/support/market-fixtures.js';
import { spawnReady, type Spawned, type ServerProcessInfo } from '../test/support/processes.js';
import { runCli } from '../test/support/server-process.js';
import type { TestServer } from '../test/support/test-server.js';

/**
 * The embedded default on a data directory (PGlite and the journaled in-process EVM), through
 * overdrawn and reverting bets, a mint through the pipeline, and a kill -9: nothing acknowledged
 * is lost, nothing is done twice, and the chain comes back to the same head.
 */
describe('the embedded defaults on a data directory, through reverts and a kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'duelkit-data-dir-'));
  const running: Spawned<ServerProcessInfo>[] = [];
  afterAll(async () => {
    for (const r of running) await r.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses what a wallet cannot fund, records reverts once, mints exactly once and restarts to the same head', async () => {
    const env = {
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      DUELKIT_DATA_DIR: dir,
      OPERATOR_PORT: '0',
      CHAIN_OPERATOR_KEY: OPERATOR_KEY,
      JOBS_ENABLED: 'true',
      INDEXER_INTERVAL_MS: '200',
      CHAIN_RECONCILE_INTERVAL_MS: '300',
      DUEL_PUBLIC_LEAD_SECONDS: '0',
      CHAIN_EMBEDDED_RPC_PORT: '0',
      USER_BET_LIMIT: '0',
    };
    const first = await spawnReady<ServerProcessInfo>('server.process.ts', env);
    running.push(first);
    const api = marketsApi(
      () => ({ marketsUrl: first.info.marketsUrl, builderKey: first.info.builderKey }) as TestServer,
    );
    const rpc = http(first.info.embeddedRpcUrl ?? '');
    const reader = createPublicClient({ transport: rpc });
    const addresses = (await (await fetch(`${first.info.embeddedRpcUrl}/duelkit/contracts`)).json()) as ChainAddresses;
    const credits = (who: Address) =>
      reader.readContract({
        address: addresses.credits,
        abi: CollateralTokenAbi,
        functionName: 'balanceOf',
        args: [who],
      });
    const minter = createWalletClient({ transport: rpc, account: privateKeyToAccount(OPERATOR_KEY) });
    const fund = async (who: Address, amount: bigint) => {
      const hash = await minter.writeContract({
        address: addresses.credits,
        abi: CollateralTokenAbi,
        functionName: 'mint',
        args: [who, amount],
        chain: null,
      });
      await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    };

    const creatorUp = await signUpWallet(api, 'dd_creator');
    const creator: Caller = {
      url: first.info.marketsUrl,
      builderKey: first.info.builderKey,
      token: creatorUp.body['token'] as string,
    };
    await fund(creatorUp.body['user']['address'] as Address, 1_000n * UNIT);
    const created = await postJson(
      creator,
      '/svc/user/duels/create',
      {
        question: 'Does the journal hold through reverts?',
        category: 'Football',
        startTime: new Date(Date.now() + 3_600_000).toISOString(),
        endTime: new Date(Date.now() + 7_200_000).toISOString(),
      },
      'dd-create',
    );
    expect(created.status).toBe(201);
    const duelId = created.body['duelId'] as string;
    await until(
      () => publicDuel(first.info, duelId),
      (d) => d.chainState === 'confirmed',
      30_000,
    );

    const traderUp = await signUpWallet(api, 'dd_trader');
    const trader: Caller = { ...creator, token: traderUp.body['token'] as string };
    const traderAddress = traderUp.body['user']['address'] as Address;
    await fund(traderAddress, 100n * UNIT);
    // Ten 20-credit bets from a wallet holding 100, all estimated before any is placed, with a
    // floor of 0.1 %: five are funded, and the ones mined after another moved the price revert.
    const bodies = await Promise.all(Array.from({ length: 10 }, () => betBody(trader, duelId, 20n * UNIT, 0, 10)));
    const answers = await Promise.all(
      bodies.map((b, i) => postJson(trader, '/svc/user/bets/create', b, `dd-bet-${i}`)),
    );
    // A bet the wallet cannot fund, counting those in flight, is refused for funds; one simulated
    // after another was mined is refused for slippage before anything is sent. Which bets those
    // are depends on timing; what the chain shows below does not.
    const placed = answers.filter((a) => a.status === 201);
    expect(placed.length).toBeGreaterThanOrEqual(1);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect([
        [400, 'INSUFFICIENT_CREDITS'],
        [400, 'SLIPPAGE_EXCEEDED'],
      ]).toContainEqual([refused.status, refused.body['code']]);
    }
    const hashes = answers.filter((a) => a.status === 201).map((a) => a.body['txHash'] as `0x${string}`);
    const receipts = await Promise.all(
      hashes.map((hash) => reader.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 30_000 })),
    );
    const mined = receipts.filter((r) => r.status === 'success').length;
    expect(mined).toBeGreaterThanOrEqual(1);
    // Never overdrawn: at most five 20-credit bets mined from 100.
    expect(mined).toBeLessThanOrEqual(5);
    // Each accepted bet was sent once: exactly its stake left the wallet for each one mined.
    await until(
      () => credits(traderAddress),
      (b) => b === 100n * UNIT - BigInt(mined) * 20n * UNIT,
      30_000,
    );

    // A mint through the server's pipeline (the operator command) after those reverts: exactly once.
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const grant = await runCli('credits-grant', ['--address', recipient, '--units', '500'], {
      DUELKIT_DATA_DIR: dir,
      OPERATOR_PORT: String(first.info.operatorPort),
    });
    expect(grant.code).toBe(0);
    await until(
      () => credits(recipient),
      (b) => b === 500n * UNIT,
      30_000,
    );
    // Every write above was answered after the chain journaled it: this head must survive a kill.
    const head = await reader.getBlock({ blockTag: 'latest' });
    const traderBefore = await credits(traderAddress);

    first.proc.kill('SIGKILL');
    await new Promise((resolve) => first.proc.once('exit', resolve));

    const second = await spawnReady<ServerProcessInfo>('server.process.ts', env);
    running.push(second);
    const after = createPublicClient({ transport: http(second.info.embeddedRpcUrl ?? '') });
    const replayed = await after.getBlock({ blockNumber: head.number });
    expect(replayed.hash).toBe(head.hash);
    expect(await after.getBlockNumber()).toBeGreaterThanOrEqual(head.number);
    const read = (who: Address) =>
      after.readContract({
        address: addresses.credits,
        abi: CollateralTokenAbi,
        functionName: 'balanceOf',
        args: [who],
      });
    expect(await read(recipient)).toBe(500n * UNIT);
    expect(await read(traderAddress)).toBe(traderBefore);

    // New writes confirm on the rebuilt chain.
    const caller: Caller = { url: second.info.marketsUrl, builderKey: first.info.builderKey, token: trader.token };
    const again = await postJson(
      caller,
      '/svc/user/bets/create',
      await betBody(caller, duelId, 5n * UNIT, 0, 500),
      'dd-after',
    );
    expect([again.status, again.body['code'], again.body['details']]).toEqual([201, undefined, undefined]);
    const receipt = await after.waitForTransactionReceipt({
      hash: again.body['txHash'] as `0x${string}`,
      pollingInterval: 50,
      timeout: 30_000,
    });
    expect(receipt.status).toBe('success');
  }, 240_000);
});
