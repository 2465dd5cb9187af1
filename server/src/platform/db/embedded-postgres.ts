import { PGlite } from '@electric-sql/pglite';
import { serveEmbeddedSocket } from './embedded-socket.server.js';

export interface EmbeddedPostgres {
  /** Connection string for the ordinary `pg` driver. */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL in this process (PGlite) and serves it on a loopback port, so the ORM and
 * every other client use the same `pg` driver code path as against a real server.
 * What differs from a real server: one statement at a time (a transaction on one connection makes
 * every other connection wait), and advisory locks that do not exclude — see docs/kernel.md.
 */
export async function startEmbeddedPostgres(options: { dataDir?: string | undefined }): Promise<EmbeddedPostgres> {
  const db = options.dataDir ? await PGlite.create(options.dataDir) : await PGlite.create();
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
    },
  };
}
