/**
 * The topology of deploy/ on one machine: HAProxy (deploy/haproxy.cfg) in front of two API
 * replicas (JOBS_ENABLED=false) and one worker, sharing one PostgreSQL database, Redis and a chain
 * node. Driven only through the proxy, the SDK, public HTTP and the operator surface.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, DuelkitClient, ServerError, type DuelkitEvent } from '@duelkit/sdk';
import { confirmedDuel, startServer, type ServerProcess, UNIT, until } from './support.js';
import {
  deleteRedisKeys,
  type Instance,
  logEntries,
  type Proxy,
  readEnvFile,
  sharedDatabase,
  startInstance,
  startProxy,
} from './topology-support.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const SELFSERVE_PER_MIN = 12;
const HELPERS_IP_PER_MIN = 20;

let chainNode: ServerProcess;
let database: Awaited<ReturnType<typeof sharedDatabase>>;
let worker: Instance;
let replicas: Instance[];
let proxy: Proxy;
/** What a builder has: a key, the chain's RPC for reads, and credits granted by the operator commands. */
let site: { builderKey: string; rpcUrl: string; grantCredits(address: Address, amount: bigint): Promise<void> };

beforeAll(async () => {
  const operatorKey = generatePrivateKey();
  // The chain node: an embedded instance serving its EVM, with the contracts deployed; it does
  // nothing else (its own database, no jobs).
  chainNode = await startServer({ CHAIN_OPERATOR_KEY: operatorKey, JOBS_ENABLED: 'false' });
  database = await sharedDatabase();
  const { credits, usdc, markets, creditsVault, usdcVault } = chainNode.contracts;
  // What deploy/env/duelkit.env sets for every process (here on the embedded run mode's defaults).
  const shared = {
    DATABASE_URL: database.url,
    REDIS_URL,
    CHAIN_RPC_URL: chainNode.rpcUrl,
    CHAIN_CONTRACTS: JSON.stringify({ credits, usdc, markets, creditsVault, usdcVault }),
    CHAIN_OPERATOR_KEY: operatorKey,
    CHAIN_CONFIRMATIONS: '0',
    JWT_SECRET: generatePrivateKey(),
    WALLET_MASTER_KEY: generatePrivateKey(),
    TOURNAMENTS_SERVICE_TOKEN: generatePrivateKey(),
    BUILDER_KEY_CACHE_MS: '0',
    DUEL_PUBLIC_LEAD_SECONDS: '0',
    INDEXER_INTERVAL_MS: '200',
    RATE_LIMIT_TEAM_PER_MIN: '100000',
    RATE_LIMIT_SELFSERVE_PER_MIN: String(SELFSERVE_PER_MIN),
    SPORTS_HELPERS_IP_LIMIT_PER_MIN: String(HELPERS_IP_PER_MIN),
    SHUTDOWN_GRACE_MS: '1000',
  };
  // Any free ports: the proxy is pointed at the addresses each instance logs.
  const ports = { PORT: '0', TOURNAMENTS_PORT: '0' };
  const api = readEnvFile('api.env');
  // All three at once, as `systemctl start duelkit.target` starts them; the builder key is made
  // afterwards through the worker's operator surface, as `pnpm keys:create` does.
  [worker, ...replicas] = await Promise.all([
    startInstance('worker', {
      ...shared,
      ...readEnvFile('worker.env'),
      ...ports,
      OPERATOR_PORT: '0',
    }),
    ...[1, 2].map(async (n) => startInstance(`api${n}`, { ...shared, ...api, ...ports })),
  ]);
  const { key: builderKey } = await worker.operator<{ key: string }>('/operator/builder-keys', {
    name: 'topology',
    tier: 'team',
  });
  proxy = await startProxy(replicas);
  site = {
    builderKey,
    rpcUrl: chainNode.rpcUrl,
    async grantCredits(address, amount) {
      const granted = await worker.operator<{ status: string }>('/operator/credits', {
        address,
        amount: amount.toString(),
        stack: 'credits',
      });
      if (granted.status !== 'success') throw new Error(`credits grant ${granted.status}`);
    },
  };
}, 180_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all([...(replicas ?? []), worker].map((p) => p?.stop()));
  if (database) {
    deleteRedisKeys(REDIS_URL, `{duelkit:${database.name}}`);
    deleteRedisKeys(REDIS_URL, `duelkit:${database.name}:`);
  }
  await database?.drop();
  await chainNode?.stop();
});

/** A client of `urls` (the proxy unless a test talks to one replica), signed in as a new funded wallet. */
async function user(username: string, urls: { marketsUrl: string; tournamentsUrl: string } = proxy) {
  const client = new DuelkitClient({
    ...urls,
    builderApiKey: site.builderKey,
    signer: privateKeyToAccount(generatePrivateKey()),
    maxRetries: 0,
  });
  const session = await client.auth.signIn({ username });
  const address = session.user?.address as Address;
  await site.grantCredits(address, 1_000n * UNIT);
  return { client, address };
}

/**
 * A public credits market, once the worker's indexer has confirmed it. Trading runs until the end
 * time; a start a minute ahead is never "too soon" on a busy machine.
 */
const confirmedMarket = (creator: DuelkitClient, question: string) => confirmedDuel(site, creator, question, 60_000);

/** Quotes and places `units` credits on `optionIndex`; the accepted bet, or null when it was refused. */
async function bet(client: DuelkitClient, duelId: string, optionIndex: number, units: bigint) {
  const quote = await client.bets.estimateBuy({
    body: { duelId, optionIndex, betAmountUsdc: (units * UNIT).toString(), slippageBps: 500 },
  });
  if (!quote.success) return null;
  return client.bets.create({
    body: {
      estimate: quote.estimate,
      duelId,
      duelType: 'PREDICTION',
      bet: optionIndex === 0 ? 'YES' : 'NO',
      optionIndex,
      betAmount: quote.estimate.amountIn,
      betAmountUsdc: quote.estimate.amountIn,
      slippageBps: 500,
      tokenDecimals: 18,
    },
  });
}

describe('two replicas and a worker behind HAProxy', () => {
  let duelId: string;

  it('routes both hosts through the proxy, with only the worker running background jobs', async () => {
    for (const url of [proxy.marketsUrl, proxy.tournamentsUrl]) {
      const ready = await fetch(`${url}/ready`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { status: string }).status).toBe('ready');
    }
    const tournaments = await fetch(`${proxy.tournamentsUrl}/svc/sports/football/team/5/squad`, {
      headers: { 'x-builder-api-key': site.builderKey },
    });
    expect(tournaments.status).toBe(200);
    // One process runs jobs, on the Redis backend; the replicas start none.
    expect(logEntries(worker.lines, 'background jobs started')).toEqual([
      expect.objectContaining({ backend: 'redis' }),
    ]);
    for (const replica of replicas) expect(logEntries(replica.lines, 'background jobs started')).toEqual([]);
    // A market created through the proxy is confirmed: the worker's indexer saw it.
    const { client: creator } = await user('topo_creator');
    duelId = await confirmedMarket(creator, 'Will the replicas share one indexer?');
    expect(duelId).toMatch(/^0x/);
  });

  it('counts one key’s requests across both replicas: exactly the limit succeeds', async () => {
    const key = (
      await worker.operator<{ key: string }>('/operator/builder-keys', { name: 'limited', tier: 'selfserve' })
    ).key;
    const extra = 6;
    const statuses = await Promise.all(
      Array.from({ length: SELFSERVE_PER_MIN + extra }, (_, i) =>
        fetch(`${replicas[i % 2]?.marketsUrl}/svc/public/duels/all?page=1&limit=5`, {
          headers: { 'x-builder-api-key': key },
        }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(SELFSERVE_PER_MIN);
    expect(statuses.filter((s) => s === 429)).toHaveLength(extra);
  });

  it('serves one sports cache to both replicas', async () => {
    // A team nobody asked for yet: replica 1 fetches it, replica 2 answers from the shared entry.
    const team = 100_000 + Math.floor(Math.random() * 1_000_000);
    const read = async (replica: Instance) => {
      const res = await fetch(`${replica.tournamentsUrl}/svc/sports/football/team/${team}/squad`, {
        headers: { 'x-builder-api-key': site.builderKey },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { _meta: { fromCache: boolean; fetchedAt: string } })._meta;
    };
    const first = await read(replicas[0] as Instance);
    const second = await read(replicas[1] as Instance);
    expect(first.fromCache).toBe(false);
    expect(second).toMatchObject({ fromCache: true, fetchedAt: first.fetchedAt });
  });

  it('limits a client by the address HAProxy forwards, whatever X-Forwarded-For it sends itself', async () => {
    // The replicas trust one hop (TRUST_PROXY=1): the last X-Forwarded-For entry, the one HAProxy
    // appends. A client naming a new address on every request is still one client.
    const extra = 4;
    const statuses: number[] = [];
    for (let i = 0; i < HELPERS_IP_PER_MIN + extra; i++) {
      const res = await fetch(`${proxy.tournamentsUrl}/svc/sports/football/team/5/squad`, {
        headers: { 'x-builder-api-key': site.builderKey, 'x-forwarded-for': `198.51.100.${i + 1}` },
      });
      statuses.push(res.status);
    }
    // Earlier tests of this file spent some of the same address's allowance.
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(HELPERS_IP_PER_MIN);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(extra);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
  });

  it('streams through one replica the bets placed through the other, each once', async () => {
    const [one, two] = replicas as [Instance, Instance];
    const { client: watcher } = await user('topo_watcher', one);
    const { client: trader } = await user('topo_streamer', two);
    const controller = new AbortController();
    const seen: DuelkitEvent[] = [];
    const reading = (async () => {
      for await (const event of watcher.events.stream({
        types: ['bet.confirmed'],
        duelIds: [duelId],
        signal: controller.signal,
      })) {
        seen.push(event);
      }
    })().catch((err: unknown) => {
      if (!controller.signal.aborted) throw err;
    });
    // The stream subscribes once connected; a bet placed before that is not on it, the next one is.
    const placed: string[] = [];
    const onStream = () => seen.some((e) => placed.includes(String((e.data as { txHash?: string }).txHash)));
    for (let i = 0; i < 15 && !onStream(); i++) {
      const accepted = await bet(trader, duelId, i % 2, 5n);
      if (accepted) placed.push(accepted.txHash);
      for (let j = 0; j < 20 && !onStream(); j++) await new Promise((r) => setTimeout(r, 100));
    }
    controller.abort();
    await reading;
    expect(onStream()).toBe(true);
    const hashes = seen.map((e) => String((e.data as { txHash?: string }).txHash));
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('loses no accepted bet when a replica is killed under load, and the proxy fails over', async () => {
    // Each trader on a market of its own: its bets never race another trader's price.
    const traders = await Promise.all(
      [0, 1, 2, 3].map(async (i) => {
        const trader = await user(`topo_load_${i}`);
        return { ...trader, duelId: await confirmedMarket(trader.client, `Topology load market ${i}`) };
      }),
    );
    const sent = traders.map(() => [0n, 0n]);
    /** Requests cut short (no answer, or a 5xx): carried out or not, nobody was told. */
    const unanswered = traders.map(() => 0);
    let accepted = 0;
    let acceptedAfterKill = 0;
    let killed = false;
    await Promise.all(
      traders.map(async ({ client, duelId }, t) => {
        for (let i = 0; i < 40 && (!killed || acceptedAfterKill < 8); i++) {
          const option = i % 2;
          try {
            const placed = await bet(client, duelId, option, 5n);
            if (placed) {
              const amounts = sent[t] as bigint[];
              amounts[option] = (amounts[option] ?? 0n) + BigInt(placed.betAmount);
              accepted += 1;
              if (killed) acceptedAfterKill += 1;
            }
            // A read between writes, as a front-end does.
            await client.duels.getById({ params: { duelId }, query: {} });
          } catch (err) {
            if (!(err instanceof ConnectionError || err instanceof ServerError)) throw err;
            unanswered[t] = (unanswered[t] ?? 0) + 1;
          }
          if (!killed && accepted >= 6) {
            replicas[0]?.child.kill('SIGKILL');
            killed = true;
          }
        }
      }),
    );
    expect(killed).toBe(true);
    expect(acceptedAfterKill).toBeGreaterThanOrEqual(8);
    // The proxy answers from the replica left, on both hosts.
    for (let i = 0; i < 10; i++) {
      const list = await fetch(`${proxy.marketsUrl}/svc/public/duels/all?page=1&limit=5`, {
        headers: { 'x-builder-api-key': site.builderKey },
      });
      expect(list.status).toBe(200);
      expect((await fetch(`${proxy.tournamentsUrl}/ready`)).status).toBe(200);
    }
    // Every bet answered 201 reaches its trader's position through the worker's indexer. A request
    // cut short by the kill may have been carried out as well: then a position holds more, never less.
    const costOf = (p: { shares: { optionIndex: number; costBasis: string }[] }, option: number) =>
      BigInt(p.shares.find((s) => s.optionIndex === option)?.costBasis ?? '0');
    await Promise.all(
      traders.map(async ({ client, address, duelId }, t) => {
        const amounts = sent[t] as bigint[];
        const position = await until(
          () => client.bets.userShares({ params: { duelId, address } }),
          (p) => [0, 1].every((o) => costOf(p, o) >= (amounts[o] ?? 0n)),
          30_000,
        );
        for (const o of [0, 1]) {
          if (unanswered[t] === 0) expect(costOf(position, o)).toBe(amounts[o]);
        }
      }),
    );
  });
});
