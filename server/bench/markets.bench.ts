import pg from 'pg';
import { initOrm } from '../src/platform/db/orm.js';
import { entities } from '../src/entities.js';
import {
  buildServer,
  CONNECTIONS,
  cpuMs,
  DURATION,
  measure,
  print,
  startTarget,
  type Measured,
  type Target,
} from './harness.js';
import { duelsInsert, type DuelFixture } from '../test/support/duel-fixture.js';
import type { ChainNodeInfo } from '../test/support/processes.js';

const ADMIN_URL = process.env['BENCH_PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const UNIT = 10n ** 18n;

function dbUrl(name: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh, migrated database on the local PostgreSQL for one bench. */
export async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const orm = await initOrm(entities, dbUrl(name), 2, true);
  await orm.close(true);
  return dbUrl(name);
}

/** 10,000 duels: public and private, both collaterals, four statuses, spread over 30 days. */
export async function seedDuels(url: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const categories = ['Football', 'Cricket', 'Tennis', 'Formula 1'];
  const statuses = ['open', 'open', 'pending', 'settled', 'pending_contest'] as const;
  const now = Date.now();
  const minute = 60_000;
  const fixtures: DuelFixture[] = Array.from({ length: count }, (_, n) => {
    const i = n + 1;
    return {
      duelId: `0x${i.toString(16).padStart(64, '0')}`,
      creator: '0x000000000000000000000000000000000000dEaD',
      question: `Bench question ${i}`,
      category: categories[i % 4] as string,
      collateralStack: i % 3 === 0 ? 'usdc' : 'credits',
      isPrivate: i % 10 === 0,
      startTime: new Date(now + i * minute),
      endTime: new Date(now + (i + 60) * minute),
      createdAt: new Date(now - i * 4 * minute),
      status: statuses[i % 5] ?? 'open',
      poolBalances: ['100000000000000000000', '100000000000000000000'],
      feeBps: 100,
      // Every eighth duel mirrors an external market, most with a 24 h volume (the volume sort).
      isCanonical: i % 8 === 0,
      extVolume24h: i % 8 === 0 && i % 24 !== 0 ? String((i * 7919) % 100_000) : null,
    };
  });
  // A thousand rows per statement stays under PostgreSQL's 65,535 parameters.
  for (let at = 0; at < fixtures.length; at += 1000) {
    const { sql, params } = duelsInsert(fixtures.slice(at, at + 1000), { placeholders: 'pg' });
    await client.query(sql, params);
  }
  await client.query('analyze duels');
  await client.end();
}

/** Connections of the list benches: the load the p99 target is stated at. */
const LIST_CONNECTIONS = Number(process.env['BENCH_LIST_CONNECTIONS'] ?? 32);

/** 240 different list URLs: pages 1–30 of every sort in both orders. */
export function listMix(): string[] {
  const paths: string[] = [];
  for (const sortBy of ['createdAt', 'startTime', 'endTime', 'extMarketVolume24h']) {
    for (const sortOrder of ['desc', 'asc']) {
      for (let page = 1; page <= 30; page++) {
        paths.push(`/svc/public/duels/all?limit=20&page=${page}&sortBy=${sortBy}&sortOrder=${sortOrder}`);
      }
    }
  }
  return paths;
}

export interface ListRows {
  oneUrl: { naive: Measured; duelkit: Measured };
  mix: { naive: Measured; duelkit: Measured };
}

/** The public duel list over 10,000 duels: one URL and the 240-URL mix, naive vs the full stack. */
export async function listBench(): Promise<ListRows> {
  buildServer();
  const url = await freshDatabase('dk_bench_duels');
  await seedDuels(url, 10_000);
  const naive = await startTarget('./targets/naive-duels.ts', { DATABASE_URL: url });
  const stack = await startTarget('./targets/markets-stack.ts', { DATABASE_URL: url, JOBS_ENABLED: 'false' });
  const path = '/svc/public/duels/all?limit=20&page=3';
  const stackUrl = stack.info.marketsUrl ?? stack.info.url;
  const headers = { 'x-builder-api-key': stack.info.key ?? '' };
  const paths = listMix();
  const options = { connections: LIST_CONNECTIONS };
  try {
    const oneNaive = await measure(
      'naive node:http + pg, one URL',
      `${naive.info.url}${path}`,
      {},
      {
        ...options,
        target: naive,
      },
    );
    const oneFull = await measure(`Duelkit GET ${path}`, `${stackUrl}${path}`, headers, { ...options, target: stack });
    const mixNaive = await measure(
      'naive node:http + pg, 240-URL mix',
      naive.info.url,
      {},
      {
        ...options,
        paths,
        target: naive,
      },
    );
    const mixFull = await measure('Duelkit, 240-URL mix', stackUrl, headers, { ...options, paths, target: stack });
    console.log(`\nMarkets: public duel list over 10,000 duels (${LIST_CONNECTIONS} connections, ${DURATION} s)`);
    print([oneNaive, oneFull], oneNaive);
    print([mixNaive, mixFull], mixNaive);
    return { oneUrl: { naive: oneNaive, duelkit: oneFull }, mix: { naive: mixNaive, duelkit: mixFull } };
  } finally {
    naive.proc.kill();
    stack.proc.kill();
  }
}

interface TradingInfo {
  url: string;
  key: string;
  sessions: { token: string; address: string }[];
  duelId: string;
}

async function post(info: TradingInfo, token: string, path: string, body: unknown, key?: string) {
  const res = await fetch(`${info.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-builder-api-key': info.key,
      authorization: `Bearer ${token}`,
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A chain node in its own process (the production shape: the server reaches the chain over RPC). */
interface ChainNode {
  target: Target;
  env: Record<string, string>;
}

async function startChainNode(): Promise<ChainNode> {
  const target = await startTarget('../test/support/chain-node.process.ts');
  const ready = (target.info as unknown as { ready: ChainNodeInfo }).ready;
  return {
    target,
    env: {
      CHAIN_RPC_URL: ready.rpcUrl,
      CHAIN_ID: String(ready.chainId),
      CHAIN_CONTRACTS: JSON.stringify(ready.addresses),
      CHAIN_OPERATOR_KEY: ready.operatorKey,
      CHAIN_CONFIRMATIONS: '0',
    },
  };
}

/** Bets placed before the trading window and not counted (see `tradingRows`). */
const WARMUP_BETS = Number(process.env['BENCH_WARMUP_BETS'] ?? 1000);

export interface TradingRow {
  chain: string;
  estimate: Measured;
  accepted: number;
  rejected: number;
  acceptedPerSecond: number;
  /** Latency of an accepted `POST /svc/user/bets/create`, ms: median and 99th percentile. */
  placeP50: number;
  placeP99: number;
  /** The server process's CPU time per accepted bet (estimate + place), ms. */
  serverCpuMsPerBet: number;
  /** The chain node's CPU time per accepted bet, ms (undefined when it runs inside the server). */
  chainCpuMsPerBet: number | undefined;
  indexedPerSecond: number;
}

/**
 * Estimates and sustained bet placement (`pnpm bench trading`), twice: on the embedded EVM inside
 * the server process (the README's default; its CPU counts as the server's), and against a chain
 * node in its own process (production's shape), where the server's CPU and the node's are apart.
 */
export async function tradingBench(): Promise<TradingRow[]> {
  buildServer();
  // BENCH_CHAIN=embedded or node: one row only.
  const shapes = (['embedded', 'node'] as const).filter((s) => (process.env['BENCH_CHAIN'] ?? s) === s);
  const rows: TradingRow[] = [];
  for (const shape of shapes) rows.push(await tradingRun(shape));
  console.log(`\n## Trading (16 users, ${DURATION} s per row; target ≤ 4 ms of server CPU per accepted bet)`);
  console.log(
    '\n| chain | estimate-buy req/s (p99 ms) | accepted/s | placement p50 / p99 ms | server CPU ms/bet | chain node CPU ms/bet | indexed/s |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.chain} | ${r.estimate.rps.toFixed(0)} (${r.estimate.p99}) | ${r.acceptedPerSecond.toFixed(1)} | ${r.placeP50.toFixed(1)} / ${r.placeP99.toFixed(1)} | **${r.serverCpuMsPerBet.toFixed(2)}** | ${r.chainCpuMsPerBet === undefined ? '(in the server)' : r.chainCpuMsPerBet.toFixed(2)} | ${r.indexedPerSecond.toFixed(1)} |`,
    );
  }
  return rows;
}

async function tradingRun(shape: 'embedded' | 'node'): Promise<TradingRow> {
  const url = await freshDatabase(`dk_bench_trading_${shape}`);
  const users = 16;
  const node = shape === 'node' ? await startChainNode() : undefined;
  const chain = node ? 'chain node in its own process' : 'embedded EVM in the server';
  let target: Target | undefined;
  try {
    target = await startTarget('./targets/markets-stack.ts', {
      DATABASE_URL: url,
      BENCH_USERS: String(users),
      ...node?.env,
    });
    return await tradingRows(chain, url, target, node?.target, users);
  } finally {
    target?.proc.kill();
    node?.target.proc.kill();
  }
}

async function tradingRows(
  chain: string,
  url: string,
  target: Target,
  chainNode: Target | undefined,
  users: number,
): Promise<TradingRow> {
  const info = target.info as unknown as TradingInfo;
  const estimateBody = JSON.stringify({
    duelId: info.duelId,
    optionIndex: 0,
    betAmountUsdc: (5n * UNIT).toString(),
    slippageBps: 500,
  });
  const token = info.sessions[0]?.token ?? '';
  const estimate = await measure(
    'POST /svc/user/bets/estimate-buy',
    `${info.url}/svc/user/bets/estimate-buy`,
    { 'x-builder-api-key': info.key, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    { method: 'POST', body: estimateBody },
  );
  console.log(
    `\nMarkets: estimate-buy, ${chain} (${CONNECTIONS} connections, ${DURATION} s; prices the live on-chain pool)`,
  );
  print([estimate], estimate);

  // Sustained placement: every user places bets back to back, first for a warm-up that is not
  // counted, then for DURATION seconds. V8 optimises a function after enough calls, not after
  // enough time: the other rows' 2 s warm-up is tens of thousands of requests, while 2 s of bets
  // is a few hundred, after which V8's compiler still took a fifth of the server's CPU. So the
  // warm-up here is a number of bets (BENCH_WARMUP_BETS).
  const place = async (phase: string, until: { seconds: number } | { bets: number }) => {
    let accepted = 0;
    let rejected = 0;
    const placeMs: number[] = [];
    const deadline = Date.now() + ('seconds' in until ? until.seconds : 60) * 1000;
    const more = () => Date.now() < deadline && ('bets' in until ? accepted < until.bets : true);
    await Promise.all(
      info.sessions.map(async (s, u) => {
        for (let i = 0; more(); i++) {
          const q = await post(info, s.token, '/svc/user/bets/estimate-buy', JSON.parse(estimateBody));
          const est = q.body['estimate'] as Record<string, unknown> | undefined;
          if (!est) {
            rejected++;
            continue;
          }
          const sent = performance.now();
          const placed = await post(
            info,
            s.token,
            '/svc/user/bets/create',
            {
              estimate: est,
              duelId: info.duelId,
              duelType: 'PREDICTION',
              bet: 'YES',
              optionIndex: 0,
              betAmount: est['amountIn'],
              betAmountUsdc: est['amountIn'],
              slippageBps: 500,
            },
            `bench-${phase}-${u}-${i}`,
          );
          if (placed.status === 201) {
            accepted++;
            placeMs.push(performance.now() - sent);
          } else rejected++;
        }
      }),
    );
    placeMs.sort((a, b) => a - b);
    const at = (q: number) => placeMs[Math.min(placeMs.length - 1, Math.floor(q * placeMs.length))] ?? 0;
    return { accepted, rejected, placeP50: at(0.5), placeP99: at(0.99) };
  };
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const trades = async () =>
    Number((await pool.query<{ n: string }>('select count(*) as n from trades')).rows[0]?.n ?? 0);
  const untouched = await trades();
  const warm = await place('warm-up', { bets: WARMUP_BETS });
  // The warm-up's last trades may still be indexing; the window's CPU includes that tail, as it
  // leaves out the tail of its own bets.
  const before = untouched + warm.accepted;
  const cpuBefore = cpuMs(target.proc.pid);
  const chainCpuBefore = cpuMs(chainNode?.proc.pid);
  const started = Date.now();
  const { accepted, rejected, placeP50, placeP99 } = await place('measured', { seconds: DURATION });
  const acceptSeconds = (Date.now() - started) / 1000;
  const serverCpuMsPerBet = (cpuMs(target.proc.pid) - cpuBefore) / Math.max(1, accepted);
  const chainCpuMsPerBet = chainNode ? (cpuMs(chainNode.proc.pid) - chainCpuBefore) / Math.max(1, accepted) : undefined;
  let indexed: number;
  for (;;) {
    indexed = (await trades()) - before;
    if (indexed >= accepted || Date.now() - started > (DURATION + 60) * 1000) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const indexSeconds = (Date.now() - started) / 1000;
  await pool.end();
  console.log(`\nMarkets: sustained bet placement, ${chain} (${users} users, ${DURATION} s)`);
  console.log('\n| measure | value |');
  console.log('|---|---:|');
  console.log(`| bets accepted (201) | ${accepted} |`);
  console.log(`| accepted placement latency p50 / p99 | ${placeP50.toFixed(1)} / ${placeP99.toFixed(1)} ms |`);
  console.log(`| rejected | ${rejected} |`);
  console.log(`| accepted/s | ${(accepted / acceptSeconds).toFixed(1)} |`);
  // Less sensitive to other load on the machine than the rate: what one accepted bet costs the server.
  console.log(`| server CPU per accepted bet (estimate + place) | ${serverCpuMsPerBet.toFixed(2)} ms |`);
  if (chainCpuMsPerBet !== undefined)
    console.log(`| chain node CPU per accepted bet | ${chainCpuMsPerBet.toFixed(2)} ms |`);
  console.log(`| indexed trades | ${indexed} |`);
  console.log(`| indexed/s (from first bet to last trade indexed) | ${(indexed / indexSeconds).toFixed(1)} |`);
  return {
    chain,
    estimate,
    accepted,
    rejected,
    acceptedPerSecond: accepted / acceptSeconds,
    placeP50,
    placeP99,
    serverCpuMsPerBet,
    chainCpuMsPerBet,
    indexedPerSecond: indexed / indexSeconds,
  };
}

/** The markets benches: the public list against a naive handler, estimate-buy, sustained trading. */
export async function marketsBench(): Promise<void> {
  await listBench();
  await tradingBench();
}
