import { Migration } from '@mikro-orm/migrations';

/**
 * Operations (docs/operations.md): platform invite codes and their uses; creator, league and token
 * requests with league memberships and launched tokens; daily PnL snapshots; push devices and
 * deliveries; pre-match cycle runs; stream-migration jobs; keyset indexes of the reports.
 */
export class Migration20261128000000Operations extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "launched_tokens" ("id" uuid not null, "request_id" uuid not null, "user_id" uuid not null, "name" varchar(60) not null, "symbol" varchar(11) not null, "token_address" varchar(42) null, "launched_by" varchar(320) not null, "launched_at" timestamptz not null, constraint "launched_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "launched_tokens_launched_idx" on "launched_tokens" ("launched_at", "id");`);
    this.addSql(`alter table "launched_tokens" add constraint "launched_tokens_request_unique" unique ("request_id");`);
    this.addSql(
      `create table "league_memberships" ("league_id" varchar(100) not null, "user_id" uuid not null, "request_id" uuid not null, "joined_at" timestamptz not null, constraint "league_memberships_pkey" primary key ("league_id", "user_id"));`,
    );
    this.addSql(`create index "league_memberships_joined_idx" on "league_memberships" ("joined_at");`);
    this.addSql(
      `create table "stream_migration_jobs" ("id" uuid not null, "kind" varchar(6) not null, "status" varchar(10) not null, "archive_id" varchar(100) not null, "format_version" int not null, "tables" jsonb not null, "rows_done" int not null default 0, "error_code" varchar(60) null, "error_message" text null, "requested_by" varchar(320) not null, "created_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null, constraint "stream_migration_jobs_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "stream_migration_jobs_created_idx" on "stream_migration_jobs" ("created_at");`);
    this.addSql(
      `create table "platform_invites" ("id" uuid not null, "code" varchar(64) not null, "code_lower" varchar(64) not null, "owner_user_id" uuid null, "max_uses" int not null, "uses" int not null default 0, "expires_at" timestamptz null, "note" varchar(200) null, "batch_id" uuid null, "created_by" varchar(320) not null, "created_at" timestamptz not null, "deactivated_at" timestamptz null, "deactivated_by" varchar(320) null, "deactivation_reason" varchar(300) null, constraint "platform_invites_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "platform_invites_owner_idx" on "platform_invites" ("owner_user_id");`);
    this.addSql(`create index "platform_invites_created_idx" on "platform_invites" ("created_at", "id");`);
    this.addSql(
      `alter table "platform_invites" add constraint "platform_invites_code_lower_unique" unique ("code_lower");`,
    );
    this.addSql(
      `create table "platform_invite_uses" ("id" uuid not null, "invite_id" uuid not null, "user_id" uuid not null, "used_at" timestamptz not null, constraint "platform_invite_uses_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "platform_invite_uses_invite_idx" on "platform_invite_uses" ("invite_id", "used_at");`);
    this.addSql(`create index "platform_invite_uses_used_idx" on "platform_invite_uses" ("used_at", "id");`);
    this.addSql(
      `alter table "platform_invite_uses" add constraint "platform_invite_uses_user_unique" unique ("user_id");`,
    );
    this.addSql(
      `create table "platform_requests" ("id" uuid not null, "kind" varchar(10) not null, "user_id" uuid not null, "builder_app_id" uuid not null, "subject" varchar(100) not null, "status" varchar(10) not null, "message" text null, "league_id" varchar(100) null, "token_name" varchar(60) null, "token_symbol" varchar(11) null, "decided_by" varchar(320) null, "decided_at" timestamptz null, "decision_reason" varchar(500) null, "created_at" timestamptz not null, constraint "platform_requests_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "platform_requests_kind_created_idx" on "platform_requests" ("kind", "created_at", "id");`,
    );
    this.addSql(`create index "platform_requests_user_idx" on "platform_requests" ("user_id");`);
    this.addSql(
      `create table "pnl_snapshots" ("holder" varchar(42) not null, "day" date not null, "invested" numeric(78,0) not null, "returned" numeric(78,0) not null, "open_cost_basis" numeric(78,0) not null, "trades" int not null, "snapshot_at" timestamptz not null, constraint "pnl_snapshots_pkey" primary key ("holder", "day"));`,
    );
    this.addSql(`create index "pnl_snapshots_at_idx" on "pnl_snapshots" ("snapshot_at", "holder");`);
    this.addSql(
      `create table "prematch_runs" ("id" uuid not null, "window_minutes" int not null, "fixtures" int not null, "candidates" int not null, "enqueued" int not null, "delivered" int not null, "ran_at" timestamptz not null, constraint "prematch_runs_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "prematch_runs_ran_idx" on "prematch_runs" ("ran_at");`);
    this.addSql(
      `create table "push_deliveries" ("id" uuid not null, "notification_id" uuid null, "user_id" uuid null, "device_id" uuid null, "provider" varchar(10) not null, "kind" varchar(40) not null, "status" varchar(6) not null, "error" text null, "provider_answer" text null, "pruned" boolean not null default false, "created_at" timestamptz not null, constraint "push_deliveries_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "push_deliveries_created_idx" on "push_deliveries" ("created_at");`);
    this.addSql(`create index "push_deliveries_notification_idx" on "push_deliveries" ("notification_id");`);
    this.addSql(
      `create table "push_devices" ("id" uuid not null, "user_id" uuid not null, "provider" varchar(10) not null, "token" text not null, "token_sha256" varchar(64) not null, "label" varchar(100) null, "status" varchar(10) not null, "pruned_reason" varchar(300) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "push_devices_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "push_devices_user_idx" on "push_devices" ("user_id", "status");`);
    this.addSql(
      `alter table "push_devices" add constraint "push_devices_token_unique" unique ("provider", "token_sha256");`,
    );
    this.addSql(`create index "trades_created_id_idx" on "trades" ("created_at", "id");`);
    this.addSql(`create index "users_created_id_idx" on "users" ("created_at", "id");`);
  }

  override async down(): Promise<void> {
    for (const t of [
      'launched_tokens',
      'league_memberships',
      'stream_migration_jobs',
      'platform_invites',
      'platform_invite_uses',
      'platform_requests',
      'pnl_snapshots',
      'prematch_runs',
      'push_deliveries',
      'push_devices',
    ]) {
      this.addSql(`drop table if exists "${t}" cascade;`);
    }
    this.addSql(`drop index if exists "trades_created_id_idx";`);
    this.addSql(`drop index if exists "users_created_id_idx";`);
  }
}
