/**
 * A Duelkit server in its own process, configured by its environment like `pnpm start`, on free
 * loopback ports. Prints its URLs and a fresh team builder key when it is ready to serve.
 */
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startDuelkit } from '../../src/server.js';
import { announceReady, type ServerProcessInfo } from './processes.js';

const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  CHAIN_EMBEDDED_RPC_PORT: '0',
  ...process.env,
  PORT: '0',
  TOURNAMENTS_PORT: '0',
  HOST: '127.0.0.1',
});
const running = await startDuelkit(config, { logger: createLogger(config.logLevel) });
const builderKey = (await running.container.builderKeys.create({ name: 'process', tier: 'team' })).key;
const chain = running.container.chain as { embeddedRpcUrl?: string };
if (!running.marketsUrl) throw new Error('the markets host did not start');
announceReady({
  marketsUrl: running.marketsUrl,
  tournamentsUrl: running.tournamentsUrl ?? null,
  builderKey,
  embeddedRpcUrl: chain.embeddedRpcUrl ?? null,
  operatorPort: running.operator ? Number(new URL(running.operator.url).port) : null,
} satisfies ServerProcessInfo);
process.on('SIGTERM', () => {
  void running.stop().then(() => process.exit(0));
});
