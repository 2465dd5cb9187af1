import { Migration } from '@mikro-orm/migrations';

/** Closing tournaments: disputes, stage settlements, dispute-window overrides, admin actions, automation runs. */
export class Migration20261126000000TournamentsClose extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "tournament_disputes" ("id" uuid not null, "tournament_id" varchar(24) not null, "stage_id" uuid not null, "fixture_id" uuid not null, "entry_id" uuid not null, "wallet" varchar(42) not null, "reason" text not null, "proposed_result" varchar(8) null, "status" varchar(10) not null, "original_result" varchar(8) not null, "corrected_result" varchar(8) null, "resolution_note" text null, "resolved_by" varchar(120) null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "resolved_at" timestamptz null, constraint "tournament_disputes_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "tournament_disputes_tournament_idx" on "tournament_disputes" ("tournament_id", "status");`,
    );
    this.addSql(`create index "tournament_disputes_status_idx" on "tournament_disputes" ("status", "expires_at");`);
    this.addSql(
      `alter table "tournament_disputes" add constraint "tournament_disputes_fixture_entry_unique" unique ("fixture_id", "entry_id");`,
    );
    this.addSql(
      `create table "tournament_stage_settlements" ("stage_id" uuid not null, "tournament_id" varchar(24) not null, "mode" varchar(8) not null, "actor" varchar(120) not null, "reason" text null, "blockers" jsonb not null, "settled_at" timestamptz not null, constraint "tournament_stage_settlements_pkey" primary key ("stage_id"));`,
    );
    this.addSql(
      `create index "tournament_stage_settlements_tournament_idx" on "tournament_stage_settlements" ("tournament_id");`,
    );
    this.addSql(
      `create table "tournament_window_overrides" ("tournament_id" varchar(24) not null, "scope" varchar(40) not null, "ends_at" timestamptz not null, "set_by" varchar(120) not null, "set_at" timestamptz not null, constraint "tournament_window_overrides_pkey" primary key ("tournament_id", "scope"));`,
    );
    this.addSql(
      `create table "tournament_admin_actions" ("id" uuid not null, "tournament_id" varchar(24) not null, "stage_id" uuid null, "action" varchar(32) not null, "actor" varchar(120) not null, "reason" text null, "details" jsonb not null, "created_at" timestamptz not null, constraint "tournament_admin_actions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "tournament_admin_actions_tournament_idx" on "tournament_admin_actions" ("tournament_id", "created_at");`,
    );
    this.addSql(
      `create table "tournament_automation_runs" ("id" uuid not null, "trigger" varchar(16) not null, "steps" jsonb not null, "started_at" timestamptz not null, "finished_at" timestamptz null, constraint "tournament_automation_runs_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "tournament_automation_runs_started_idx" on "tournament_automation_runs" ("started_at");`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'tournament_automation_runs',
      'tournament_admin_actions',
      'tournament_window_overrides',
      'tournament_stage_settlements',
      'tournament_disputes',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
