import type { Config } from '../config.js';
import { initOrm, type Orm } from '../platform/db/orm.js';
import { entities } from '../entities.js';

/**
 * Opens the configured PostgreSQL database for a maintenance command. Never the embedded one: it
 * belongs to the server process that runs it (and migrates itself at every start); opening its
 * data directory from a second process would corrupt it.
 */
export async function openDatabase(config: Config): Promise<{ orm: Orm; close(): Promise<void> }> {
  if (!config.database.url) {
    console.error(
      'Set DATABASE_URL. The embedded database is migrated by the server itself at every start; ' +
        'operator commands (keys:create, admin:create, credits:grant, duels:canonical) go through the running server.',
    );
    process.exit(2);
  }
  const orm = await initOrm(entities, config.database.url, 2, true);
  return { orm, close: () => orm.close(true) };
}
