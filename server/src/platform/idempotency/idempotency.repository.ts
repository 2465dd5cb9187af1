import type { Orm } from '../db/orm.js';
import { directSql, type SqlExec } from '../db/sql.js';

/** The identity of one Idempotency-Key: who sent it, to which route, under which builder app. */
export interface IdempotencyKeyRef {
  readonly tenantId: string;
  readonly caller: string;
  readonly route: string;
  readonly key: string;
}

/** An `idempotency_keys` row as raw SQL returns it. */
export interface IdempotencyRow {
  id: string;
  fingerprint: string;
  state: 'in_flight' | 'completed';
  response_status: number | null;
  response_body: unknown;
  effect_started_at: Date | null;
  pending_status: number | null;
  pending_body: unknown;
  locked_at: Date;
  expires_at: Date;
}

/** The `idempotency_keys` table: the unique (tenant, caller, route, key) row is the lock. */
export class IdempotencyRepository {
  /** Every request with a key runs two of these statements: straight on the driver. */
  private readonly sql: SqlExec;

  constructor(orm: Orm) {
    this.sql = directSql(orm);
  }

  /**
   * Inserts an in-flight row for the key: its id and the lock this execution holds (`locked_at` in
   * microseconds, exact), or undefined when the key already has one.
   */
  async insertInFlight(
    ref: IdempotencyKeyRef,
    fingerprint: string,
    ttlMs: number,
  ): Promise<{ id: string; lock: string } | undefined> {
    const [inserted] = await this.execute<{ id: string; lock: string }>(
      `insert into idempotency_keys (tenant_id, caller, route, idempotency_key, fingerprint, state, locked_at, created_at, expires_at)
       values (?, ?, ?, ?, ?, 'in_flight', now(), now(), now() + (? || ' milliseconds')::interval)
       on conflict (tenant_id, caller, route, idempotency_key) do nothing
       returning id, (extract(epoch from locked_at) * 1000000)::bigint::text as lock`,
      [ref.tenantId, ref.caller, ref.route, ref.key, fingerprint, String(ttlMs)],
    );
    return inserted ? { id: String(inserted.id), lock: inserted.lock } : undefined;
  }

  async find(ref: IdempotencyKeyRef): Promise<IdempotencyRow | undefined> {
    const [row] = await this.execute<IdempotencyRow>(
      `select id, fingerprint, state, response_status, response_body, effect_started_at, pending_status, pending_body,
              locked_at, expires_at
         from idempotency_keys
        where tenant_id = ? and caller = ? and route = ? and idempotency_key = ?`,
      [ref.tenantId, ref.caller, ref.route, ref.key],
    );
    return row;
  }

  /** Deletes the row if it has expired. */
  async deleteIfExpired(id: string): Promise<void> {
    await this.execute('delete from idempotency_keys where id = ? and expires_at <= now()', [id]);
  }

  /**
   * Takes over an in-flight row whose lock is older than `lockTimeoutMs`: the new lock, or
   * undefined when someone else did.
   */
  async takeOver(id: string, lockTimeoutMs: number): Promise<string | undefined> {
    const [taken] = await this.execute<{ lock: string }>(
      `update idempotency_keys set locked_at = clock_timestamp()
        where id = ? and state = 'in_flight'
          and locked_at < now() - (? || ' milliseconds')::interval
        returning (extract(epoch from locked_at) * 1000000)::bigint::text as lock`,
      [id, String(lockTimeoutMs)],
    );
    return taken?.lock;
  }

  /**
   * Takes over an in-flight row whose execution is known to have ended without an effect (its
   * release was lost), at once: only while `lock` is still the row's lock (nobody took it over
   * since) and its effect has not started. The new lock, or undefined.
   */
  async takeOverEnded(id: string, lock: string): Promise<string | undefined> {
    const [taken] = await this.execute<{ lock: string }>(
      `update idempotency_keys set locked_at = clock_timestamp()
        where id = ? and state = 'in_flight' and effect_started_at is null
          and (extract(epoch from locked_at) * 1000000)::bigint = ?::bigint
        returning (extract(epoch from locked_at) * 1000000)::bigint::text as lock`,
      [id, lock],
    );
    return taken?.lock;
  }

  async complete(id: string, status: number, body: unknown): Promise<void> {
    await this.execute(
      `update idempotency_keys set state = 'completed', response_status = ?, response_body = ?::json where id = ?`,
      [status, JSON.stringify(body ?? null), id],
    );
  }

  /**
   * Deletes an in-flight row whose effect never started — only while `lock` is still its lock when
   * given, so a release that arrives late never deletes the row of an execution that took it over.
   */
  async release(id: string, lock?: string): Promise<void> {
    await this.execute(
      `delete from idempotency_keys where id = ? and state = 'in_flight' and effect_started_at is null
          and (?::text is null or (extract(epoch from locked_at) * 1000000)::bigint = ?::bigint)`,
      [id, lock ?? null, lock ?? null],
    );
  }

  /** Deletes expired rows; how many. */
  async purgeExpired(): Promise<number> {
    const rows = await this.execute<{ id: string }>(
      'delete from idempotency_keys where expires_at <= now() returning id',
      [],
    );
    return rows.length;
  }

  private execute<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.sql<T>(sql, params);
  }
}
