import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betBody, postJson, type Caller } from '../../../test/support/bets.js';
import { OPERATOR_KEY } from '../../../test/support/chain.js';
import { fundedUser, UNIT, until } from '../../../test/support/market-fixtures.js';
import {
  advanceNodeTime,
  spawnReady,
  type Spawned,
  type ChainNodeInfo,
  type ServerProcessInfo,
} from '../../../test/support/processes.js';
import { setSendRawMode } from '../../../test/support/rpc-proxy.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { OffsetClock } from '../../platform/clock.js';

/**
 * A claim of winnings whose server process is killed at the moment the chain has the payment and
 * the server has not heard back: the next process answers the same claim with that one payment.
 */
describe('a claim of winnings across a process killed after the chain took the payment', () => {
  let node: Spawned<ChainNodeInfo>;
  let proxy: Spawned<{ url: string }>;
  let setup: TestServer;
  let env: Record<string, string>;
  const instances: Spawned<ServerProcessInfo>[] = [];
  let hook: Server;
  const hooked: string[] = [];
  let victim: Spawned<ServerProcessInfo> | undefined;
  /** The test server's time; the chain node's is moved with it (`passTime`). */
  const clock = new OffsetClock();

  beforeAll(async () => {
    node = await spawnReady<ChainNodeInfo>('chain-node.process.ts');
    proxy = await spawnReady<{ url: string }>('rpc-proxy.process.ts', { RPC_UPSTREAM: node.info.rpcUrl });
    // Instances of one deployment: the same database, chain, operator and secrets; no background
    // jobs, so only the claim route pays (the settlement sweep would pay the winner by itself).
    env = {
      JWT_SECRET: `claims-crash-${randomBytes(16).toString('hex')}`,
      WALLET_MASTER_KEY: `0x${randomBytes(32).toString('hex')}`,
      CHAIN_RPC_URL: proxy.info.url,
      CHAIN_CONTRACTS: JSON.stringify(node.info.addresses),
      CHAIN_OPERATOR_KEY: OPERATOR_KEY,
      CHAIN_CONFIRMATIONS: '0',
      CHAIN_BROADCAST_TIMEOUT_MS: '1500',
      JOBS_ENABLED: 'false',
      DUEL_PUBLIC_LEAD_SECONDS: '0',
      DUEL_CONTEST_PERIOD_SECONDS: '0',
    };
    setup = await startTestServer(env, { clock });
    env['DATABASE_URL'] = setup.database.url;
    // The proxy calls this at the moment the node accepted the payment: the claiming process dies there.
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        hooked.push(body);
        victim?.proc.kill('SIGKILL');
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', () => resolve()));
  }, 180_000);

  afterAll(async () => {
    for (const i of instances) await i.stop();
    await new Promise((r) => hook?.close(r));
    await setup?.close();
    await proxy?.stop();
    await node?.stop();
  });

  const chainNow = async () => {
    const block = await createPublicClient({ transport: http(node.info.rpcUrl) }).getBlock();
    return Math.max(clock.now(), Number(block.timestamp) * 1000);
  };
  /** Moves the server's clock and the chain's time forward together, instead of waiting. */
  const passTime = async (ms: number) => {
    await advanceNodeTime(node.info, Math.ceil(ms / 1000));
    clock.advance(ms);
  };
  const index = async () => {
    for (let i = 0; i < 20; i++) if ((await setup.container.markets.indexer.runOnce()).caughtUp) return;
  };

  it('pays once: the next process finds the payment the dead one sent and answers with it', async () => {
    const c = setup.container;
    const caller = async (name: string) => {
      const u = await fundedUser(c, setup.builderKey, name);
      return { ...u, caller: { url: setup.marketsUrl, builderKey: setup.builderKey, token: u.token } as Caller };
    };
    const [alice, bob, carol] = [await caller('cc_alice'), await caller('cc_bob'), await caller('cc_carol')];

    // A settled credits market: bob won with option 0.
    const now = await chainNow();
    // Far enough ahead that creating and betting never race the end, however slow the machine.
    const endTime = now + 600_000;
    const created = await postJson(alice.caller, '/svc/user/duels/create', {
      question: 'Does a killed claim pay once?',
      category: 'Football',
      startTime: new Date(now + 1_000).toISOString(),
      endTime: new Date(endTime).toISOString(),
      collateralStack: 'credits',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const duelId = created.body['duelId'] as `0x${string}`;
    await until(
      async () => (await index(), c.markets.repo.byDuelId(duelId)),
      (d) => d?.chainState === 'confirmed',
    );
    for (const [who, option, units] of [
      [bob, 0, 20n],
      [carol, 1, 10n],
    ] as const) {
      const placed = await postJson(
        who.caller,
        '/svc/user/bets/create',
        await betBody(who.caller, duelId, units * UNIT, option),
      );
      expect(placed.status, JSON.stringify(placed.body)).toBeLessThan(300);
    }
    await passTime(endTime + 1_000 - (await chainNow()));
    await index();
    const resolved = await postJson(alice.caller, '/svc/user/duels/resolve', {
      duelIds: [{ duelId, winningOptionIndex: 0 }],
    });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    await until(
      async () => (await index(), c.markets.repo.byDuelId(duelId)),
      (d) => d?.status === 'settled',
    );
    const bobAddress = bob.address as `0x${string}`;
    const owed = await c.chain.owed(duelId, bobAddress);
    expect(owed.paid).toBe(false);
    expect(owed.amount).toBeGreaterThan(0n);
    const before = await c.chain.collateralBalance('credits', bobAddress);

    // The claiming process: killed by the proxy's hook once the node has the payment.
    victim = await spawnReady<ServerProcessInfo>('server.process.ts', env);
    instances.push(victim);
    await setSendRawMode(proxy.info.url, {
      mode: 'hook',
      hookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`,
      times: 1,
    });
    const claimant = (url: string): Caller => ({ url, builderKey: setup.builderKey, token: bob.token });
    const first = await postJson(claimant(victim.info.marketsUrl), '/svc/user/withdraw/claim-winnings', {
      duelId,
    }).then(
      (r) => r.status,
      () => 'connection lost',
    );
    expect(first).toBe('connection lost');
    expect(hooked).toHaveLength(1);
    const sent = (JSON.parse(hooked[0] as string) as { result: string }).result;
    expect(sent).toMatch(/^0x[0-9a-f]{64}$/);
    await until(
      () => c.chain.collateralBalance('credits', bobAddress),
      (b) => b === before + owed.amount,
    );

    // The next process: the same claim is answered with the payment already made, nothing sent again.
    const next = await spawnReady<ServerProcessInfo>('server.process.ts', env);
    instances.push(next);
    const again = await postJson(claimant(next.info.marketsUrl), '/svc/user/withdraw/claim-winnings', { duelId });
    const answer = again.body as Record<string, unknown>;
    expect(again.status, JSON.stringify(answer)).toBe(200);
    const claim = (answer as { claims: { duelId: string; status: string; txHash: string | null }[] }).claims[0];
    expect(claim?.duelId).toBe(duelId);
    expect(['already_paid', 'submitted']).toContain(claim?.status);
    expect(claim?.txHash).toBe(sent);
    const intentKey = `markets.payout:${duelId}:${bobAddress.toLowerCase()}`;
    const [txs] = await c.orm.em
      .fork()
      .getConnection()
      .execute<{ n: string }[]>(`select count(*) as n from chain_txs where intent_key = ? or retired_key = ?`, [
        intentKey,
        intentKey,
      ]);
    expect(Number(txs?.n)).toBe(1);
    expect((await c.chain.owed(duelId, bobAddress)).paid).toBe(true);
    expect(await c.chain.collateralBalance('credits', bobAddress)).toBe(before + owed.amount);
  }, 180_000);
});
