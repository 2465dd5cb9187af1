import { randomBytes } from 'node:crypto';
import { createPublicClient, createWalletClient, http, parseEventLogs, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollateralTokenAbi } from '../../adapters/chain/artifacts/CollateralToken.js';
import { DuelMarketsAbi } from '../../adapters/chain/artifacts/DuelMarkets.js';
import { betBody, postJson, type Caller } from '../../../test/support/bets.js';
import { OPERATOR_KEY } from '../../../test/support/chain.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { marketsApi, signUpWallet } from '../../../test/support/http.js';
import { UNIT, until } from '../../../test/support/market-fixtures.js';
import {
  spawnReady,
  type Spawned,
  type ChainNodeInfo,
  type ServerProcessInfo,
} from '../../../test/support/processes.js';
import type { TestServer } from '../../../test/support/test-server.js';

const WALLETS = 8;
const BETS = 200;
const WORKERS = 16;

describe('two server instances on one database and one chain node', () => {
  let node: Spawned<ChainNodeInfo>;
  let db: TestDatabase;
  const instances: Spawned<ServerProcessInfo>[] = [];
  let sql: pg.Pool;

  beforeAll(async () => {
    node = await spawnReady<ChainNodeInfo>('chain-node.process.ts');
    db = await createTestDatabase();
    sql = new pg.Pool({ connectionString: db.url, max: 2 });
    const env = {
      // Instances of one deployment share their secrets (tokens signed by one verify on the other).
      JWT_SECRET: `two-instances-${randomBytes(16).toString('hex')}`,
      WALLET_MASTER_KEY: `0x${randomBytes(32).toString('hex')}`,
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '6',
      CHAIN_RPC_URL: node.info.rpcUrl,
      CHAIN_CONTRACTS: JSON.stringify(node.info.addresses),
      CHAIN_OPERATOR_KEY: OPERATOR_KEY,
      CHAIN_CONFIRMATIONS: '0',
      CHAIN_RECONCILE_INTERVAL_MS: '500',
      CHAIN_REBROADCAST_AFTER_MS: '1000',
      // Small gas top-ups: the operator sends one every dozen bets or so, from both instances.
      CHAIN_GAS_FLOOR_WEI: '4000000000000000',
      CHAIN_GAS_TOP_UP_WEI: '6000000000000000',
      JOBS_ENABLED: 'true',
      INDEXER_INTERVAL_MS: '200',
      DUEL_PUBLIC_LEAD_SECONDS: '0',
      USER_BET_LIMIT: '0',
      RATE_LIMIT_TEAM_PER_MIN: '1000000',
    };
    instances.push(await spawnReady<ServerProcessInfo>('server.process.ts', env));
    instances.push(await spawnReady<ServerProcessInfo>('server.process.ts', env));
  }, 180_000);

  /** A wallet signed up through the first instance, its managed wallet minted `credits` by the operator. */
  async function walletWithCredits(username: string, credits: bigint) {
    const first = instances[0]?.info as ServerProcessInfo;
    const api = marketsApi(() => ({ marketsUrl: first.marketsUrl, builderKey: first.builderKey }) as TestServer);
    const signedUp = await signUpWallet(api, username);
    const wallet = signedUp.body['user']['address'] as Address;
    const transport = http(node.info.rpcUrl);
    const chain = createPublicClient({ transport });
    const minter = createWalletClient({ transport, account: privateKeyToAccount(OPERATOR_KEY) });
    const minted = await minter.writeContract({
      address: node.info.addresses.credits,
      abi: CollateralTokenAbi,
      functionName: 'mint',
      args: [wallet, credits],
      chain: null,
    });
    await chain.waitForTransactionReceipt({ hash: minted, pollingInterval: 50 });
    return { signedUp, wallet, chain };
  }

  afterAll(async () => {
    for (const instance of instances) await instance.stop();
    await node?.stop();
    await sql?.end();
    await db?.drop();
  });

  it('places 200 bets from the same wallets through both with no nonce error, each executed exactly once', async () => {
    const [a, b] = instances.map((i) => i.info) as [ServerProcessInfo, ServerProcessInfo];
    const api = marketsApi(() => ({ marketsUrl: a.marketsUrl, builderKey: a.builderKey }) as TestServer);
    const wallets: { token: string; address: Address }[] = [];
    for (let i = 0; i < WALLETS; i++) {
      const res = await signUpWallet(api, `two_inst_${i}`);
      wallets.push({ token: res.body['token'] as string, address: res.body['user']['address'] as Address });
    }
    // Collateral from the operator as an outside sender would: the instances must cope with it.
    const operator = privateKeyToAccount(OPERATOR_KEY);
    const transport = http(node.info.rpcUrl);
    const chain = createPublicClient({ transport });
    const minter = createWalletClient({ transport, account: operator });
    for (const w of wallets) {
      const hash = await minter.writeContract({
        address: node.info.addresses.credits,
        abi: CollateralTokenAbi,
        functionName: 'mint',
        args: [w.address, 10n ** 27n],
        chain: null,
      });
      await chain.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    }
    // One builder app (A's key) and its users, served by either instance.
    const callers = (w: number, instance: ServerProcessInfo): Caller => ({
      url: instance.marketsUrl,
      builderKey: a.builderKey,
      token: wallets[w]?.token ?? '',
    });
    const created = await postJson(callers(0, a), '/svc/user/duels/create', {
      question: 'Two instances',
      category: 'Football',
      startTime: new Date(Date.now() + 3_600_000).toISOString(),
      endTime: new Date(Date.now() + 7_200_000).toISOString(),
      initialLiquidity: (10n ** 24n).toString(),
    });
    expect(created.status).toBe(201);
    const duelId = created.body['duelId'] as string;
    await until(
      async () =>
        (await fetch(`${b.marketsUrl}/svc/public/duels/get-duel-by-id/${duelId}`, {
          headers: { 'x-builder-api-key': a.builderKey },
        }).then((r) => r.json())) as { chainState?: string },
      (d) => d.chainState === 'confirmed',
      30_000,
    );

    const answers: { status: number; body: Record<string, unknown> }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        for (let i = next++; i < BETS; i = next++) {
          // Each wallet's bets alternate between the instances.
          const caller = callers(i % WALLETS, Math.floor(i / WALLETS) % 2 === 0 ? a : b);
          const body = await betBody(caller, duelId, 5n * UNIT, i % 2);
          answers.push(await postJson(caller, '/svc/user/bets/create', body, `two-inst-${i}`));
        }
      }),
    );
    const refused = answers.filter((x) => x.status !== 201);
    expect(refused).toEqual([]);
    expect(answers.filter((x) => JSON.stringify(x.body).toLowerCase().includes('nonce'))).toEqual([]);
    const hashes = answers.map((x) => x.body['txHash'] as Hex);
    expect(new Set(hashes).size).toBe(BETS);

    // Every accepted bet is mined exactly once, and indexed exactly once.
    const receipts = await until(
      () => Promise.all(hashes.map((hash) => chain.getTransactionReceipt({ hash }).catch(() => null))),
      (rs) => rs.every((r) => r !== null),
      60_000,
    );
    expect(receipts.every((r) => r?.status === 'success')).toBe(true);
    const bought = receipts.flatMap((r) =>
      parseEventLogs({ abi: DuelMarketsAbi, logs: r?.logs ?? [], eventName: 'Bought' }),
    );
    expect(bought).toHaveLength(BETS);
    const trades = async () =>
      Number(
        (await sql.query<{ n: string }>('select count(*) as n from trades where duel_id = $1', [duelId])).rows[0]?.n,
      );
    await until(trades, (n) => n >= BETS, 30_000);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await trades()).toBe(BETS);

    const { rows: writes } = await sql.query<{ kind: string; status: string; n: string }>(
      'select kind, status, count(*) as n from chain_txs group by kind, status order by kind, status',
    );
    // Operator gas top-ups were in the mix; nothing failed, no nonce was given out twice.
    expect(writes.filter((w) => w.status === 'failed')).toEqual([]);
    expect(Number(writes.find((w) => w.kind === 'chain.gas_top_up')?.n ?? 0)).toBeGreaterThan(WALLETS);
    const { rows: doubled } = await sql.query(
      'select account, nonce from chain_txs group by account, nonce having count(*) > 1',
    );
    expect(doubled).toEqual([]);
  }, 240_000);

  it('holds one daily withdrawal limit across both: 10 concurrent withdrawals through both → 3 sent, 7 refused', async () => {
    const [a, b] = instances.map((i) => i.info) as [ServerProcessInfo, ServerProcessInfo];
    const { signedUp, chain } = await walletWithCredits('two_inst_withdraw', 5_000n * UNIT);
    const to = privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`).address;
    // The default limit: 1,000 credits per rolling 24 h. Ten withdrawals of 300, alternating instances.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postJson(
          { url: (i % 2 === 0 ? a : b).marketsUrl, builderKey: a.builderKey, token: signedUp.body['token'] as string },
          '/svc/user/withdraw',
          { collateralStack: 'credits', amount: (300n * UNIT).toString(), toAddress: to },
        ),
      ),
    );
    const sent = answers.filter((x) => x.status === 200);
    const refused = answers.filter((x) => x.status !== 200);
    expect(sent).toHaveLength(3);
    const why = (x: (typeof answers)[number]): unknown[] => [
      x.status,
      x.body['code'] as string,
      (x.body['details'] as Record<string, unknown> | undefined)?.['remaining'],
    ];
    expect(refused.map(why)).toEqual(
      Array.from({ length: 7 }, () => [422, 'DAILY_LIMIT_EXCEEDED', (100n * UNIT).toString()]),
    );
    const balance = () =>
      chain.readContract({
        address: node.info.addresses.credits,
        abi: CollateralTokenAbi,
        functionName: 'balanceOf',
        args: [to],
      });
    await until(balance, (n) => n === 900n * UNIT, 30_000);
  }, 120_000);

  it('funds withdrawals exactly across both: 10 concurrent withdrawals of 100 from 499 → 4 sent, 6 refused, none reverted, the limit counts 400', async () => {
    const [a, b] = instances.map((i) => i.info) as [ServerProcessInfo, ServerProcessInfo];
    const { signedUp, wallet, chain } = await walletWithCredits('two_inst_overdraw', 499n * UNIT);
    const token = signedUp.body['token'] as string;
    const to = privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`).address;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postJson(
          { url: (i % 2 === 0 ? a : b).marketsUrl, builderKey: a.builderKey, token },
          '/svc/user/withdraw',
          { collateralStack: 'credits', amount: (100n * UNIT).toString(), toAddress: to },
          `overdraw-${i}`,
        ),
      ),
    );
    expect(answers.filter((x) => x.status === 200)).toHaveLength(4);
    expect(answers.filter((x) => x.status !== 200).map((x): unknown[] => [x.status, x.body['code']])).toEqual(
      Array(6).fill([400, 'INSUFFICIENT_BALANCE']),
    );
    const balance = () =>
      chain.readContract({
        address: node.info.addresses.credits,
        abi: CollateralTokenAbi,
        functionName: 'balanceOf',
        args: [to],
      });
    await until(balance, (n) => n === 400n * UNIT, 30_000);
    const { rows } = await sql.query<{ status: string }>(
      `select status from chain_txs where account = $1 and kind = 'collateral.transfer'`,
      [wallet.toLowerCase()],
    );
    expect(rows.filter((r) => r.status === 'reverted')).toHaveLength(0);
    const limit = await fetch(
      `${a.marketsUrl}/svc/user/withdrawal-requests/daily-limit?user=${wallet}&collateralStack=credits&collateralMode=credits`,
      { headers: { 'x-builder-api-key': a.builderKey, authorization: `Bearer ${token}` } },
    );
    expect(((await limit.json()) as Record<string, unknown>)['used']).toBe((400n * UNIT).toString());
  }, 120_000);
});
