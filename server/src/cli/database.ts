import type { Config } from '../config.js';
import { initOrm, type Orm } from '../platform/db/orm.js';

/**
 * Opens the configured database for a CLI command. Operator commands need a persistent
 * database: with neither DATABASE_URL nor DUELKIT_DATA_DIR, the embedded one would vanish on exit.
 */
export async function openDatabase(config: Config): Promise<{ orm: Orm; close(): Promise<void> }> {
  if (config.database.url) {
    const orm = await initOrm(config.database.url, 2, true);
    return { orm, close: () => orm.close(true) };
  }
  if (!config.database.dataDir) {
    console.error('Set DATABASE_URL, or DUELKIT_DATA_DIR for the embedded database the server uses.');
    process.exit(2);
  }
  const { startEmbeddedPostgres } = await import('../platform/db/embedded-postgres.js');
  const embedded = await startEmbeddedPostgres({ dataDir: config.database.dataDir });
  const orm = await initOrm(embedded.url, 2, true);
  return {
    orm,
    async close() {
      await orm.close(true);
      await embedded.stop();
    },
  };
}
