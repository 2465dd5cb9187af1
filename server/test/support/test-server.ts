import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createPublicClient, http } from 'viem';
import type { ViemChainAdapter } from '../../src/adapters/chain/viem-chain.adapter.js';
import type { BuilderTier } from '../../src/areas/builders/builder-key.entity.js';
import { loadConfig } from '../../src/config.js';
import type { ContainerOverrides } from '../../src/container.js';
import { createLogger } from '../../src/logger.js';
import { startDuelkit, type RunningServer } from '../../src/server.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestServer extends RunningServer {
  readonly marketsUrl: string;
  readonly tournamentsUrl: string;
  readonly database: TestDatabase;
  /** A team-tier builder key of a fresh builder app. */
  readonly builderKey: string;
  createKey(tier?: BuilderTier): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts both hosts on random ports against a fresh database on the real PostgreSQL (and the real
 * Redis when `env.REDIS_URL` is given). `databaseThrough` lets the server reach the database by
 * another route (a proxy a fault test can cut); `database.url` stays the direct one.
 */
export async function startTestServer(
  env: Record<string, string | undefined> = {},
  overrides: ContainerOverrides = {},
  databaseThrough: (url: string) => string = (url) => url,
): Promise<TestServer> {
  const database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    TOURNAMENTS_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseThrough(database.url),
    DATABASE_POOL_SIZE: '5',
    SHUTDOWN_GRACE_MS: '1000',
    CHAIN_EMBEDDED_RPC_PORT: '0',
    OPERATOR_PORT: 'off',
    BUILDER_KEY_CACHE_MS: '0',
    DUELKIT_DEV_BUILDER_KEY: `dk_test_${randomBytes(12).toString('hex')}`,
    // Background jobs (indexer, snapshots, lifecycle sweeps) only where a test asks for them:
    // they would change rows that other tests insert directly.
    JOBS_ENABLED: 'false',
    // The route-hit ledger of `pnpm test` (see scripts/routes-check.ts).
    DUELKIT_ROUTE_LEDGER: process.env['DUELKIT_ROUTE_LEDGER'],
    ...env,
  });
  const running = await startDuelkit(config, { logger: createLogger('silent'), overrides });
  const createKey = async (tier: BuilderTier = 'team') =>
    (await running.container.builderKeys.create({ name: `test-${tier}`, tier })).key;
  const builderKey = await createKey('team');
  return {
    ...running,
    marketsUrl: running.marketsUrl as string,
    tournamentsUrl: running.tournamentsUrl as string,
    database,
    builderKey,
    createKey,
    async close() {
      await running.stop();
      await database.drop();
      const jobs = config.markets.jobsEnabled ? config.markets.jobsBackend : undefined;
      if (jobs?.kind === 'redis' && config.redisUrl) await deleteKeys(config.redisUrl, jobs.prefix);
      if (config.redisUrl) await deleteKeys(config.redisUrl, `${config.redisPrefix}:`);
    },
  };
}

/**
 * Removes what a server with REDIS_URL left under one of its database's prefixes (job queues,
 * limits, caches). A Redis the test stopped has nothing left to remove.
 */
async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch {
    redis.disconnect();
    return;
  }
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/**
 * Now on the embedded chain or by the server's clock, whichever is later, in ms. Automined blocks
 * never repeat a second, so bursts run the chain's clock ahead: market times are set from it.
 */
export async function chainNow(server: TestServer): Promise<number> {
  const url = (server.container.chain as ViemChainAdapter).embeddedRpcUrl;
  const block = await createPublicClient({ transport: http(url) }).getBlock();
  return Math.max(server.container.clock.now(), Number(block.timestamp) * 1000);
}

/**
 * Moves the server's clock and the embedded chain's time forward together until both are past `t`
 * (ms): a market's end is judged by the chain, so no test waits for it.
 */
export async function travelPast(server: TestServer, t: number): Promise<void> {
  const time = server.container.time;
  if (!time) throw new Error('the server runs no embedded chain whose time a test can move');
  const behind = t - (await chainNow(server));
  if (behind > 0) await time.advance(Math.ceil(behind / 1000));
}
