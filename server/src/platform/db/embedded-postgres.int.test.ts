import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { extract } from 'tar';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareClusterCopy, startEmbeddedPostgres } from './embedded-postgres.js';

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The kept copy's file (named by the PGlite version) under the temporary folder `d`. */
function copyFile(d: string): string | undefined {
  const folder = join(d, 'duelkit-embedded');
  const name = existsSync(folder) ? readdirSync(folder).find((f) => /^pglite-.+-initdb\.tar$/.test(f)) : undefined;
  return name ? join(folder, name) : undefined;
}

describe('the cluster copy `pnpm build` prepares', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is made where the first start looks for it, once: a later build keeps it as it is', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'duelkit-build-copy-'));
    vi.stubEnv('TMPDIR', tmp);
    try {
      const made = await prepareClusterCopy();
      expect(made).toEqual({ path: copyFile(tmp), outcome: 'made' });
      const written = statSync(made.path).mtimeMs;
      expect(await prepareClusterCopy()).toEqual({ path: made.path, outcome: 'kept' });
      expect(statSync(made.path).mtimeMs).toBe(written);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('an embedded database in memory', () => {
  let dir: string;
  const copyIn = (d: string) => {
    const file = copyFile(d);
    return file ? readFileSync(file) : undefined;
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'duelkit-initdb-'));
  });
  afterEach(() => vi.unstubAllEnvs());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps a copy of the empty cluster, and a database started from it holds nothing of an earlier one', async () => {
    vi.stubEnv('TMPDIR', dir);
    const first = await startEmbeddedPostgres({});
    await query(first.url, 'create table left_behind (id int); insert into left_behind values (1)');
    await first.stop();
    const copy = copyIn(dir);
    expect(copy?.length).toBeGreaterThan(1_000_000);

    const second = await startEmbeddedPostgres({});
    try {
      const tables = await query<{ n: string }>(
        second.url,
        `select count(*)::text as n from pg_tables where tablename = 'left_behind'`,
      );
      expect(tables[0]?.n).toBe('0');
      expect((await query<{ one: number }>(second.url, 'select 1 as one'))[0]?.one).toBe(1);
    } finally {
      await second.stop();
    }
    // Started from the copy: it was not written again.
    expect(copyIn(dir)?.equals(copy as Buffer)).toBe(true);
  }, 120_000);

  it('starts from initdb when the copy does not load, and replaces the copy', async () => {
    vi.stubEnv('TMPDIR', dir);
    const file = copyFile(dir) as string;
    writeFileSync(file, 'not a data directory');
    const db = await startEmbeddedPostgres({});
    try {
      expect((await query<{ one: number }>(db.url, 'select 1 as one'))[0]?.one).toBe(1);
    } finally {
      await db.stop();
    }
    expect(statSync(file).size).toBeGreaterThan(1_000_000);
  }, 120_000);
});

describe('an embedded database in a new data directory', () => {
  let dir: string;
  const tableCount = async (url: string, table: string) =>
    (await query<{ n: string }>(url, `select count(*)::text as n from pg_tables where tablename = '${table}'`))[0]?.n;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'duelkit-datadir-'));
  });
  afterEach(() => vi.unstubAllEnvs());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes the kept copy on a machine without one, in memory, and starts the directory from it', async () => {
    vi.stubEnv('TMPDIR', join(dir, 'tmp'));
    mkdirSync(join(dir, 'tmp'));
    const dataDir = join(dir, 'first');
    const db = await startEmbeddedPostgres({ dataDir });
    try {
      expect((await query<{ one: number }>(db.url, 'select 1 as one'))[0]?.one).toBe(1);
    } finally {
      await db.stop();
    }
    expect(statSync(copyFile(join(dir, 'tmp')) as string).size).toBeGreaterThan(1_000_000);
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
  }, 120_000);

  it('starts a new directory from the kept copy and keeps what it holds across a restart', async () => {
    vi.stubEnv('TMPDIR', join(dir, 'tmp'));
    // A copy with a table of its own, to tell a start from the copy from one that ran initdb
    // (made from the kept copy, which saves an initdb).
    const kept = copyFile(join(dir, 'tmp')) as string;
    const marked = await PGlite.create({ loadDataDir: new Blob([new Uint8Array(readFileSync(kept))]) });
    await marked.exec('create table from_the_copy (id int)');
    writeFileSync(kept, new Uint8Array(await (await marked.dumpDataDir('none')).arrayBuffer()));
    await marked.close();

    const dataDir = join(dir, 'second');
    const first = await startEmbeddedPostgres({ dataDir });
    try {
      expect(await tableCount(first.url, 'from_the_copy')).toBe('1');
      await query(first.url, 'insert into from_the_copy values (7)');
    } finally {
      await first.stop();
    }
    const again = await startEmbeddedPostgres({ dataDir });
    try {
      expect(await query<{ id: number }>(again.url, 'select id from from_the_copy')).toEqual([{ id: 7 }]);
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('starts a directory that a start left half-written (every file of the copy but PG_VERSION) as a new one', async () => {
    vi.stubEnv('TMPDIR', join(dir, 'tmp'));
    const dataDir = join(dir, 'half');
    mkdirSync(dataDir);
    await extract({
      file: copyFile(join(dir, 'tmp')) as string,
      cwd: dataDir,
      filter: (p) => !p.endsWith('PG_VERSION'),
    });
    expect(existsSync(join(dataDir, 'base'))).toBe(true);
    const db = await startEmbeddedPostgres({ dataDir });
    try {
      expect(await tableCount(db.url, 'from_the_copy')).toBe('1');
    } finally {
      await db.stop();
    }
  }, 120_000);

  it('runs initdb in the directory when the copy does not open', async () => {
    vi.stubEnv('TMPDIR', join(dir, 'tmp'));
    writeFileSync(copyFile(join(dir, 'tmp')) as string, 'not a data directory');
    const dataDir = join(dir, 'third');
    const db = await startEmbeddedPostgres({ dataDir });
    try {
      expect(await tableCount(db.url, 'from_the_copy')).toBe('0');
      expect((await query<{ one: number }>(db.url, 'select 1 as one'))[0]?.one).toBe(1);
    } finally {
      await db.stop();
    }
  }, 120_000);
});

describe('the upkeep of an embedded database', () => {
  /** WAL segments in pg_wal, and how far the log has come (bytes). */
  const wal = async (client: pg.Client) =>
    (
      await client.query<{ segments: number; at: string }>(
        `select count(*)::int as segments, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint::text as at
           from pg_ls_waldir()`,
      )
    ).rows[0] as { segments: number; at: string };

  it('stays a few segments long under writes: the database checkpoints, which PGlite never does by itself', async () => {
    const db = await startEmbeddedPostgres({ maintenance: { everyMs: 200, vacuumEvery: 1_000 } });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const start = BigInt((await wal(client)).at);
      await client.query('create table churn (id serial primary key, v text)');
      // About 100 MB of log: six 16 MB segments' worth, were none dropped.
      while (BigInt((await wal(client)).at) - start < 100n * 2n ** 20n) {
        await client.query(`insert into churn (v) select repeat('x', 500) from generate_series(1, 20000)`);
        await client.query('truncate churn');
      }
      let segments = (await wal(client)).segments;
      for (let i = 0; i < 100 && segments > 4; i++) {
        await new Promise((r) => setTimeout(r, 100));
        segments = (await wal(client)).segments;
      }
      expect(segments).toBeLessThanOrEqual(4);
    } finally {
      await client.end();
      await db.stop();
    }
  }, 120_000);

  it('reuses the space of deleted rows: the database vacuums, which PGlite never does by itself', async () => {
    const db = await startEmbeddedPostgres({ maintenance: { everyMs: 100, vacuumEvery: 1 } });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const vacuums = async () =>
      Number(
        (
          await client.query<{ n: string }>(
            `select vacuum_count::text as n from pg_stat_user_tables where relname = 'queue'`,
          )
        ).rows[0]?.n ?? 0,
      );
    const size = async () =>
      Number((await client.query<{ b: string }>(`select pg_relation_size('queue')::text as b`)).rows[0]?.b);
    try {
      // A queue's churn: rows added, done and deleted, over and over.
      await client.query('create table queue (id serial primary key, v text)');
      const round = async () => {
        await client.query(`insert into queue (v) select repeat('x', 200) from generate_series(1, 2000)`);
        await client.query('delete from queue');
      };
      await round();
      const oneRound = await size();
      for (let i = 0; i < 10; i++) {
        const before = await vacuums();
        for (let w = 0; w < 100 && (await vacuums()) === before; w++) await new Promise((r) => setTimeout(r, 50));
        expect(await vacuums()).toBeGreaterThan(before);
        await round();
      }
      // Ten more rounds in the space of the first ones, not ten rounds' more pages.
      expect(await size()).toBeLessThanOrEqual(2 * oneRound);
    } finally {
      await client.end();
      await db.stop();
    }
  }, 120_000);
});
