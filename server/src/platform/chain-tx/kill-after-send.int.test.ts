import { randomBytes } from 'node:crypto';
import { getAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEE, newMarket } from '../../areas/packs/packs.test-kit.js';
import { postJson, type Caller } from '../../../test/support/bets.js';
import { startCrashStack, untilFinal, type CrashStack, type FirstAttempt } from '../../../test/support/crash-stack.js';
import { marketsApi } from '../../../test/support/http.js';
import { fundedUser, UNIT, until } from '../../../test/support/market-fixtures.js';
import type { ServerProcessInfo, Spawned } from '../../../test/support/processes.js';
import { setSendRawMode } from '../../../test/support/rpc-proxy.js';

/**
 * Writes that move a user's money, with the process serving the request killed (SIGKILL) at the
 * moment the chain node took the write (or, for a pack entry, once it was recorded too); the
 * same Idempotency-Key retried on another process answers that one write and sends nothing more.
 */
describe('a request killed after its chain write was sent, retried on another process', () => {
  let stack: CrashStack;
  let b: Spawned<ServerProcessInfo>;
  const INITIAL = 500n * UNIT;

  beforeAll(async () => {
    stack = await startCrashStack({ PACK_FEE_BPS: '500' });
    b = await stack.spawn();
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  const c = () => stack.setup.container;
  const user = async (name: string, spender?: Address) => {
    const u = await fundedUser(c(), stack.setup.builderKey, name, INITIAL);
    await stack.giveGas(u.address);
    // The allowance in place: the write the proxy hooks is the deposit itself, not its approval.
    if (spender) await stack.approve(u.user.id, stack.node.info.addresses.credits, spender);
    return {
      ...u,
      address: getAddress(u.address),
      at: (url: string): Caller => ({ url, builderKey: stack.setup.builderKey, token: u.token }),
    };
  };
  const killedOn = async (path: string, caller: Caller, body: unknown, key: string): Promise<FirstAttempt> =>
    postJson(caller, path, body, key).then(
      (r) => r.status,
      () => 'connection lost' as const,
    );
  const lastSent = () => (JSON.parse(stack.hooked.at(-1) as string) as { result: string }).result;
  const index = async () => {
    for (let i = 0; i < 20; i++) if ((await c().markets.indexer.runOnce()).caughtUp) return;
  };

  describe('pack entries', () => {
    let packId: string;
    const vault = () => stack.node.info.addresses.creditsVault;

    beforeAll(async () => {
      const api = marketsApi(() => stack.setup);
      const creator = await user('ks_host');
      const now = Date.now();
      const created = await api('/svc/packs/creator/packs', {
        token: creator.token,
        body: {
          title: 'Crash pack',
          category: 'Football',
          entryFee: FEE.toString(),
          lockAt: new Date(now + 600_000).toISOString(),
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      packId = created.body['id'] as string;
      const added = await api(`/svc/packs/creator/packs/${packId}/markets`, {
        token: creator.token,
        body: newMarket('Does a killed entry pay once?', now, 5_000, 900_000),
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      await until(
        async () => {
          await index();
          return api(`/svc/packs/creator/packs/${packId}/publish`, { token: creator.token, body: {} });
        },
        (r) => r.status === 200,
      );
    }, 60_000);

    const deposits = async (from: Address) => stack.transfersTo(stack.node.info.addresses.credits, vault(), from);
    const entryKeys = (userId: string) =>
      stack.count(`select count(*) as n from chain_txs where intent_key like ? or retired_key like ?`, [
        `packs:enter:${packId}:${userId}:%`,
        `packs:enter:${packId}:${userId}:%`,
      ]);

    it('deposits once when the process dies the moment the node took the deposit', async () => {
      const alice = await user('ks_alice', vault());
      const a = await stack.spawn({}, true);
      await setSendRawMode(stack.proxy.info.url, { mode: 'hook', hookUrl: stack.hookUrl, times: 1 });
      const path = `/svc/packs/${packId}/enter`;
      expect(await killedOn(path, alice.at(a.info.marketsUrl), {}, 'pack-after')).toBe('connection lost');
      const sent = lastSent();

      const again = await untilFinal(() => postJson(alice.at(b.info.marketsUrl), path, {}, 'pack-after'));
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      expect(again.body).toMatchObject({ packId, userAddress: alice.address, amount: FEE.toString(), txHash: sent });
      await until(
        () => deposits(alice.address),
        (d) => d.length > 0,
      );
      expect(await deposits(alice.address)).toEqual([{ value: FEE, txHash: sent }]);
      expect(await c().chain.collateralBalance('credits', alice.address)).toBe(INITIAL - FEE);
      expect(await entryKeys(alice.user.id)).toBe(1);
    }, 60_000);

    it('answers the entry, not ALREADY_ENTERED, when the process dies after recording the deposit and before answering', async () => {
      const bob = await user('ks_bob', vault());
      const a = await stack.spawn({}, true);
      // The entry asks the node for its deposit's receipt once the deposit is sent and recorded
      // on the entry: the process dies there, before its answer is stored.
      await setSendRawMode(stack.proxy.info.url, {
        mode: 'hook',
        method: 'eth_getTransactionReceipt',
        hookUrl: stack.hookUrl,
        times: 1,
      });
      const path = `/svc/packs/${packId}/enter`;
      expect(await killedOn(path, bob.at(a.info.marketsUrl), {}, 'pack-recorded')).toBe('connection lost');
      const [row] = await c()
        .orm.em.fork()
        .getConnection()
        .execute<{ tx_hash: string | null }[]>(`select tx_hash from pack_entries where pack_id = ? and user_id = ?`, [
          packId,
          bob.user.id,
        ]);
      expect(row?.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);

      const again = await untilFinal(() => postJson(bob.at(b.info.marketsUrl), path, {}, 'pack-recorded'));
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      expect(again.body).toMatchObject({ packId, userAddress: bob.address, txHash: row?.tx_hash });
      expect(await deposits(bob.address)).toEqual([{ value: FEE, txHash: row?.tx_hash }]);
      expect(await c().chain.collateralBalance('credits', bob.address)).toBe(INITIAL - FEE);
      expect(await entryKeys(bob.user.id)).toBe(1);
      // Another request (another key) of the same user is still refused: one entry per user.
      const other = await postJson(bob.at(b.info.marketsUrl), path, {}, 'pack-other');
      expect([other.status, other.body['code']]).toEqual([409, 'ALREADY_ENTERED']);
    }, 60_000);
  });

  it('deposits a tournament buy-in once when the process dies the moment the node took it', async () => {
    const vault = stack.node.info.addresses.creditsVault;
    const carol = await user('ks_carol', vault);
    const tournamentId = randomBytes(12).toString('hex');
    const amount = 7n * UNIT;
    const body = { stakeAsset: 'credits', amount: amount.toString(), execute: true };
    const a = await stack.spawn({}, true);
    const tournaments = (p: Spawned<ServerProcessInfo>): Caller => ({
      ...carol.at(p.info.tournamentsUrl as string),
    });
    const path = `/api/tournaments/${tournamentId}/deposit`;
    await setSendRawMode(stack.proxy.info.url, { mode: 'hook', hookUrl: stack.hookUrl, times: 1 });
    expect(await killedOn(path, tournaments(a), body, 'buyin-after')).toBe('connection lost');
    const sent = lastSent();

    const again = await untilFinal(() => postJson(tournaments(b), path, body, 'buyin-after'));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ tournamentId, executed: true, txHash: sent, amount: amount.toString() });
    const deposits = await until(
      () => stack.transfersTo(stack.node.info.addresses.credits, vault, carol.address),
      (d) => d.length > 0,
    );
    expect(deposits).toEqual([{ value: amount, txHash: sent }]);
    expect(await c().chain.collateralBalance('credits', carol.address)).toBe(INITIAL - amount);
  }, 60_000);

  it('deposits a creator bond once when the process dies the moment the node took the deposit', async () => {
    const vault = stack.node.info.addresses.creditsVault;
    const frank = await user('ks_frank', vault);
    const path = '/api/tournaments/creator/deposit-bond';
    const body = { execute: true, amount: (50n * UNIT).toString() };
    const a = await stack.spawn({}, true);
    await setSendRawMode(stack.proxy.info.url, { mode: 'hook', hookUrl: stack.hookUrl, times: 1 });
    expect(await killedOn(path, frank.at(a.info.tournamentsUrl as string), body, 'bond-in-kill')).toBe(
      'connection lost',
    );
    const sent = lastSent();

    const again = await untilFinal(() =>
      postJson(frank.at(b.info.tournamentsUrl as string), path, body, 'bond-in-kill'),
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ txHash: sent, amount: (50n * UNIT).toString(), recorded: true });
    expect((again.body['bond'] as { deposited: string }).deposited).toBe((50n * UNIT).toString());
    expect(await stack.transfersTo(stack.node.info.addresses.credits, vault, frank.address)).toEqual([
      { value: 50n * UNIT, txHash: sent },
    ]);
  }, 60_000);

  it('releases a creator bond withdrawal once when the process dies the moment the node took the release', async () => {
    const vault = stack.node.info.addresses.creditsVault;
    const erin = await user('ks_erin', vault);
    const at = (p: Spawned<ServerProcessInfo> | { tournamentsUrl: string }) =>
      erin.at('info' in p ? (p.info.tournamentsUrl as string) : p.tournamentsUrl);
    const bonded = await postJson(
      at(stack.setup),
      '/api/tournaments/creator/deposit-bond',
      { execute: true, amount: (50n * UNIT).toString() },
      'bond-in',
    );
    expect(bonded.status, JSON.stringify(bonded.body)).toBe(200);
    await until(
      async () =>
        (
          await postJson(at(stack.setup), '/api/tournaments/creator/deposit-bond', {
            execute: false,
            txHash: bonded.body['txHash'],
          })
        ).body,
      (b) => (b['bond'] as { deposited: string }).deposited === (50n * UNIT).toString(),
    );
    const a = await stack.spawn({}, true);
    const path = '/api/tournaments/creator/withdraw-bond';
    const body = { amount: (20n * UNIT).toString() };
    await setSendRawMode(stack.proxy.info.url, { mode: 'hook', hookUrl: stack.hookUrl, times: 1 });
    expect(await killedOn(path, at(a), body, 'bond-out')).toBe('connection lost');
    const sent = lastSent();

    const again = await untilFinal(() => postJson(at(b), path, body, 'bond-out'));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ amount: (20n * UNIT).toString(), txHash: sent });
    expect((again.body['bond'] as { deposited: string }).deposited).toBe((30n * UNIT).toString());
    const released = await until(
      () => stack.transfersTo(stack.node.info.addresses.credits, erin.address, vault),
      (t) => t.length > 0,
    );
    expect(released).toEqual([{ value: 20n * UNIT, txHash: sent }]);
    expect(await c().chain.collateralBalance('credits', erin.address)).toBe(INITIAL - 30n * UNIT);
  }, 60_000);

  it('creates one market when the process dies the moment the node took the creation', async () => {
    const dave = await user('ks_dave', stack.node.info.addresses.markets);
    const a = await stack.spawn({}, true);
    const request = {
      question: 'Created once after a kill?',
      category: 'Football',
      startTime: new Date(Date.now() + 3_600_000).toISOString(),
      endTime: new Date(Date.now() + 7_200_000).toISOString(),
    };
    await setSendRawMode(stack.proxy.info.url, { mode: 'hook', hookUrl: stack.hookUrl, times: 1 });
    expect(await killedOn('/svc/user/duels/create', dave.at(a.info.marketsUrl), request, 'create-kill')).toBe(
      'connection lost',
    );
    const sent = lastSent();

    const again = await untilFinal(() =>
      postJson(dave.at(b.info.marketsUrl), '/svc/user/duels/create', request, 'create-kill'),
    );
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body['txHash']).toBe(sent);
    const duelId = again.body['duelId'] as string;
    expect(await stack.count('select count(*) as n from duels where question = ?', [request.question])).toBe(1);
    await index();
    const created = (await c().chain.marketEvents(0n, await c().chain.blockNumber())).filter(
      (e) => e.kind === 'created' && e.duelId.toLowerCase() === duelId.toLowerCase(),
    );
    expect(created).toHaveLength(1);
    expect((await c().markets.repo.byDuelId(duelId))?.chainState).toBe('confirmed');
  }, 60_000);
});
