/**
 * What the end-to-end tests have, and only that: a real server process started as a builder starts
 * it, the published SDK, public HTTP, the operator surface (what `pnpm credits:grant`,
 * `pnpm admin:create` and `pnpm keys:create` call, with the credential the server wrote) and the
 * embedded chain's loopback JSON-RPC for public chain reads. Nothing here imports the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import { createPublicClient, erc20Abi, http, numberToHex, parseAbi, type Address, type PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DuelkitClient } from '@duelkit/sdk';

export const UNIT = 10n ** 18n;

/** The repository root and the server package, where `pnpm start` runs. */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SERVER_DIR = join(ROOT, 'server');
/**
 * The server as the tests run it: `.test-build/`, the transpiled source the global setup keeps
 * current, on Node alone (the production build's layout; `built-server.e2e` runs `pnpm build`).
 */
export const SERVER_ENTRY = join(ROOT, '.test-build/src/main.js');

/** Polls until `done` holds: reads are eventually consistent with the chain. */
export async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The contracts the embedded chain deployed, as its RPC port answers them (`GET /duelkit/contracts`). */
export interface Contracts {
  readonly chainId: number;
  readonly credits: Address;
  readonly usdc: Address;
  readonly markets: Address;
  readonly creditsVault: Address;
  readonly usdcVault: Address;
  /** ParlayBook: the parlay ticket book and its ERC-4626 liquidity pool (deployed at boot). */
  readonly parlayBook?: Address;
}

/** What every test needs of a server, however it runs: URLs, a team builder key and setup. */
export interface E2eServer {
  readonly marketsUrl: string;
  readonly tournamentsUrl: string;
  /** A team-tier builder key. */
  readonly builderKey: string;
  /** The embedded chain's loopback JSON-RPC. */
  readonly rpcUrl: string;
  /** Mints credits base units to an address (`pnpm credits:grant`). */
  grantCredits(address: Address, amount: bigint): Promise<void>;
  /** Creates an admin without a second factor (`pnpm admin:create`). */
  createAdmin(email: string, password: string): Promise<void>;
  /** Moves the server's time and its chain's forward together (`pnpm time:advance`): deadlines pass at once. */
  advanceTime(seconds: number): Promise<void>;
  /** Moves time forward until the server's now is past `t` (ms since the epoch); nothing when it is already. */
  advanceTo(t: number): Promise<void>;
  /** The server's now as this process knows it: the wall clock plus every move forward. */
  now(): number;
}

export interface ServerProcess extends E2eServer {
  readonly contracts: Contracts;
  readonly chain: PublicClient;
  /** Every log line so far. */
  readonly lines: string[];
  /** Calls the operator surface as the operator commands do; answers its JSON, throws on a refusal. */
  operator<T>(path: string, body: unknown): Promise<T>;
  /** A new builder key of a new builder app (`pnpm keys:create`). */
  createKey(tier?: 'team' | 'selfserve'): Promise<string>;
  /** How the local sports simulator will end these fixtures and sessions (`pnpm sports:script`). */
  sportsScript(ids: { fixtureIds?: number[]; eventIds?: number[] }): Promise<SportsScript>;
  /** Gives an address native gas on the embedded chain (its development method, over the RPC port). */
  fundGas(address: Address, wei?: bigint): Promise<void>;
  /** Collateral balance of an address, read from the token contract. */
  balance(address: Address, stack?: 'credits' | 'usdc'): Promise<bigint>;
  /** Outcome shares `holder` owns of `duelId`'s `option`, read from the market contract. */
  sharesOf(duelId: string, holder: Address, option: number): Promise<bigint>;
  /** The pool's balance of each option, read from the market contract. */
  poolBalances(duelId: string): Promise<readonly bigint[]>;
  /** Whether the market contract has paid `holder` what `duelId` owed them. */
  paid(duelId: string, holder: Address): Promise<boolean>;
  stop(): Promise<number | null>;
}

/**
 * What the tournaments and racing files run their server with: a 10-unit creator bond, and the
 * per-IP and per-key limits out of the way (none of them is under test there).
 */
export const TOURNAMENT_ENV = {
  TOURNAMENT_BOND_AMOUNT: (10n * UNIT).toString(),
  TOURNAMENTS_IP_LIMIT_PER_MIN: '100000',
  RATE_LIMIT_TEAM_PER_MIN: '100000',
} as const;

/** What `POST /operator/sports/script` answers (docs/tournaments.md, "The provider"). */
export interface SportsScript {
  readonly fixtures: readonly {
    readonly id: number;
    readonly kickoffAt: string;
    readonly state: 'finished' | 'cancelled';
    readonly outcome: 'HOME' | 'DRAW' | 'AWAY' | null;
  }[];
  readonly events: readonly { readonly id: number; readonly order: readonly number[] }[];
}

/** The public reads of the market contract the tests use. */
const MARKET_READS = parseAbi([
  'function shares(bytes32, address, uint256) view returns (uint256)',
  'function poolBalances(bytes32 duelId) view returns (uint256[])',
  'function paid(bytes32, address) view returns (bool)',
]);

/** Modification times of every file at or under `path`. */
function mtimes(path: string): number[] {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [stat.mtimeMs];
  return readdirSync(path).flatMap((name) => mtimes(join(path, name)));
}

/**
 * True when every file under `dist` was written after every file under `inputs` last changed, as
 * a package's `dist` is right after `pnpm test` or `pnpm verify` (both build the packages first):
 * building it again would make the same files.
 */
export function builtAfter(dist: string, inputs: readonly string[]): boolean {
  const built = mtimes(dist);
  return built.length > 0 && Math.min(...built) > Math.max(...inputs.flatMap(mtimes));
}

/**
 * Under `pnpm test` the published packages are built while the tests start (scripts/test.ts): it
 * names a file in `DUELKIT_PACKAGES_READY` and writes `ok` or `failed` into it when the builds end.
 * A test that packs or runs a package's `dist` waits for that before it looks at the folder, so it
 * never reads one that is being written. Run any other way, there is nothing to wait for.
 */
export async function packagesBuilt(timeoutMs = 600_000): Promise<void> {
  const signal = process.env['DUELKIT_PACKAGES_READY'];
  if (!signal) return;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let state = '';
    try {
      state = readFileSync(signal, 'utf8').trim();
    } catch {
      // Not written yet.
    }
    if (state === 'ok') return;
    if (state === 'failed') throw new Error('the package builds of `pnpm test` failed; their output is in its log');
    if (Date.now() > deadline) throw new Error(`the package builds did not end within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A free loopback port (for a child process that must be told its port before it starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Resolves with `child`'s exit code (null when killed by a signal). A test run that ends without
 * afterAll (a crash, a timeout) takes the child with it.
 */
export function exitOf(child: ChildProcess): Promise<number | null> {
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      process.off('exit', orphaned);
      resolve(code);
    }),
  );
}

/** Every line `child` writes to stdout and stderr, as it arrives. */
export function collectLines(child: ChildProcess): string[] {
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts.filter(Boolean));
    });
  }
  return lines;
}

function logEntry(lines: string[], msg: string): Record<string, unknown> | undefined {
  for (const line of lines) {
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry['msg'] === msg) return entry;
    } catch {
      // not a log line
    }
  }
  return undefined;
}

/**
 * A fresh database for one server: a clone of the run's migrated template on the local PostgreSQL,
 * as a deployment's `DATABASE_URL` names one (the global setup migrates the template once).
 */
/** A clone of the run's migrated template (`label` marks it in its name), dropped by `drop()`. */
export async function freshDatabase(label = 'e2e'): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  const name = `dk_t_${inject('runId')}_${label}_${generatePrivateKey().slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${inject('templateDatabase')}`);
        break;
      } catch (err) {
        // Two clones of one template at the same instant: the second sees the first as a user.
        if (attempt >= 20 || !String(err).includes('being accessed by other users')) throw err;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * Starts the server (from source, or `options.entry` such as the built `dist/main.js`, run in the
 * server package) as its own process (embedded chain with its RPC on a loopback port, the operator
 * surface on a free loopback port) and waits until it listens. `env` adds or overrides settings.
 *
 * The database is a fresh one on the local PostgreSQL (`DATABASE_URL`), the way a deployment runs;
 * `options.database: 'embedded'` starts it on the embedded defaults instead (PostgreSQL in memory),
 * as `pnpm start` on a fresh machine does — slower to start, so only the files that are about
 * those defaults ask for it.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { entry?: string[]; database?: 'postgres' | 'embedded' } = {},
): Promise<ServerProcess> {
  const runtimeDir = mkdtempSync(join(tmpdir(), 'duelkit-e2e-'));
  const database =
    options.database === 'embedded' || env['DATABASE_URL'] !== undefined ? undefined : await freshDatabase();
  const builderKey = env['DUELKIT_DEV_BUILDER_KEY'] ?? `dk_e2e_${generatePrivateKey().slice(2, 26)}`;
  const keep = ['PATH', 'HOME', 'LANG', 'DUELKIT_ROUTE_LEDGER'];
  const child = spawn(process.execPath, options.entry ?? [SERVER_ENTRY], {
    cwd: SERVER_DIR,
    env: {
      ...Object.fromEntries(keep.flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : []))),
      DUELKIT_DATA_DIR: ':memory:',
      ...(database ? { DATABASE_URL: database.url } : {}),
      DUELKIT_RUNTIME_DIR: runtimeDir,
      PORT: '0',
      TOURNAMENTS_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      CHAIN_EMBEDDED_RPC_PORT: '0',
      OPERATOR_PORT: '0',
      DUELKIT_DEV_BUILDER_KEY: builderKey,
      BUILDER_KEY_CACHE_MS: '0',
      SHUTDOWN_GRACE_MS: '1000',
      ...env,
    },
  });
  const lines = collectLines(child);
  const exited = exitOf(child);
  const deadline = Date.now() + 120_000;
  while (!logEntry(lines, 'duelkit listening')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server process did not start (exit ${child.exitCode}):\n${lines.slice(-30).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const listening = logEntry(lines, 'duelkit listening') as { marketsUrl: string; tournamentsUrl: string };
  const rpc = logEntry(lines, 'embedded EVM served as JSON-RPC on loopback') as { url: string } | undefined;
  const surface = logEntry(lines, 'operator surface on loopback') as { credentialFile: string } | undefined;
  if (!rpc || !surface) throw new Error(`no chain RPC or operator surface:\n${lines.join('\n')}`);
  const credential = JSON.parse(readFileSync(surface.credentialFile, 'utf8')) as { url: string; token: string };
  const contracts = (await (await fetch(`${rpc.url}/duelkit/contracts`)).json()) as Contracts;
  const chain = createPublicClient({ transport: http(rpc.url) });

  /** How far the server's clock runs ahead of ours, after `advanceTime`. */
  let ahead = 0;
  const advanceTime = async (seconds: number) => {
    const moved = await operator<{ now: string }>('/operator/time/advance', { seconds });
    ahead = Math.max(ahead, Date.parse(moved.now) - Date.now());
  };
  async function operator<T>(path: string, body: unknown): Promise<T> {
    const res = await fetch(`${credential.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credential.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as T & { code?: string; message?: string };
    if (!res.ok) throw new Error(`operator ${path}: ${res.status} ${answer.code}: ${answer.message}`);
    return answer;
  }

  return {
    marketsUrl: listening.marketsUrl,
    tournamentsUrl: listening.tournamentsUrl,
    builderKey,
    rpcUrl: rpc.url,
    contracts,
    chain,
    lines,
    operator,
    async grantCredits(address, amount) {
      const granted = await operator<{ status: string }>('/operator/credits', {
        address,
        amount: amount.toString(),
        stack: 'credits',
      });
      if (granted.status !== 'success') throw new Error(`credits grant ${granted.status}`);
    },
    async createAdmin(email, password) {
      await operator('/operator/admins', { email, password });
    },
    advanceTime,
    async advanceTo(t) {
      const seconds = Math.ceil((t - (Date.now() + ahead)) / 1000);
      if (seconds > 0) await advanceTime(seconds);
    },
    now: () => Date.now() + ahead,
    async createKey(tier = 'team') {
      return (await operator<{ key: string }>('/operator/builder-keys', { name: `e2e-${tier}`, tier })).key;
    },
    sportsScript: ({ fixtureIds = [], eventIds = [] }) =>
      operator<SportsScript>('/operator/sports/script', { fixtureIds, eventIds }),
    async fundGas(address, wei = UNIT) {
      await chain.request({ method: 'hardhat_setBalance' as never, params: [address, numberToHex(wei)] as never });
    },
    balance(address, stack = 'credits') {
      return chain.readContract({
        address: contracts[stack],
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      });
    },
    sharesOf(duelId, holder, option) {
      return chain.readContract({
        address: contracts.markets,
        abi: MARKET_READS,
        functionName: 'shares',
        args: [duelId as `0x${string}`, holder, BigInt(option)],
      });
    },
    poolBalances(duelId) {
      return chain.readContract({
        address: contracts.markets,
        abi: MARKET_READS,
        functionName: 'poolBalances',
        args: [duelId as `0x${string}`],
      });
    },
    paid(duelId, holder) {
      return chain.readContract({
        address: contracts.markets,
        abi: MARKET_READS,
        functionName: 'paid',
        args: [duelId as `0x${string}`, holder],
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited;
      rmSync(runtimeDir, { recursive: true, force: true });
      await database?.drop();
      return code;
    },
  };
}

/**
 * The first even hour from the server's now after which the local simulator's next seven football
 * fixtures all finish (none cancelled), so that a tournament's picks on them count. The calendar
 * kicks off fixture `50000000 + slot` at every even hour (`slot` = kick-off / 2 h; docs/tournaments.md).
 */
export async function calmHour(server: Pick<ServerProcess, 'now' | 'sportsScript'>): Promise<number> {
  const SLOT = 2 * 3_600_000;
  for (let slot = Math.ceil(server.now() / SLOT); ; slot++) {
    const fixtureIds = Array.from({ length: 7 }, (_, i) => 50_000_000 + slot + 1 + i);
    const { fixtures } = await server.sportsScript({ fixtureIds });
    if (fixtures.every((f) => f.state === 'finished')) return slot * SLOT;
  }
}

/**
 * Now on the server's embedded chain, in ms. Automined blocks take the wall clock but never repeat
 * a second, so a burst of transactions runs the chain's clock ahead of ours: market times are set
 * from it.
 */
export async function chainNow(server: Pick<E2eServer, 'rpcUrl'> & Partial<Pick<E2eServer, 'now'>>): Promise<number> {
  const block = await createPublicClient({ transport: http(server.rpcUrl) }).getBlock();
  return Math.max(server.now?.() ?? Date.now(), Number(block.timestamp) * 1000);
}

/**
 * A public credits market created by `creator`, starting `startsInMs` after the chain's now and
 * ending an hour after it, once it is confirmed on chain.
 */
export async function confirmedDuel(
  server: Pick<E2eServer, 'rpcUrl'>,
  creator: DuelkitClient,
  question: string,
  startsInMs = 1_000,
) {
  const now = await chainNow(server);
  const { duelId } = await creator.duels.create({
    body: {
      question,
      category: 'Weather',
      startTime: new Date(now + startsInMs).toISOString(),
      endTime: new Date(now + 3_600_000).toISOString(),
      collateralStack: 'credits',
    },
  });
  await until(
    () => creator.duels.getById({ params: { duelId }, query: {} }),
    (d) => d.chainState === 'confirmed',
  );
  return duelId;
}

/** Quote, then place, `units` of credits on `optionIndex` with 1 % slippage. */
export async function bet(client: DuelkitClient, duelId: string, optionIndex: number, units: bigint): Promise<void> {
  const quote = await client.bets.estimateBuy({
    body: { duelId, optionIndex, betAmountUsdc: (units * UNIT).toString(), slippageBps: 100 },
  });
  if (!quote.success) throw new Error(quote.message);
  await client.bets.create({
    body: {
      estimate: quote.estimate,
      duelId,
      duelType: 'PREDICTION',
      bet: optionIndex === 0 ? 'YES' : 'NO',
      optionIndex,
      betAmount: quote.estimate.amountIn,
      betAmountUsdc: quote.estimate.amountIn,
      slippageBps: 100,
      tokenDecimals: 18,
    },
  });
}

/** A client signed in as a new wallet (registered under `username`), its managed wallet funded. */
export async function signedInClient(server: E2eServer, username: string, credits = 1_000n * UNIT) {
  const client = new DuelkitClient({
    marketsUrl: server.marketsUrl,
    tournamentsUrl: server.tournamentsUrl,
    builderApiKey: server.builderKey,
    signer: privateKeyToAccount(generatePrivateKey()),
    maxRetries: 0,
  });
  const session = await client.auth.signIn({ username });
  const address = session.user?.address as Address;
  if (credits > 0n) await server.grantCredits(address, credits);
  return { client, address, userId: session.user?.id as string };
}

/** A client signed in as a new admin (no second factor), with its admin token set. */
export async function signedInAdmin(server: E2eServer, username: string): Promise<DuelkitClient> {
  const email = `${username}-${Date.now()}@example.com`;
  const password = `${username} admin password`;
  await server.createAdmin(email, password);
  const { client } = await signedInClient(server, username);
  const login = await client.adminAuth.login({ body: { email, password } });
  if (login.status !== 'authenticated') throw new Error('admin 2FA unexpectedly on');
  return client.withOptions({ adminToken: login.token });
}
