import { getAddress, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, type Caller } from '../../../test/support/bets.js';
import { startCrashStack, untilFinal, type CrashStack, type FirstAttempt } from '../../../test/support/crash-stack.js';
import { fundedUser, UNIT, until } from '../../../test/support/market-fixtures.js';
import type { ServerProcessInfo, Spawned } from '../../../test/support/processes.js';
import { setSendRawMode } from '../../../test/support/rpc-proxy.js';

/** The in-process server's clock: real time plus what the test moved it by (the stranded sweep's 60 s). */
let offset = 0;
const clock = { now: () => Date.now() + offset };

/**
 * Direct withdrawals whose server process is killed (SIGKILL) in the middle of the request; the
 * same Idempotency-Key is then retried on another process of the same deployment.
 */
describe('a direct withdrawal across a process killed mid-request', () => {
  let stack: CrashStack;
  let b: Spawned<ServerProcessInfo>;

  beforeAll(async () => {
    stack = await startCrashStack({}, { clock });
    b = await stack.spawn();
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  const user = async (name: string) => {
    const u = await fundedUser(stack.setup.container, stack.setup.builderKey, name, 500n * UNIT);
    await stack.giveGas(u.address);
    return { ...u, at: (url: string): Caller => ({ url, builderKey: stack.setup.builderKey, token: u.token }) };
  };
  const destination = (): Address => privateKeyToAccount(generatePrivateKey()).address;
  const credits = () => stack.node.info.addresses.credits;
  const dailyLimit = async (url: string, token: string, address: string) => {
    const res = await fetch(
      `${url}/svc/user/withdrawal-requests/daily-limit?user=${address}&collateralStack=credits&collateralMode=credits`,
      { headers: { 'x-builder-api-key': stack.setup.builderKey, authorization: `Bearer ${token}` } },
    );
    expect(res.status).toBe(200);
    return (await res.json()) as { used: string; remaining: string; limit: string };
  };
  const keyed = (key: string) =>
    stack.count(`select count(*) as n from chain_txs where intent_key = ? or retired_key = ?`, [key, key]);

  it('sends once when the process dies the moment the node took the transfer: the retry on another process answers it', async () => {
    const alice = await user('wc_alice');
    const to = destination();
    const amount = 40n * UNIT;
    const body = { collateralStack: 'credits', amount: amount.toString(), toAddress: to };
    const a = await stack.spawn({}, true);
    await setSendRawMode(stack.proxy.info.url, { mode: 'hook', hookUrl: stack.hookUrl, times: 1 });
    const first: FirstAttempt = await postJson(
      alice.at(a.info.marketsUrl),
      '/svc/user/withdraw',
      body,
      'wd-after',
    ).then(
      (r) => r.status,
      () => 'connection lost',
    );
    expect(first).toBe('connection lost');
    expect(stack.hooked).toHaveLength(1);
    const sent = (JSON.parse(stack.hooked[0] as string) as { result: string }).result;
    expect(sent).toMatch(/^0x[0-9a-f]{64}$/);
    await until(
      () => stack.setup.container.chain.collateralBalance('credits', to),
      (v) => v === amount,
    );

    // The same key on another process, once the dead execution's lock timed out: the first
    // attempt's withdrawal, with the transfer the node took; nothing is sent again.
    const again = await untilFinal(() => postJson(alice.at(b.info.marketsUrl), '/svc/user/withdraw', body, 'wd-after'));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ amount: amount.toString(), toAddress: getAddress(to), txHash: sent });
    expect(['submitted', 'completed']).toContain(again.body['status']);
    const replay = await postJson(alice.at(b.info.marketsUrl), '/svc/user/withdraw', body, 'wd-after');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body['id']).toBe(again.body['id']);

    const transfers = await stack.transfersTo(credits(), to);
    expect(transfers).toEqual([{ value: amount, txHash: sent }]);
    expect(await stack.setup.container.chain.collateralBalance('credits', to)).toBe(amount);
    expect(await keyed(`withdraw:${String(again.body['id'])}`)).toBe(1);
    expect(await stack.count('select count(*) as n from withdrawals where to_address = ?', [getAddress(to)])).toBe(1);
    const limit = await dailyLimit(b.info.marketsUrl, alice.token, alice.address);
    expect(limit.used).toBe(amount.toString());
  }, 120_000);

  it('sends once when the process dies after counting the withdrawal and before signing it: the retry and the stranded sweep meet on one transfer', async () => {
    const bob = await user('wc_bob');
    const to = destination();
    const amount = 25n * UNIT;
    const body = { collateralStack: 'credits', amount: amount.toString(), toAddress: to };
    const a = await stack.spawn({}, true);
    // A write asks the node for its gas estimate after the withdrawal is reserved under the limit
    // and before it is signed and recorded: the process dies there.
    await setSendRawMode(stack.proxy.info.url, {
      mode: 'hook',
      method: 'eth_estimateGas',
      hookUrl: stack.hookUrl,
      times: 1,
    });
    const hookedBefore = stack.hooked.length;
    const first: FirstAttempt = await postJson(on(bob, a), '/svc/user/withdraw', body, 'wd-before').then(
      (r) => r.status,
      () => 'connection lost',
    );
    expect(first).toBe('connection lost');
    expect(stack.hooked).toHaveLength(hookedBefore + 1);
    const rows = await stack.setup.container.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string; status: string; tx_hash: string | null }[]>(
        'select id, status, tx_hash from withdrawals where to_address = ?',
        [getAddress(to)],
      );
    expect(rows).toEqual([expect.objectContaining({ status: 'reserved', tx_hash: null })]);
    const id = (rows[0] as { id: string }).id;
    expect(await keyed(`withdraw:${id}`)).toBe(0);
    expect((await dailyLimit(b.info.marketsUrl, bob.token, bob.address)).used).toBe(amount.toString());

    // The retry takes the key over (nothing was recorded: it runs) and resumes the reserved
    // withdrawal. While it waits for its gas estimate, the stranded-withdrawal sweep — a minute
    // later on its clock — sends the same withdrawal; the retry then finds that write.
    let swept: unknown = 'not run';
    stack.onNextHook(async () => {
      offset += 61_000;
      swept = await stack.setup.container.money.withdrawals.completeSubmitted().catch((err: unknown) => err);
    });
    await setSendRawMode(stack.proxy.info.url, {
      mode: 'hook',
      method: 'eth_estimateGas',
      hookUrl: stack.hookUrl,
      times: 1,
    });
    const again = await untilFinal(() => postJson(on(bob, b), '/svc/user/withdraw', body, 'wd-before'));
    expect(typeof swept, String(swept)).toBe('number'); // it ran without an error
    expect(stack.hooked).toHaveLength(hookedBefore + 2); // the retry did wait in its estimate
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body['id']).toBe(id);
    const [recorded] = await stack.setup.container.orm.em
      .fork()
      .getConnection()
      .execute<{ tx_hash: string }[]>(`select tx_hash from chain_txs where intent_key = ?`, [`withdraw:${id}`]);
    expect(again.body['txHash']).toBe(recorded?.tx_hash);
    expect(await keyed(`withdraw:${id}`)).toBe(1);
    await until(
      () => stack.transfersTo(credits(), to),
      (t) => t.length > 0,
    );
    // The sweep completes it from its receipt; the transfer is on chain once.
    await until(
      async () => {
        await stack.setup.container.money.withdrawals.completeSubmitted();
        return stack.count(`select count(*) as n from withdrawals where id = ? and status = 'completed'`, [id]);
      },
      (n) => n === 1,
    );
    expect(await stack.transfersTo(credits(), to)).toEqual([{ value: amount, txHash: recorded?.tx_hash }]);
    expect(await stack.setup.container.chain.collateralBalance('credits', to)).toBe(amount);
    const limit = await dailyLimit(b.info.marketsUrl, bob.token, bob.address);
    expect(limit.used).toBe(amount.toString());
  }, 120_000);
});

function on(u: { at(url: string): Caller }, instance: Spawned<ServerProcessInfo>): Caller {
  return u.at(instance.info.marketsUrl);
}
