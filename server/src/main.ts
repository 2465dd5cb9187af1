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

/**
 * A second signal a second or more after the first means "now" (Ctrl-C pressed again). One that
 * follows at once is the same request relayed: Ctrl-C reaches the whole process group, and a
 * package manager in it (pnpm start) forwards the signal to its child as well.
 */
const SAME_REQUEST_MS = 1_000;
let firstSignalAt: number | undefined;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    const now = Date.now();
    if (firstSignalAt !== undefined) {
      if (now - firstSignalAt >= SAME_REQUEST_MS) process.exit(1);
      return;
    }
    firstSignalAt = now;
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
