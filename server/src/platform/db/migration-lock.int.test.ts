import { afterAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, type TestDatabase } from '../../../test/support/database.js';
import { startServerProcess, type ServerProcess } from '../../../test/support/server-process.js';
import { initOrm, type Orm } from './orm.js';
import { entities } from '../../entities.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
});

async function emptyDatabase(): Promise<TestDatabase> {
  const db = await createEmptyDatabase();
  cleanup.push(() => db.drop());
  return db;
}

describe('migrations on first start', () => {
  it('apply once when several connections migrate one empty database at the same moment', async () => {
    const db = await emptyDatabase();
    const waited: string[] = [];
    const orms = await Promise.all(
      Array.from({ length: 4 }, () => initOrm(entities, db.url, 2, true, (holder) => waited.push(holder))),
    );
    cleanup.push(() => Promise.all(orms.map((o: Orm) => o.close(true))));
    const [first] = orms as [Orm];
    const executed = await first.getMigrator().getExecutedMigrations();
    expect(new Set(executed.map((m) => m.name)).size).toBe(executed.length);
    expect(await first.getMigrator().getPendingMigrations()).toEqual([]);
    expect(waited.length).toBeGreaterThan(0);
    const diff = await first.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe: false });
    expect(diff.trim()).toBe('');
  });

  it('two server processes started together on one empty database both come up', async () => {
    const db = await emptyDatabase();
    const env = { DATABASE_URL: db.url, JOBS_ENABLED: 'true', LOG_LEVEL: 'info' };
    const servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    cleanup.push(() => Promise.all(servers.map((s: ServerProcess) => s.stop('SIGKILL'))));
    for (const server of servers) {
      const ready = await fetch(`${server.marketsUrl}/ready`);
      expect(ready.status).toBe(200);
      expect(server.lines.filter((l) => /"level":(50|60)/.test(l))).toEqual([]);
    }
    expect(await Promise.all(servers.map((s) => s.stop()))).toEqual([0, 0]);
  }, 120_000);
});
