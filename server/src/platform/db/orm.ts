import { MikroORM, type EntitySchema, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { fileURLToPath } from 'node:url';
import { MIGRATION_LOCK_TABLE, withMigrationLock } from './migration-lock.js';
import { migrationsList } from './migrations/index.js';

export type Orm = MikroORM;

/**
 * MikroORM options shared by the server, the CLI and the tests. The tables come from the caller: the
 * wiring assembles every area's list (server/src/entities.ts), so this machinery knows no area.
 */
export function ormOptions(entities: readonly EntitySchema[], url: string, poolSize: number): Options {
  return {
    clientUrl: url,
    entities: [...entities],
    extensions: [Migrator],
    pool: { min: 0, max: poolSize },
    allowGlobalContext: false,
    debug: false,
    // Schema changes go through committed migrations only.
    ensureDatabase: false,
    discovery: { warnWhenNoEntities: true },
    schemaGenerator: { skipTables: [MIGRATION_LOCK_TABLE] },
    migrations: {
      tableName: 'mikro_orm_migrations',
      path: fileURLToPath(new URL('./migrations', import.meta.url)),
      pathTs: fileURLToPath(new URL('./migrations', import.meta.url)),
      emit: 'ts',
      snapshot: false,
      silent: true,
      transactional: true,
      allOrNothing: true,
      migrationsList,
    },
  };
}

/**
 * Connects and, unless told not to, applies pending migrations under the migration lock (several
 * instances may start at once on one database).
 */
export async function initOrm(
  entities: readonly EntitySchema[],
  url: string,
  poolSize: number,
  runMigrations = true,
  onMigrationWait?: (holder: string) => void,
): Promise<Orm> {
  const orm = await MikroORM.init(ormOptions(entities, url, poolSize));
  if (runMigrations) {
    try {
      await withMigrationLock(orm, () => orm.getMigrator().up(), onMigrationWait ? { onWait: onMigrationWait } : {});
    } catch (err) {
      await orm.close(true);
      throw err;
    }
  }
  return orm;
}
