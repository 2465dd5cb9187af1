import { ConfigError, loadConfig, withDefaultDataDir } from './config.js';
import { createLogger } from './logger.js';
import { ChainIdentityError } from './platform/chain-tx/chain-state.repository.js';
import { startDuelkit } from './server.js';

let config;
try {
  config = loadConfig(withDefaultDataDir(process.env));
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
const logger = createLogger(config.logLevel);
let running;
try {
  running = await startDuelkit(config, { logger });
} catch (err) {
  // The database and the chain disagree: one message says what to fix; a stack trace would not.
  if (err instanceof ChainIdentityError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

let signals = 0;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    signals += 1;
    if (signals > 1) process.exit(1);
    logger.info({ signal, graceMs: config.http.shutdownGraceMs }, 'shutting down: draining in-flight requests');
    // The grace is a promise to the orchestrator (it kills the process after it): keep it.
    setTimeout(() => {
      logger.error('shutdown did not finish within SHUTDOWN_GRACE_MS; exiting');
      process.exit(1);
    }, config.http.shutdownGraceMs).unref();
    running.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
