import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  maxUint256,
  parseAbiItem,
  toHex,
  type Address,
} from 'viem';
import type { ContainerOverrides } from '../../src/container.js';
import { OPERATOR_KEY } from './chain.js';
import { spawnReady, type ChainNodeInfo, type ServerProcessInfo, type Spawned } from './processes.js';
import { startTestServer, type TestServer } from './test-server.js';

/** The first attempt's fate: killed by the hook, or the status it answered. */
export type FirstAttempt = 'connection lost' | number;

/**
 * Server processes of one deployment killed with SIGKILL mid-request: a chain node and the RPC
 * fault proxy in their own processes, an in-process server on the same database for fixtures and
 * reads, and a hook the proxy calls at the moment it chose, which kills the current victim.
 */
export interface CrashStack {
  readonly node: Spawned<ChainNodeInfo>;
  readonly proxy: Spawned<{ url: string }>;
  readonly setup: TestServer;
  /** The environment every server process of the deployment shares. */
  readonly env: Record<string, string>;
  /** Where the proxy's `hook` mode calls. */
  readonly hookUrl: string;
  /** The node's replies the hook received, one per call. */
  readonly hooked: string[];
  /**
   * What the next hook call does instead of killing the victim (the caller whose RPC call it
   * hooked waits until `action` finished).
   */
  onNextHook(action: () => Promise<void>): void;
  /** Makes `instance` the process the next hook call kills. */
  setVictim(instance: Spawned<ServerProcessInfo>): void;
  /** Another RPC fault proxy in front of the same node (for a process of its own). */
  extraProxy(): Promise<Spawned<{ url: string }>>;
  /** Starts a server process; `victim` makes it the one the hook kills. */
  spawn(extra?: Record<string, string>, victim?: boolean): Promise<Spawned<ServerProcessInfo>>;
  /** Gives `address` native gas straight on the node, so no top-up write precedes a test's write. */
  giveGas(address: string): Promise<void>;
  /** An unlimited approval of `spender` by the user's managed wallet, straight on the node. */
  approve(userId: string, token: Address, spender: Address): Promise<void>;
  /** ERC-20 Transfer logs of `token` to `to` (and from `from`, when given), from the node. */
  transfersTo(token: Address, to: Address, from?: Address): Promise<{ value: bigint; txHash: string }[]>;
  /** A count(*) over the shared database. */
  count(sql: string, params: unknown[]): Promise<number>;
  close(): Promise<void>;
}

export async function startCrashStack(
  env: Record<string, string> = {},
  overrides: ContainerOverrides = {},
): Promise<CrashStack> {
  const node = await spawnReady<ChainNodeInfo>('chain-node.process.ts');
  const proxy = await spawnReady<{ url: string }>('rpc-proxy.process.ts', { RPC_UPSTREAM: node.info.rpcUrl });
  const shared: Record<string, string> = {
    JWT_SECRET: `crash-${randomBytes(16).toString('hex')}`,
    WALLET_MASTER_KEY: `0x${randomBytes(32).toString('hex')}`,
    CHAIN_RPC_URL: proxy.info.url,
    CHAIN_CONTRACTS: JSON.stringify(node.info.addresses),
    CHAIN_OPERATOR_KEY: OPERATOR_KEY,
    CHAIN_CONFIRMATIONS: '0',
    CHAIN_BROADCAST_TIMEOUT_MS: '1500',
    JOBS_ENABLED: 'false',
    DUEL_PUBLIC_LEAD_SECONDS: '0',
    // A dead execution's key is taken over after 1.5 s instead of a minute.
    IDEMPOTENCY_LOCK_TIMEOUT_MS: '1500',
    ...env,
  };
  const setup = await startTestServer(shared, overrides);
  shared['DATABASE_URL'] = setup.database.url;
  const instances: Spawned<ServerProcessInfo>[] = [];
  const proxies: Spawned<{ url: string }>[] = [proxy];
  let victim: Spawned<ServerProcessInfo> | undefined;
  const hooked: string[] = [];
  let action: (() => Promise<void>) | undefined;
  // SIGKILL, then the answer once the process is gone: nothing of it runs after the node's reply.
  const hook: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      hooked.push(body);
      const act = action;
      action = undefined;
      if (act) {
        act().then(
          () => res.end('ok'),
          () => res.end('failed'),
        );
        return;
      }
      const proc = victim?.proc;
      victim = undefined;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) {
        res.end('ok');
        return;
      }
      proc.once('exit', () => res.end('ok'));
      proc.kill('SIGKILL');
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', () => resolve()));
  const client = createPublicClient({ transport: http(node.info.rpcUrl) });
  const transfer = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
  return {
    node,
    proxy,
    setup,
    env: shared,
    hookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`,
    hooked,
    setVictim(instance) {
      victim = instance;
    },
    async extraProxy() {
      const extra = await spawnReady<{ url: string }>('rpc-proxy.process.ts', { RPC_UPSTREAM: node.info.rpcUrl });
      proxies.push(extra);
      return extra;
    },
    onNextHook(next) {
      action = next;
    },
    async spawn(extra = {}, isVictim = false) {
      const spawned = await spawnReady<ServerProcessInfo>('server.process.ts', { ...shared, ...extra });
      instances.push(spawned);
      if (isVictim) victim = spawned;
      return spawned;
    },
    async giveGas(address) {
      await client.request({
        method: 'hardhat_setBalance' as never,
        params: [address, toHex(10n ** 22n)] as never,
      });
    },
    async approve(userId, token, spender) {
      const account = await setup.container.markets.signers.forUser(userId);
      const wallet = createWalletClient({ account, transport: http(node.info.rpcUrl) });
      const hash = await wallet.writeContract({
        account,
        address: token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [spender, maxUint256],
        chain: null,
      });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    },
    async transfersTo(token, to, from) {
      const logs = await client.getLogs({
        address: token,
        event: transfer,
        args: from ? { from, to } : { to },
        fromBlock: 0n,
      });
      return logs.map((l) => ({ value: l.args.value ?? 0n, txHash: l.transactionHash }));
    },
    async count(sql, params) {
      const rows = await setup.container.orm.em.fork().getConnection().execute<{ n: string }[]>(sql, params);
      return Number(rows[0]?.n ?? 0);
    },
    async close() {
      for (const i of instances) await i.stop();
      await new Promise((r) => hook.close(r));
      await setup.close();
      for (const p of proxies) await p.stop();
      await node.stop();
    },
  };
}

/** Sends `send` until it answers something other than "still in flight" (409 IDEMPOTENCY_KEY_IN_FLIGHT); bounded. */
export async function untilFinal(
  send: () => Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>,
  tries = 40,
) {
  for (let i = 0; ; i++) {
    const answer = await send();
    if (answer.body['code'] !== 'IDEMPOTENCY_KEY_IN_FLIGHT' || i >= tries) return answer;
    await new Promise((r) => setTimeout(r, 250));
  }
}
