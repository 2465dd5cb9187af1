import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { extract } from 'tar';
import { serveEmbeddedSocket } from './embedded-socket.server.js';

export interface EmbeddedPostgres {
  /** Connection string for the ordinary `pg` driver. */
  readonly url: string;
  stop(): Promise<void>;
}

function readLock(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One process per data directory: PGlite has no locking of its own, and two processes writing one
 * directory corrupt it. A lock file names the owner; one left by a dead process is taken over.
 */
function claimDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = join(dataDir, 'server.lock');
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => rmSync(lock, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const held = readLock(lock);
    if (held === null) continue;
    const owner = Number(held);
    if (Number.isInteger(owner) && owner > 0 && isRunning(owner)) {
      throw new Error(`${dataDir} is in use by process ${owner}: one server per DUELKIT_DATA_DIR`);
    }
    // Stale: remove it unless another starting process replaced it meanwhile.
    if (readLock(lock) === held) rmSync(lock, { force: true });
  }
}

/**
 * Starts PostgreSQL in this process (PGlite) and serves it on a loopback port, so the ORM and
 * every other client use the same `pg` driver code path as against a real server.
 * What differs from a real server: one statement at a time (a transaction on one connection makes
 * every other connection wait), and advisory locks that do not exclude — see docs/kernel.md.
 */
export async function startEmbeddedPostgres(options: {
  dataDir?: string | undefined;
  /** How often the database is looked after (`MAINTENANCE` unless given). */
  maintenance?: Maintenance;
}): Promise<EmbeddedPostgres> {
  const release = options.dataDir ? claimDataDir(options.dataDir) : () => undefined;
  let db: PGlite;
  try {
    db = options.dataDir ? await onDisk(options.dataDir) : await inMemory();
  } catch (err) {
    release();
    throw err;
  }
  // Startup parameters are not honoured (one backend serves every connection), so anything a
  // client would set with `-c search_path=...` has to be set here (BullMQ keeps its tables in its
  // own schema).
  await db.exec('CREATE SCHEMA IF NOT EXISTS bullmq; SET search_path TO public, bullmq;');
  const server = await serveEmbeddedSocket(db);
  const url = `postgres://postgres:postgres@${server.address}/postgres?sslmode=disable`;
  const maintenance = maintain(url, options.maintenance ?? MAINTENANCE);
  return {
    url,
    async stop() {
      await maintenance.stop();
      await server.stop();
      await db.close();
      release();
    },
  };
}

/**
 * PostgreSQL's default 128 MB of shared buffers is most of PGlite's memory (the WebAssembly heap
 * holds them whole), for a development database of a few megabytes.
 */
const SETTINGS = { postgresqlconf: ['shared_buffers = 16MB'] };

/** How often the embedded database checkpoints, and every how many checkpoints it vacuums first. */
export interface Maintenance {
  readonly everyMs: number;
  readonly vacuumEvery: number;
}

/**
 * PGlite runs neither a checkpointer nor autovacuum, and its one backend does neither by itself:
 * its write-ahead log only grows (16 MB segments, kept in memory with `:memory:`, on disk in a
 * data directory), and so do tables with many deleted rows (the job queues: about 0.4 MB a minute
 * on an idle server), since only VACUUM records the space they free. A `CHECKPOINT` a minute
 * (about 10 ms) lets PostgreSQL drop old log segments; a `VACUUM` every ten minutes (tens of ms on
 * a development database) lets it reuse the space.
 */
const MAINTENANCE: Maintenance = { everyMs: 60_000, vacuumEvery: 10 };

/** Runs the maintenance as a client of the socket server, so it waits for open transactions. */
function maintain(url: string, { everyMs, vacuumEvery }: Maintenance): { stop(): Promise<void> } {
  let client: pg.Client | undefined;
  let running: Promise<void> = Promise.resolve();
  let runs = 0;
  const run = async () => {
    runs++;
    try {
      if (!client) {
        const connecting = new pg.Client({ connectionString: url });
        connecting.on('error', () => undefined);
        await connecting.connect();
        client = connecting;
      }
      if (runs % vacuumEvery === 0) await client.query('VACUUM');
      await client.query('CHECKPOINT');
    } catch {
      // Tried again at the next interval, on a new connection.
      await client?.end().catch(() => undefined);
      client = undefined;
    }
  };
  const timer = setInterval(() => {
    running = running.then(run);
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await client?.end().catch(() => undefined);
    },
  };
}

/**
 * Where a freshly initialised cluster is kept, per PGlite version: `initdb` is most of a new
 * database's start (about 4 s of CPU on a 2-core machine, against under 1 s to load the copy).
 */
function clusterCopyPath(): string {
  // The package exports no package.json: read it beside its entry (`dist/index.*`).
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return join(tmpdir(), 'duelkit-embedded', `pglite-${version}-initdb.tar`);
}

/** The kept copy of an empty cluster, or undefined when there is none yet. */
function readClusterCopy(): Uint8Array<ArrayBuffer> | undefined {
  try {
    return new Uint8Array(readFileSync(clusterCopyPath()));
  } catch {
    return undefined;
  }
}

/**
 * Keeps the cluster of `db`, a new and empty database in memory, for the next new database
 * (written whole, then renamed); false when it could not, which loses only time.
 */
async function keepClusterCopy(db: PGlite): Promise<boolean> {
  const path = clusterCopyPath();
  try {
    const dump = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
    mkdirSync(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, dump);
    renameSync(partial, path);
    return true;
  } catch {
    return false;
  }
}

/** What PostgreSQL keeps at the top of a cluster; the data directory also holds the server's own files. */
const CLUSTER_ENTRY = /^(PG_VERSION|base|global|pg_[a-z_]+|postgresql(\.auto)?\.conf|postmaster\.(pid|opts))$/;

/**
 * A database in a data directory. A directory with no cluster yet starts from the kept copy of an
 * empty one, unpacked into it by node-tar (streamed from the file; PGlite unpacking it itself would
 * grow its WebAssembly heap, which never shrinks, by about 100 MB), then opened like an existing
 * one: about 0.1 s instead of 3 s or more for initdb. The first start on a machine makes the copy
 * in memory first (initdb never runs in the directory, which also holds the server's secrets).
 * `PG_VERSION` is unpacked last, so a start that dies midway leaves a directory that still counts
 * as new; when the copy does not open, its files are removed and initdb runs in the directory.
 */
async function onDisk(dataDir: string): Promise<PGlite> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return PGlite.create({ dataDir, ...SETTINGS });
  const file = clusterCopyPath();
  if (existsSync(file) || (await newClusterCopy())) {
    const name = (path: string) => path.replace(/^\/+/, '');
    try {
      await extract({ file, cwd: dataDir, filter: (path) => name(path) !== 'PG_VERSION' });
      await extract({ file, cwd: dataDir, filter: (path) => name(path) === 'PG_VERSION' });
      return await PGlite.create({ dataDir, ...SETTINGS });
    } catch {
      for (const entry of readdirSync(dataDir)) {
        if (CLUSTER_ENTRY.test(entry)) rmSync(join(dataDir, entry), { recursive: true, force: true });
      }
    }
  }
  return PGlite.create({ dataDir, ...SETTINGS });
}

/**
 * Makes the kept copy of an empty cluster when there is none yet, so that the first start on a
 * machine skips initdb too: `pnpm build` runs it. 'kept' when a copy was there already.
 */
export async function prepareClusterCopy(): Promise<{
  readonly path: string;
  readonly outcome: 'kept' | 'made' | 'failed';
}> {
  const path = clusterCopyPath();
  if (existsSync(path)) return { path, outcome: 'kept' };
  return { path, outcome: (await newClusterCopy()) ? 'made' : 'failed' };
}

/** Runs initdb in memory and keeps the empty cluster (see keepClusterCopy); true once it is kept. */
async function newClusterCopy(): Promise<boolean> {
  const db = await PGlite.create(SETTINGS);
  try {
    return await keepClusterCopy(db);
  } finally {
    await db.close();
  }
}

/**
 * A database in memory, started from the kept copy of an empty cluster when there is one. The
 * first start makes the copy (written whole, then renamed, so concurrent starts never read half
 * of one); a copy that does not load is replaced. Nothing of the application is in it: the
 * migrations run on every start, as on any new database.
 */
async function inMemory(): Promise<PGlite> {
  const copy = readClusterCopy();
  if (copy) {
    try {
      return await PGlite.create({ loadDataDir: new Blob([copy]), ...SETTINGS });
    } catch {
      // An unreadable copy: start from initdb below and replace it.
    }
  }
  const db = await PGlite.create(SETTINGS);
  await keepClusterCopy(db);
  return db;
}
