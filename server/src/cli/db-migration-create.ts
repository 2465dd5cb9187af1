/**
 * Writes a new migration with the difference between the entities and the database schema after
 * all committed migrations. Run against a scratch database: `DATABASE_URL=... pnpm db:migration:create`,
 * then add the class to src/platform/db/migrations/index.ts.
 */
import { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../config.js';
import { ormOptions } from '../platform/db/orm.js';
import { entities } from '../entities.js';

const config = loadConfig();
if (!config.database.url) throw new Error('DATABASE_URL must point at a scratch database');
const base = ormOptions(entities, config.database.url, 2);
const { migrationsList: _committed, ...discovered } = base.migrations ?? {};
// Discovered from the folder instead of the committed list, so the new file is written there; only
// the migration files (the folder also holds index.ts, the list itself).
const orm = await MikroORM.init({ ...base, migrations: { ...discovered, glob: 'Migration*.{js,ts}' } });
const migrator = orm.getMigrator();
await migrator.up();
const result = await migrator.createMigration(undefined, false, false, process.argv[2] ?? 'Change');
console.log(result.fileName ? `created ${result.fileName}` : 'no schema changes');
await orm.close();
