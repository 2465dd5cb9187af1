/** `pnpm db:migrate`: applies pending migrations to the configured database and lists them. */
import { loadConfig } from '../config.js';
import { openDatabase } from './database.js';

const db = await openDatabase(loadConfig());
try {
  const executed = await db.orm.getMigrator().getExecutedMigrations();
  console.log(`applied migrations (${executed.length}):`);
  for (const m of executed) console.log(`  ${m.name}`);
} finally {
  await db.close();
}
