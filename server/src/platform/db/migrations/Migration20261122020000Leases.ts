import { Migration } from '@mikro-orm/migrations';

/** Lease rows for leader election (one active chain indexer, one scheduler of a kind). */
export class Migration20261122020000Leases extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "leases" ("name" varchar(100) not null, "owner" varchar(200) not null, "expires_at" timestamptz not null, constraint "leases_pkey" primary key ("name"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "leases";`);
  }
}
