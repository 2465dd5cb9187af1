import { Migration } from '@mikro-orm/migrations';

/** Private markets (invitations, memberships) and parent markets (docs/private-markets.md). */
export class Migration20261123120000Invitations extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "duel_invitations" ("id" uuid not null, "duel_id" varchar(66) not null, "code" varchar(64) null, "code_hash" varchar(66) not null, "max_uses" int not null, "uses" int not null default 0, "expires_at" timestamptz null, "revoked_at" timestamptz null, "created_by_user_id" uuid null, "created_by_address" varchar(42) null, "created_at" timestamptz not null, "tx_hash" varchar(66) null, "chain_state" varchar(10) not null, constraint "duel_invitations_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "duel_invitations_duel_idx" on "duel_invitations" ("duel_id");`);
    this.addSql(
      `alter table "duel_invitations" add constraint "duel_invitations_code_hash_unique" unique ("code_hash");`,
    );

    this.addSql(
      `create table "duel_memberships" ("duel_id" varchar(66) not null, "member_address" varchar(42) not null, "user_id" uuid null, "via" varchar(8) not null, "invitation_id" uuid null, "tx_hash" varchar(66) null, "chain_state" varchar(10) not null, "use_counted" boolean not null default false, "joined_at" timestamptz not null, "removed_at" timestamptz null, "event_block" bigint null, "event_log_index" int null, constraint "duel_memberships_pkey" primary key ("duel_id", "member_address"));`,
    );
    this.addSql(`create index "duel_memberships_member_idx" on "duel_memberships" ("member_address", "joined_at");`);

    this.addSql(
      `create table "parent_markets" ("id" uuid not null, "builder_app_id" uuid not null, "creator_user_id" uuid not null, "creator_address" varchar(42) not null, "question" varchar(200) not null, "description" text null, "category" varchar(50) not null, "tags" text[] not null, "cover_image_url" text null, "is_private" boolean not null, "group_kind" varchar(8) not null, "created_at" timestamptz not null, constraint "parent_markets_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "parent_markets_created_at_idx" on "parent_markets" ("created_at");`);
    this.addSql(`create index "parent_markets_creator_idx" on "parent_markets" ("creator_address");`);

    this.addSql(
      `create table "parent_market_invitations" ("id" uuid not null, "parent_market_id" uuid not null, "code" varchar(64) not null, "code_hash" varchar(66) not null, "max_uses" int not null, "uses" int not null default 0, "expires_at" timestamptz null, "revoked_at" timestamptz null, "created_by_user_id" uuid not null, "created_at" timestamptz not null, constraint "parent_market_invitations_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "parent_market_invitations_parent_idx" on "parent_market_invitations" ("parent_market_id");`,
    );
    this.addSql(
      `alter table "parent_market_invitations" add constraint "parent_market_invitations_code_hash_unique" unique ("code_hash");`,
    );

    this.addSql(
      `create table "parent_market_members" ("parent_market_id" uuid not null, "member_address" varchar(42) not null, "user_id" uuid null, "invitation_id" uuid null, "joined_at" timestamptz not null, constraint "parent_market_members_pkey" primary key ("parent_market_id", "member_address"));`,
    );
    this.addSql(`create index "parent_market_members_member_idx" on "parent_market_members" ("member_address");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "parent_market_members" cascade;`);
    this.addSql(`drop table if exists "parent_market_invitations" cascade;`);
    this.addSql(`drop table if exists "parent_markets" cascade;`);
    this.addSql(`drop table if exists "duel_memberships" cascade;`);
    this.addSql(`drop table if exists "duel_invitations" cascade;`);
  }
}
