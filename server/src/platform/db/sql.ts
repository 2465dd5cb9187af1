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
