import { Migration } from '@mikro-orm/migrations';

/** Contests, the payout/refund ledger, cancellations, admin batches and run-time market timings. */
export class Migration20261123130000Settlement extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "duel_contests" ("id" uuid not null, "duel_id" varchar(66) not null, "user_address" varchar(42) not null, "user_id" uuid null, "reason" text not null, "proposed_option_index" smallint null, "created_at" timestamptz not null, constraint "duel_contests_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "duel_contests_created_at_idx" on "duel_contests" ("created_at");`);
    this.addSql(
      `alter table "duel_contests" add constraint "duel_contests_duel_user_unique" unique ("duel_id", "user_address");`,
    );
    this.addSql(
      `create table "duel_distributions" ("id" uuid not null, "duel_id" varchar(66) not null, "holder" varchar(42) not null, "kind" varchar(8) not null, "is_creator" boolean not null, "status" varchar(10) not null, "amount" numeric(78,0) null, "tx_hash" varchar(66) null, "generation" int not null default 0, "attempts" int not null default 0, "last_error" text null, "batch_id" uuid null, "enqueued_at" timestamptz null, "paid_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "duel_distributions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "duel_distributions_status_idx" on "duel_distributions" ("status", "updated_at");`);
    this.addSql(
      `alter table "duel_distributions" add constraint "duel_distributions_duel_holder_kind_unique" unique ("duel_id", "holder", "kind");`,
    );
    this.addSql(
      `create table "duel_cancellations" ("duel_id" varchar(66) not null, "source" varchar(24) not null, "reason" text not null, "admin_id" uuid null, "batch_id" uuid null, "tx_hash" varchar(66) null, "requested_at" timestamptz not null, "refunds_dispatched_at" timestamptz null, constraint "duel_cancellations_pkey" primary key ("duel_id"));`,
    );
    this.addSql(
      `create table "settlement_batches" ("id" uuid not null, "kind" varchar(24) not null, "admin_id" uuid null, "duel_ids" text[] not null, "reason" text null, "created_at" timestamptz not null, constraint "settlement_batches_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create table "market_settings" ("id" smallint not null, "contest_period_seconds" int not null, "public_lead_seconds" int not null, "private_lead_seconds" int not null, "resolution_grace_seconds" int not null, "updated_at" timestamptz not null, "updated_by" varchar(320) null, constraint "market_settings_pkey" primary key ("id"));`,
    );
  }

  override async down(): Promise<void> {
    for (const t of [
      'market_settings',
      'settlement_batches',
      'duel_cancellations',
      'duel_distributions',
      'duel_contests',
    ]) {
      this.addSql(`drop table if exists "${t}" cascade;`);
    }
  }
}
