import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { durabilityWarning } from './durability.js';
import { initOrm } from './orm.js';
import { entities } from '../../entities.js';

describe('the durable-commit check at start-up', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('is silent while synchronous_commit is on, and warns once the database turns it off', async () => {
    for (const warns of [false, true]) {
      if (warns) {
        const admin = new pg.Client({ connectionString: db.url });
        await admin.connect();
        await admin.query(`alter database "${new URL(db.url).pathname.slice(1)}" set synchronous_commit = off`);
        await admin.end();
      }
      const orm = await initOrm(entities, db.url, 1, false);
      try {
        const warning = await durabilityWarning(orm);
        if (warns) expect(warning).toMatch(/synchronous_commit is off/);
        else expect(warning).toBeUndefined();
      } finally {
        await orm.close(true);
      }
    }
  });
});
