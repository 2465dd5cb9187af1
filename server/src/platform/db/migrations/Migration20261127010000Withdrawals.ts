import { Migration } from '@mikro-orm/migrations';

/** Withdrawals (the daily-limit window), withdrawal requests and their decisions. */
export class Migration20261127010000Withdrawals extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "withdrawals" ("id" uuid not null, "user_id" uuid not null, "address" varchar(42) not null, "collateral_stack" varchar(8) not null, "to_address" varchar(42) not null, "amount" numeric(78,0) not null, "status" varchar(10) not null, "request_id" uuid null, "tx_hash" varchar(66) null, "bridge_ref" varchar(100) null, "failure_reason" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "completed_at" timestamptz null, constraint "withdrawals_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "withdrawals_window_idx" on "withdrawals" ("address", "collateral_stack", "created_at");`,
    );
    this.addSql(`alter table "withdrawals" add constraint "withdrawals_request_unique" unique ("request_id");`);
    this.addSql(
      `create table "withdrawal_requests" ("id" uuid not null, "user_id" uuid not null, "address" varchar(42) not null, "collateral_stack" varchar(8) not null, "to_address" varchar(42) not null, "amount" numeric(78,0) not null, "note" text null, "status" varchar(10) not null, "failure_reason" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "withdrawal_requests_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "withdrawal_requests_address_idx" on "withdrawal_requests" ("address", "created_at");`);
    this.addSql(`create index "withdrawal_requests_status_idx" on "withdrawal_requests" ("status", "created_at");`);
    this.addSql(
      `create table "withdrawal_decisions" ("id" uuid not null, "request_id" uuid not null, "admin_id" uuid not null, "admin_email" varchar(320) not null, "decision" varchar(8) not null, "reason" text null, "created_at" timestamptz not null, constraint "withdrawal_decisions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "withdrawal_decisions" add constraint "withdrawal_decisions_request_unique" unique ("request_id");`,
    );
  }

  override async down(): Promise<void> {
    for (const t of ['withdrawal_decisions', 'withdrawal_requests', 'withdrawals']) {
      this.addSql(`drop table if exists "${t}" cascade;`);
    }
  }
}
