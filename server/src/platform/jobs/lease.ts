import type { Orm } from '../db/orm.js';

/**
 * Leader election by a lease row: one atomic upsert takes the lease when it is free or expired,
 * or renews it for its owner. Unlike advisory locks this excludes on the embedded database too,
 * and a dead holder loses the lease when it expires.
 */
export class Lease {
  constructor(
    private readonly orm: Orm,
    readonly name: string,
    readonly owner: string,
    private readonly ttlMs: number,
  ) {}

  /** Takes or renews the lease; true when this owner holds it afterwards. */
  async acquire(): Promise<boolean> {
    const rows = await this.orm.em
      .fork()
      .getConnection()
      .execute<{ owner: string }[]>(
        `insert into leases (name, owner, expires_at) values (?, ?, now() + (? || ' milliseconds')::interval)
         on conflict (name) do update set owner = excluded.owner, expires_at = excluded.expires_at
           where leases.owner = excluded.owner or leases.expires_at < now()
         returning owner`,
        [this.name, this.owner, String(this.ttlMs)],
      );
    return rows[0]?.owner === this.owner;
  }

  /** Gives the lease up at once (clean shutdown), so another instance need not wait for expiry. */
  async release(): Promise<void> {
    await this.orm.em
      .fork()
      .getConnection()
      .execute('delete from leases where name = ? and owner = ?', [this.name, this.owner]);
  }
}
