import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  /** Connection string for the ordinary `pg` driver. */
  readonly url: string;
  /** Connections accepted at once; every pool in the process must stay below it together. */
  readonly maxConnections: number;
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL in this process (PGlite) and serves it on a loopback port, so the ORM and
 * every other client use the same `pg` driver code path as against a real server.
 * See shared/notes/embedded-postgres.md for what differs (one statement at a time, a connection
 * cap, advisory locks that do not exclude).
 */
export async function startEmbeddedPostgres(options: {
  dataDir?: string | undefined;
  maxConnections: number;
}): Promise<EmbeddedPostgres> {
  const db = options.dataDir ? await PGlite.create(options.dataDir) : await PGlite.create();
  // Startup parameters are ignored by the socket server, so anything a client would set with
  // `-c search_path=...` has to be set here (BullMQ keeps its tables in its own schema).
  await db.exec('CREATE SCHEMA IF NOT EXISTS bullmq; SET search_path TO public, bullmq;');
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: 0,
    maxConnections: options.maxConnections,
  });
  await server.start();
  const url = `postgres://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  return {
    url,
    maxConnections: options.maxConnections,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
