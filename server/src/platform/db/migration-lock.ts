import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { MikroORM } from '@mikro-orm/postgresql';
import { systemClock } from '../clock.js';

/** Lives outside the migrated schema: it must exist before the first migration runs. */
export const MIGRATION_LOCK_TABLE = 'duelkit_migration_lock';

export interface MigrationLockOptions {
  /** A holder that stops renewing (it died) loses the lock after this long. */
  readonly ttlMs?: number;
  /** Give up waiting for another holder after this long. */
  readonly waitMs?: number;
  readonly onWait?: (holder: string) => void;
}

const CREATE = `create table if not exists ${MIGRATION_LOCK_TABLE} (
  name text primary key,
  owner text not null,
  expires_at timestamptz not null
)`;

/**
 * Two processes creating the table at the same instant: the loser sees a duplicate key in the
 * catalog (23505), a duplicate relation (42P07) or `type "…" already exists` (42710, the table's
 * row type).
 */
export function isCreateRace(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === '42P07' || code === '42710';
}

/**
 * Runs `work` (applying migrations) while holding a lease row, so instances that start at the
 * same moment on one database migrate one after another instead of failing on each other's DDL.
 * A lease row rather than an advisory lock: it excludes on the embedded database too, and a
 * holder that dies loses it when the lease expires. Waiters poll; the holder renews.
 */
export async function withMigrationLock<T>(
  orm: MikroORM,
  work: () => Promise<T>,
  options: MigrationLockOptions = {},
): Promise<T> {
  const ttlMs = options.ttlMs ?? 30_000;
  const waitMs = options.waitMs ?? 300_000;
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const execute = <R>(sql: string, params: unknown[] = []) => orm.em.fork().getConnection().execute<R[]>(sql, params);

  for (let attempt = 0; ; attempt++) {
    try {
      await execute(CREATE);
      break;
    } catch (err) {
      if (!isCreateRace(err) || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
    }
  }

  // A process-level wait for another instance: wall-clock time.
  const deadline = systemClock.now() + waitMs;
  let lastHolder = '';
  for (;;) {
    const rows = await execute<{ owner: string }>(
      `insert into ${MIGRATION_LOCK_TABLE} (name, owner, expires_at)
       values ('migrations', ?, now() + (? || ' milliseconds')::interval)
       on conflict (name) do update set owner = excluded.owner, expires_at = excluded.expires_at
         where ${MIGRATION_LOCK_TABLE}.owner = excluded.owner or ${MIGRATION_LOCK_TABLE}.expires_at < now()
       returning owner`,
      [owner, String(ttlMs)],
    );
    if (rows[0]?.owner === owner) break;
    if (systemClock.now() > deadline) {
      throw new Error(`migrations: another instance held the migration lock for more than ${waitMs} ms`);
    }
    const [holder] = await execute<{ owner: string }>(
      `select owner from ${MIGRATION_LOCK_TABLE} where name = 'migrations'`,
    );
    if (holder && holder.owner !== lastHolder) {
      lastHolder = holder.owner;
      options.onWait?.(holder.owner);
    }
    await new Promise((r) => setTimeout(r, 150 + Math.random() * 150));
  }

  const renew = setInterval(
    () => {
      execute(
        `update ${MIGRATION_LOCK_TABLE} set expires_at = now() + (? || ' milliseconds')::interval
          where name = 'migrations' and owner = ?`,
        [String(ttlMs), owner],
      ).catch(() => undefined);
    },
    Math.max(1_000, Math.floor(ttlMs / 3)),
  );
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await execute(`delete from ${MIGRATION_LOCK_TABLE} where name = 'migrations' and owner = ?`, [owner]).catch(
      () => undefined,
    );
  }
}
