import { Migration } from '@mikro-orm/migrations';

/** The duel read model with the partial indexes behind the public list orderings. */
export class Migration20261122030000Duels extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "duels" ("id" uuid not null, "duel_id" varchar(66) not null, "builder_app_id" uuid not null, "creator_user_id" uuid null, "creator_address" varchar(42) not null, "question" varchar(200) not null, "description" text null, "category" varchar(50) not null, "tags" text[] not null, "options" text[] not null, "duel_type" varchar(16) not null, "collateral_stack" varchar(8) not null, "is_private" boolean not null, "league_id" varchar(100) null, "parent_market_id" uuid null, "cover_image_url" text null, "start_time" timestamptz not null, "end_time" timestamptz not null, "created_at" timestamptz not null, "status" varchar(16) not null, "chain_state" varchar(10) not null, "tx_hash" varchar(66) null, "chain_error" text null, "winning_option_index" smallint null, "pool_balances" text[] not null, "total_volume" numeric(78,0) not null, "unique_participants" int not null, "yes_bps" int not null, "ext_market_id" varchar(100) null, "ext_volume24h" numeric(78,0) null, "ext_live" boolean not null, "is_canonical" boolean not null, constraint "duels_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "duels" add constraint "duels_duel_id_unique" unique ("duel_id");`);
    this.addSql(
      `create index "duels_public_created_at_idx" on "duels" ("created_at" desc, "id" desc) where not "is_private";`,
    );
    this.addSql(
      `create index "duels_public_start_time_idx" on "duels" ("start_time" desc, "id" desc) where not "is_private";`,
    );
    this.addSql(
      `create index "duels_public_end_time_idx" on "duels" ("end_time" desc, "id" desc) where not "is_private";`,
    );
    this.addSql(
      `create index "duels_public_status_created_at_idx" on "duels" ("status", "created_at" desc, "id" desc) where not "is_private";`,
    );
    this.addSql(
      `create index "duels_canonical_volume_idx" on "duels" ("ext_volume24h" desc nulls last, "id" desc) where "is_canonical";`,
    );
    this.addSql(`create index "duels_league_created_at_idx" on "duels" ("league_id", "created_at" desc, "id" desc);`);
    this.addSql(`create index "duels_creator_address_idx" on "duels" ("creator_address");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "duels" cascade;`);
  }
}
