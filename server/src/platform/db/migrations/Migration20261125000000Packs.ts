import { Migration } from '@mikro-orm/migrations';

/**
 * Packs: their state beside their parent market, markets with the pack's voids, one entry per user,
 * picks with the price they were made at, and auto-claim runs. Admin packs are owned by the
 * platform, so a parent market's creator user may be absent.
 */
export class Migration20261125000000Packs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "parent_markets" alter column "creator_user_id" drop not null;`);
    this.addSql(
      `create table "packs" ("id" uuid not null, "builder_app_id" uuid not null, "status" varchar(10) not null, "created_by" varchar(8) not null, "creator_user_id" uuid null, "collateral" varchar(8) not null, "entry_fee" numeric(78,0) not null, "fee_bps" int not null, "lock_at" timestamptz not null, "pool_id" varchar(66) not null, "pool_total" numeric(78,0) null, "fee_amount" numeric(78,0) null, "fee_tx_hash" varchar(66) null, "payout_root" varchar(66) null, "cancel_reason" text null, "created_at" timestamptz not null, "published_at" timestamptz null, "locked_at" timestamptz null, "resolving_at" timestamptz null, "settled_at" timestamptz null, "claimed_at" timestamptz null, "cancelled_at" timestamptz null, "refunds_claimed_at" timestamptz null, constraint "packs_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "packs_status_lock_at_idx" on "packs" ("status", "lock_at");`);
    this.addSql(
      `create table "pack_markets" ("pack_id" uuid not null, "duel_id" varchar(66) not null, "position" int not null, "added_at" timestamptz not null, "resolve_tx_hash" varchar(66) null, "voided_at" timestamptz null, "void_reason" text null, "void_tx_hash" varchar(66) null, constraint "pack_markets_pkey" primary key ("pack_id", "duel_id"));`,
    );
    this.addSql(`alter table "pack_markets" add constraint "pack_markets_duel_unique" unique ("duel_id");`);
    this.addSql(
      `create table "pack_entries" ("id" uuid not null, "pack_id" uuid not null, "user_id" uuid not null, "account" varchar(42) not null, "amount" numeric(78,0) not null, "status" varchar(10) not null, "attempt" int not null default 1, "tx_hash" varchar(66) null, "failure_reason" text null, "created_at" timestamptz not null, "confirmed_at" timestamptz null, "points" int null, "correct_picks" int null, "rank" int null, "payout" numeric(78,0) null, constraint "pack_entries_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "pack_entries" add constraint "pack_entries_pack_user_unique" unique ("pack_id", "user_id");`,
    );
    this.addSql(`create index "pack_entries_status_idx" on "pack_entries" ("status");`);
    this.addSql(
      `create table "pack_picks" ("pack_id" uuid not null, "user_id" uuid not null, "duel_id" varchar(66) not null, "option_index" smallint not null, "price" numeric(78,0) not null, "points_if_correct" int not null, "picked_at" timestamptz not null, constraint "pack_picks_pkey" primary key ("pack_id", "user_id", "duel_id"));`,
    );
    this.addSql(
      `create table "pack_claim_runs" ("pack_id" uuid not null, "kind" varchar(8) not null, "generation" int not null, "status" varchar(8) not null, "sent" int not null default 0, "skipped" int not null default 0, "failed" int not null default 0, "last_error" text null, "started_at" timestamptz null, "finished_at" timestamptz null, "updated_at" timestamptz not null, constraint "pack_claim_runs_pkey" primary key ("pack_id", "kind"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pack_claim_runs" cascade;`);
    this.addSql(`drop table if exists "pack_picks" cascade;`);
    this.addSql(`drop table if exists "pack_entries" cascade;`);
    this.addSql(`drop table if exists "pack_markets" cascade;`);
    this.addSql(`drop table if exists "packs" cascade;`);
    this.addSql(`alter table "parent_markets" alter column "creator_user_id" set not null;`);
  }
}
