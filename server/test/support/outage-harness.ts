/**
 * Servers in their own processes behind TCP proxies that a test cuts and restores, for the outage
 * tests (`platform/outage/*.int.test.ts`). Everything started is stopped by `close`.
 */
import { randomBytes } from 'node:crypto';
import type { ChainNode } from './chain-node.js';
import { createTestDatabase } from './database.js';
import { marketsApi, signUpWallet, type Body } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import type { TestServer } from './test-server.js';

export function outageHarness() {
  const cleanup: (() => Promise<unknown>)[] = [];

  async function testDatabaseUrl(): Promise<string> {
    const db = await createTestDatabase();
    cleanup.push(() => db.drop());
    return db.url;
  }

  return {
    /** Stops every server, proxy, chain node and database the harness started, newest first. */
    close: async (): Promise<void> => {
      for (const step of cleanup.reverse()) await step().catch(() => undefined);
    },
    /** Runs `steps` when the harness closes. */
    onClose: (...steps: (() => Promise<unknown>)[]): void => {
      cleanup.push(...steps);
    },
    testDatabaseUrl,

    proxyTo: async (port: number): Promise<TcpProxy> => {
      const proxy = await startTcpProxy({ host: '127.0.0.1', port });
      cleanup.push(() => proxy.close());
      return proxy;
    },

    /** A server process with no jobs, its own builder key unless `env` names one. */
    serverProcess: async (env: Record<string, string>): Promise<{ server: ServerProcess; key: string }> => {
      const key = env['DUELKIT_DEV_BUILDER_KEY'] ?? `dk_outage_${randomBytes(12).toString('hex')}`;
      const server = await startServerProcess({
        DUELKIT_DEV_BUILDER_KEY: key,
        BUILDER_KEY_CACHE_MS: '0',
        JOBS_ENABLED: 'false',
        LOG_LEVEL: 'info',
        ...env,
      });
      cleanup.push(() => server.stop('SIGKILL'));
      return { server, key };
    },

    /** A server's settings for a chain node reached through `proxy`, on a fresh database. */
    behindProxy: async (node: ChainNode, proxy: TcpProxy): Promise<Record<string, string>> => {
      return {
        DATABASE_URL: await testDatabaseUrl(),
        CHAIN_RPC_URL: `http://127.0.0.1:${proxy.port}`,
        CHAIN_CONTRACTS: node.contracts,
        CHAIN_OPERATOR_KEY: node.operatorKey,
        CHAIN_CONFIRMATIONS: '0',
      };
    },
  };
}

/** A GET, or a POST of `body`, with the builder key and an optional Idempotency-Key. */
export async function call(
  base: string,
  key: string,
  path: string,
  init: { body?: unknown; idempotencyKey?: string } = {},
) {
  const headers: Record<string, string> = { 'x-builder-api-key': key };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey;
  const res = await fetch(`${base}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as Body,
  };
}

/** A signed-up (unfunded) user of the instance, and a market they may try to create. */
export async function marketCreator(marketsUrl: string, builderKey: string, username: string, question: string) {
  const api = marketsApi(() => ({ marketsUrl, builderKey }) as TestServer);
  const signedUp = await signUpWallet(api, username);
  const market = {
    question,
    category: 'Football',
    startTime: new Date(Date.now() + 2 * 3_600_000).toISOString(),
    endTime: new Date(Date.now() + 3 * 3_600_000).toISOString(),
  };
  return { api, token: signedUp.body['token'] as string, market };
}

/** Polls until the instance reports `status` on /ready (the pools reconnect by themselves). */
export async function readyState(base: string, status: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${base}/ready`);
    const body = (await res.json()) as {
      status: string;
      checks: Record<string, { status: string; error?: string }>;
    };
    if (body.status === status) return { httpStatus: res.status, body };
    if (Date.now() > deadline) throw new Error(`/ready stayed ${body.status}, wanted ${status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
