import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
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
export async function startEmbeddedPostgres(options: { dataDir?: string | undefined }): Promise<EmbeddedPostgres> {
  const release = options.dataDir ? claimDataDir(options.dataDir) : () => undefined;
  let db: PGlite;
  try {
    db = options.dataDir ? await PGlite.create(options.dataDir) : await PGlite.create();
  } catch (err) {
    release();
    throw err;
  }
  // Startup parameters are not honoured (one backend serves every connection), so anything a
  // client would set with `-c search_path=...` has to be set here (BullMQ keeps its tables in its
  // own schema).
  await db.exec('CREATE SCHEMA IF NOT EXISTS bullmq; SET search_path TO public, bullmq;');
  const server = await serveEmbeddedSocket(db);
  return {
    url: `postgres://postgres:postgres@${server.address}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
      release();
    },
  };
}
