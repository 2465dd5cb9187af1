import type { EntityManager } from '@mikro-orm/postgresql';

/** Runs raw SQL with `?` placeholders; returns the rows. */
export type SqlExec = <T = Record<string, unknown>>(sql: string, params?: readonly unknown[]) => Promise<T[]>;

/**
 * Raw SQL on `em`'s connection *inside its transaction* when it has one. MikroORM's
 * `getConnection().execute()` runs outside the transaction unless the context is passed, so every
 * raw statement that must commit or roll back with the others goes through this.
 */
export function sqlIn(em: EntityManager): SqlExec {
  return <T>(sql: string, params: readonly unknown[] = []) =>
    em.getConnection().execute<T[]>(sql, [...params], 'all', em.getTransactionContext());
}

/**
 * A PostgreSQL array literal, passed as one parameter (the query builder would expand a JS array
 * into a list). Every element is quoted, so commas, braces and quotes stay inside it; quoted
 * elements cast to any element type (`?::text[]`, `?::numeric[]`, `?::int[]`).
 */
export function pgArray(values: readonly (string | number | bigint)[]): string {
  return `{${values.map((v) => `"${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

/** The pg driver's side of a pooled connection, as far as `directSql` uses it. */
interface DriverConnection {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The ORM's connection pool (knex's client): where `directSql` borrows its connections. */
interface ConnectionPool {
  acquireConnection(): Promise<DriverConnection>;
  releaseConnection(connection: DriverConnection): Promise<unknown>;
}

const numbered = new Map<string, string>();

/**
 * A statement's `?` placeholders as `$1…$n`, leaving quoted text, quoted identifiers and
 * comments alone. `??` (an identifier binding in knex) is refused: nothing here uses it.
 */
export function numberedPlaceholders(sql: string): string {
  const known = numbered.get(sql);
  if (known !== undefined) return known;
  let out = '';
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i] as string;
    if (ch === "'" || ch === '"') {
      const end = sql.indexOf(ch, i + 1);
      if (end < 0) throw new Error('unterminated quote in SQL');
      out += sql.slice(i, end + 1);
      i = end;
    } else if (ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      out += end < 0 ? sql.slice(i) : sql.slice(i, end);
      i = end < 0 ? sql.length : end - 1;
    } else if (ch === '?') {
      if (sql[i + 1] === '?') throw new Error('identifier bindings (??) are not supported here');
      out += `$${++n}`;
    } else {
      out += ch;
    }
  }
  // Statement texts are literals in the code: a few hundred at most. Bounded all the same.
  if (numbered.size >= 2_000) numbered.clear();
  numbered.set(sql, out);
  return out;
}

/**
 * Raw SQL straight on the pg driver, on a connection borrowed from the ORM's pool: one parameterised
 * statement per call, outside any transaction. For the few statements on every bet's path, where
 * the ORM's layers (entity-manager fork, query formatting, knex's runner) cost more CPU than the
 * statement itself; the same pool, so pool sizing, outage handling (`KnexTimeoutError`, the pg
 * driver's connection errors) and type parsing are those of every other query.
 */
export function directSql(orm: { readonly em: EntityManager }): SqlExec {
  return async <T>(sql: string, params: readonly unknown[] = []) => {
    const client = orm.em.getConnection().getKnex().client as unknown as ConnectionPool;
    const connection = await client.acquireConnection();
    try {
      const result = await connection.query(numberedPlaceholders(sql), [...params]);
      return result.rows as T[];
    } finally {
      await client.releaseConnection(connection);
    }
  };
}
