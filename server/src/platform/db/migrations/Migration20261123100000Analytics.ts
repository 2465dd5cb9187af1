import { Migration } from '@mikro-orm/migrations';

/** Stored protocol statistics (§4.10), and the time index behind the volume and participant charts. */
export class Migration20261123100000Analytics extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "protocol_stats" ("id" uuid not null, "computed_at" timestamptz not null, "total_volume" numeric(78,0) not null, "volume24h" numeric(78,0) not null, "previous_volume24h" numeric(78,0) not null, "total_fees" numeric(78,0) not null, "total_trades" int not null, "trades24h" int not null, "total_users" int not null, "active_users24h" int not null, "total_creators" int not null, "total_duels" int not null, "active_duels" int not null, "settled_duels" int not null, "cancelled_duels" int not null, constraint "protocol_stats_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "protocol_stats_computed_at_idx" on "protocol_stats" ("computed_at");`);
    this.addSql(`create index "trades_created_at_idx" on "trades" ("created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "trades_created_at_idx";`);
    this.addSql(`drop table if exists "protocol_stats" cascade;`);
  }
}
