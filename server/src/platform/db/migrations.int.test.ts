import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/database.js';
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
});
