import { pino } from 'pino';

// The full stack on embedded defaults (or DATABASE_URL/REDIS_URL when set), from the server's
// built `dist/` (harness.ts `buildServer`), logging at info to /dev/null through the server's own
// logger settings, so building and writing each line is counted but the terminal is not flooded.
const dist = new URL('../../dist/', import.meta.url);
const { loadConfig } = (await import(new URL('config.js', dist).href)) as typeof import('../../src/config.js');
const { startDuelkit } = (await import(new URL('server.js', dist).href)) as typeof import('../../src/server.js');
const { createLogger } = (await import(new URL('logger.js', dist).href)) as typeof import('../../src/logger.js');
const key = 'dk_bench_key_0123456789abcdef';
const config = loadConfig({
  ...process.env,
  PORT: '0',
  TOURNAMENTS_PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  DUELKIT_DEV_BUILDER_KEY: key,
  RATE_LIMIT_TEAM_PER_MIN: '100000000',
  // Background jobs on the embedded database are not the request path this target measures.
  JOBS_ENABLED: process.env['JOBS_ENABLED'] ?? 'false',
  TOURNAMENTS_IP_LIMIT_PER_MIN: '100000000',
  CHAIN_EMBEDDED_RPC_PORT: '0',
  OPERATOR_PORT: 'off',
  // Answers checked as production checks them (docs/kernel.md, "Response validation").
  RESPONSE_VALIDATION: process.env['RESPONSE_VALIDATION'] ?? 'shaping',
});
const logger = createLogger('info', pino.destination('/dev/null'));
const running = await startDuelkit(config, { logger });
process.stdout.write(`${JSON.stringify({ url: running.tournamentsUrl, marketsUrl: running.marketsUrl, key })}\n`);
process.on('SIGTERM', () => {
  void running.stop().then(() => process.exit(0));
});
