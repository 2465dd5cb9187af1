import { Readable } from 'node:stream';
import QueryStream from 'pg-query-stream';
import type { Orm } from './orm.js';
import { numberedPlaceholders } from './sql.js';

interface DriverConnection {
  query(stream: QueryStream): QueryStream;
}
interface ConnectionPool {
  acquireConnection(): Promise<DriverConnection>;
  releaseConnection(connection: DriverConnection): Promise<unknown>;
}

/**
 * The rows of one statement as an object-mode stream read from a server-side cursor, `batchSize`
 * rows at a time: memory stays flat whatever the row count, and the first rows flow before the
 * last are read. The connection is borrowed from the ORM's pool for the stream's life and given
 * back when it ends, fails or is destroyed (a client that hangs up).
 */
export async function streamRows(
  orm: Orm,
  sql: string,
  params: readonly unknown[],
  batchSize = 1_000,
): Promise<Readable> {
  const pool = orm.em.getConnection().getKnex().client as unknown as ConnectionPool;
  const connection = await pool.acquireConnection();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    void pool.releaseConnection(connection);
  };
  const stream = connection.query(new QueryStream(numberedPlaceholders(sql), [...params], { batchSize }));
  stream.once('close', release);
  stream.once('end', release);
  stream.once('error', release);
  return stream;
}
