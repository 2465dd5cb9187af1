import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { startDuelkit } from '../../src/server.js';

// The full stack on embedded defaults (or DATABASE_URL/REDIS_URL when set), logging at info to
// /dev/null so serialisation cost is counted but the terminal is not flooded.
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
const logger = pino({ level: 'info' }, pino.destination('/dev/null'));
const running = await startDuelkit(config, { logger });
process.stdout.write(`${JSON.stringify({ url: running.tournamentsUrl, marketsUrl: running.marketsUrl, key })}\n`);
process.on('SIGTERM', () => {
  void running.stop().then(() => process.exit(0));
});
