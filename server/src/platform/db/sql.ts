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
