import { getAddress, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betBody, type Caller } from '../../../test/support/bets.js';
import { startCrashStack, type CrashStack } from '../../../test/support/crash-stack.js';
import { fundedUser, UNIT, until } from '../../../test/support/market-fixtures.js';
import type { ServerProcessInfo, Spawned } from '../../../test/support/processes.js';
import { proxyStats, setSendRawMode, type SendRawMode } from '../../../test/support/rpc-proxy.js';
import { testContext } from '../../../test/support/operation.js';

/**
 * How many times an instance is killed (SIGKILL) and restarted: each slot twice, every other kill
 * at a send. Between kills, and after the last restart, the load runs through both instances for
 * a pause. The run counts kills, not seconds, so a slow machine makes it longer, never weaker.
 */
const KILLS = 4;
const PAUSE_MS = 8_000;
const USERS = 4;
const SEED = 20261127;
const INITIAL = 10n ** 24n;

/** mulberry32: each client's choices repeat with the seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  /** Answered from the key's record (Idempotent-Replayed) rather than by running. */
  readonly replayed: boolean;
}

interface Op {
  readonly kind: 'bet' | 'withdraw';
  readonly key: string;
  readonly amount: bigint;
  /** The final answer, or undefined when the retries ran out (in flight as far as the client knows). */
  answer: Answer | undefined;
  tries: number;
  ms: number;
}

/**
 * Two server instances on one database and one chain node behind a faulty RPC proxy; clients
 * keep betting and withdrawing with Idempotency-Keys, alternating instances and retrying a
 * failed or cut request with the same key on the other one; an instance is killed with SIGKILL
 * four times, a pause of load apart (every other time at the moment the node accepted one of its sends, through a
 * proxy of its own) and restarted; the proxies delay, cut and lose sends at random (fixed seeds).
 * Afterwards the chain is the judge: every acknowledged request has exactly one effect, and no
 * effect is without one.
 */
describe('bets and withdrawals through killed instances and a faulty RPC', () => {
  let stack: CrashStack;
  /** The instance in each slot, and the proxy it reaches the node through (its kills can be timed there). */
  const live: (Spawned<ServerProcessInfo> | undefined)[] = [undefined, undefined];
  const proxies: Spawned<{ url: string }>[] = [];
  const slotEnv = (slot: number) => ({
    ...instanceEnv,
    CHAIN_RPC_URL: (proxies[slot] as Spawned<{ url: string }>).info.url,
  });
  const chaos = (slot: number): SendRawMode => ({
    mode: 'chaos',
    chaos: { seed: SEED + 100 * slot, dropBefore: 0.06, dropAfter: 0.06, delay: 0.12, maxDelayMs: 2_500 },
  });
  const instanceEnv = {
    JOBS_ENABLED: 'true',
    INDEXER_INTERVAL_MS: '300',
    CHAIN_RECONCILE_INTERVAL_MS: '500',
    CHAIN_REBROADCAST_AFTER_MS: '1000',
    DATABASE_POOL_SIZE: '6',
  };

  beforeAll(async () => {
    stack = await startCrashStack({
      RATE_LIMIT_TEAM_PER_MIN: '1000000',
      USER_BET_LIMIT: '0',
      BET_QUOTE_TTL_SECONDS: '900',
    });
    proxies.push(stack.proxy, await stack.extraProxy());
    live[0] = await stack.spawn(slotEnv(0));
    live[1] = await stack.spawn(slotEnv(1));
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('gives every acknowledged bet and withdrawal exactly one effect on chain, and no effect without one', async () => {
    const c = stack.setup.container;
    const markets = stack.node.info.addresses.markets;
    const credits = stack.node.info.addresses.credits;
    const creator = await fundedUser(c, stack.setup.builderKey, 'chaos_host', 2n * INITIAL);
    await stack.giveGas(creator.address);
    await stack.approve(creator.user.id, credits, markets);
    const { duelId } = await c.markets.duels.create(
      testContext(),
      { userId: creator.user.id, builderAppId: creator.builderAppId, address: creator.address },
      {
        question: 'Does every acknowledged request have one effect?',
        category: 'Football',
        startTime: new Date(Date.now() + 3_600_000).toISOString(),
        endTime: new Date(Date.now() + 7_200_000).toISOString(),
        initialLiquidity: INITIAL.toString(),
      },
    );
    // The instances' indexer confirms it.
    await until(
      () => c.markets.repo.byDuelId(duelId),
      (d) => d?.chainState === 'confirmed',
      30_000,
    );
    const users: { token: string; address: Address; to: Address; ops: Op[] }[] = [];
    for (let i = 0; i < USERS; i++) {
      const u = await fundedUser(c, stack.setup.builderKey, `chaos_${i}`, INITIAL);
      await stack.giveGas(u.address);
      await stack.approve(u.user.id, credits, markets);
      const address = getAddress(u.address);
      await until(
        () => c.chain.collateralBalance('credits', address),
        (b) => b === INITIAL,
      );
      users.push({ token: u.token, address, to: privateKeyToAccount(generatePrivateKey()).address, ops: [] });
    }

    for (const slot of [0, 1]) await setSendRawMode((proxies[slot] as Spawned<{ url: string }>).info.url, chaos(slot));
    let finished = false;
    const running = () => !finished;

    /** One request to instance `i`: its answer, or undefined when it failed in a way worth retrying. */
    const send = async (i: number, token: string, path: string, body: unknown, key?: string) => {
      const instance = live[i % 2];
      if (!instance) return undefined;
      try {
        const res = await fetch(`${instance.info.marketsUrl}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-builder-api-key': stack.setup.builderKey,
            authorization: `Bearer ${token}`,
            ...(key ? { 'idempotency-key': key } : {}),
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        const answer: Answer = {
          status: res.status,
          body: (await res.json()) as Record<string, unknown>,
          replayed: res.headers.get('idempotent-replayed') === 'true',
        };
        // Not final: the server failed, is starting, or the key is still held by a dead execution.
        if (answer.status >= 500 || answer.body['code'] === 'IDEMPOTENCY_KEY_IN_FLIGHT') return undefined;
        return answer;
      } catch {
        return undefined; // connection refused or cut: the instance died
      }
    };
    /** The same request with the same key, alternating instances, until a final answer (bounded). */
    const finalAnswer = async (first: number, op: Op, token: string, path: string, body: unknown) => {
      for (let attempt = 0; attempt < 120; attempt++) {
        op.tries = attempt + 1;
        const answer = await send(first + attempt, token, path, body, op.key);
        if (answer) return answer;
        await new Promise((r) => setTimeout(r, 250));
      }
      return undefined;
    };

    const client = async (u: (typeof users)[number], index: number) => {
      const random = seeded(SEED + index);
      const caller = (i: number): Caller => ({
        url: live[i % 2]?.info.marketsUrl ?? '',
        builderKey: stack.setup.builderKey,
        token: u.token,
      });
      for (let n = 0; running(); n++) {
        const first = index + n;
        // A client's think time: the machine running this is small and shared.
        await new Promise((r) => setTimeout(r, 150 + Math.floor(random() * 150)));
        if (random() < 0.6) {
          // A quote from whichever instance answers; the bet itself is the keyed request.
          let body: Awaited<ReturnType<typeof betBody>> | undefined;
          for (let attempt = 0; !body && attempt < 40; attempt++) {
            const amount = BigInt(5 + Math.floor(random() * 3)) * UNIT + BigInt(Math.floor(random() * 1e9));
            body = await betBody(caller(first + attempt), duelId, amount, Math.floor(random() * 2)).catch(
              () => undefined,
            );
            if (!body) await new Promise((r) => setTimeout(r, 250));
          }
          if (!body) continue;
          const op: Op = {
            kind: 'bet',
            key: `chaos-bet-${index}-${n}`,
            amount: BigInt(body.betAmount as string),
            answer: undefined,
            tries: 0,
            ms: Date.now(),
          };
          u.ops.push(op);
          op.answer = await finalAnswer(first, op, u.token, '/svc/user/bets/create', body);
          op.ms = Date.now() - op.ms;
        } else {
          const amount = BigInt(1 + Math.floor(random() * 2)) * UNIT + BigInt(Math.floor(random() * 1e9));
          const op: Op = {
            kind: 'withdraw',
            key: `chaos-wd-${index}-${n}`,
            amount,
            answer: undefined,
            tries: 0,
            ms: Date.now(),
          };
          u.ops.push(op);
          op.answer = await finalAnswer(first, op, u.token, '/svc/user/withdraw', {
            collateralStack: 'credits',
            amount: amount.toString(),
            toAddress: u.to,
          });
          op.ms = Date.now() - op.ms;
        }
      }
    };

    let kills = 0;
    let killedAtSend = 0;
    const exited = (p: Spawned<ServerProcessInfo>, ms: number) =>
      new Promise<boolean>((resolve) => {
        if (p.proc.exitCode !== null || p.proc.signalCode !== null) return resolve(true);
        const timer = setTimeout(() => resolve(false), ms);
        p.proc.once('exit', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    const pause = () => new Promise((r) => setTimeout(r, PAUSE_MS));
    const killer = async () => {
      while (kills < KILLS) {
        await pause();
        const slot = kills % 2;
        const victim = live[slot] as Spawned<ServerProcessInfo>;
        const proxyUrl = (proxies[slot] as Spawned<{ url: string }>).info.url;
        if (kills % 2 === 1) {
          // Every other kill at the moment the node accepted one of the victim's sends.
          stack.setVictim(victim);
          await setSendRawMode(proxyUrl, { mode: 'hook', hookUrl: stack.hookUrl, times: 1, then: chaos(slot) });
          if (await exited(victim, 10_000)) killedAtSend++;
          else await setSendRawMode(proxyUrl, chaos(slot));
        }
        live[slot] = undefined;
        victim.proc.kill('SIGKILL');
        await exited(victim, 10_000);
        kills++;
        live[slot] = await stack.spawn(slotEnv(slot));
      }
      await pause();
      finished = true;
    };

    await Promise.all([killer(), ...users.map((u, i) => client(u, i))]);
    const stats = await Promise.all(proxies.map((p) => proxyStats(p.info.url)));
    const faults = {
      sends: stats.reduce((n, s) => n + s.sendRaw, 0),
      droppedBefore: stats.reduce((n, s) => n + s.droppedBefore, 0),
      droppedAfter: stats.reduce((n, s) => n + s.droppedAfter, 0),
      delayed: stats.reduce((n, s) => n + s.delayed, 0),
    };
    for (const p of proxies) await setSendRawMode(p.info.url, { mode: 'pass' });

    // Every recorded write settles (the instances' reconcilers send lost ones again).
    await until(
      () => stack.count(`select count(*) as n from chain_txs where status in ('signed', 'broadcast')`, []),
      (n) => n === 0,
      60_000,
    );

    const ops = users.flatMap((u) => u.ops);
    const summary = {
      kills,
      killedAtSend,
      faults,
      ops: ops.length,
      acknowledged: ops.filter((o) => o.answer && o.answer.status < 300).length,
      refused: ops
        .filter((o) => o.answer && o.answer.status >= 300)
        .map((o) => [o.kind, o.answer?.status, o.answer?.body['code']]),
      retried: ops.filter((o) => o.tries > 1).length,
      retriedAndReplayed: ops.filter((o) => o.tries > 1 && o.answer?.replayed).length,
      slowestMs: Math.max(...ops.map((o) => o.ms)),
      mostTries: Math.max(...ops.map((o) => o.tries)),
    };
    console.info(JSON.stringify(summary, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
    expect(kills).toBe(KILLS);
    expect(killedAtSend).toBeGreaterThan(0);
    expect(faults.droppedBefore + faults.droppedAfter + faults.delayed).toBeGreaterThan(0);
    expect(summary.retried).toBeGreaterThan(0);
    // Every request reached a final answer: nothing is left in flight to account for.
    expect(ops.filter((o) => o.answer === undefined).map((o) => o.key)).toEqual([]);

    const events = await c.chain.marketEvents(0n, await c.chain.blockNumber());
    for (const u of users) {
      const acked = (kind: Op['kind']) => u.ops.filter((o) => o.kind === kind && o.answer && o.answer.status < 300);
      const bets = acked('bet');
      const withdrawals = acked('withdraw');
      // Each acknowledged bet is one trade of this trader, and the trader has no other.
      const trades = events.flatMap((e) =>
        e.kind === 'bought' && getAddress(e.trader) === u.address
          ? [{ txHash: e.txHash, collateral: e.collateral }]
          : [],
      );
      expect(trades.map((t) => t.txHash).sort()).toEqual(bets.map((b) => b.answer?.body['txHash']).sort());
      expect(trades.map((t) => t.collateral).sort()).toEqual(bets.map((b) => b.amount).sort());
      // Each acknowledged withdrawal is one transfer to the user's destination, and there is no other.
      const transfers = await stack.transfersTo(credits, u.to, u.address);
      expect(transfers.map((t) => t.txHash).sort()).toEqual(withdrawals.map((w) => w.answer?.body['txHash']).sort());
      expect(transfers.map((t) => t.value).sort()).toEqual(withdrawals.map((w) => w.amount).sort());
      // The wallet's balance to the base unit.
      const spent = [...bets, ...withdrawals].reduce((sum, o) => sum + o.amount, 0n);
      expect(await c.chain.collateralBalance('credits', u.address)).toBe(INITIAL - spent);
    }
  }, 300_000);
});
