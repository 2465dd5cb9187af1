import { describe, expect, it } from 'vitest';
import { createEmptyDatabase, createTestDatabase } from '../../../test/support/database.js';
import { runCli } from '../../../test/support/server-process.js';
import { initOrm } from './orm.js';
import { entities } from '../../entities.js';

describe('migrations', () => {
  it('produce exactly the schema the entities describe', async () => {
    const db = await createTestDatabase();
    const orm = await initOrm(entities, db.url, 2, true);
    try {
      const diff = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe: false });
      expect(diff.trim()).toBe('');
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });

  it('db:migration:create applies the committed migrations to an empty database and finds nothing to add', async () => {
    const db = await createEmptyDatabase();
    try {
      const out = await runCli('db-migration-create', ['Probe'], { DATABASE_URL: db.url });
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      expect(out.stdout.trim()).toBe('no schema changes');
    } finally {
      await db.drop();
    }
  }, 60_000);
});
