import { Migration } from '@mikro-orm/migrations';

/**
 * Admin tokens become server-side sessions (a token is valid only while its row is), admins can
 * be deactivated, and each TOTP step is accepted once. Logout revocations move into the sessions.
 */
export class Migration20261124090000AdminSessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "admins" add column "totp_last_step" int null, add column "deactivated_at" timestamptz null;`,
    );
    this.addSql(
      `create table "admin_sessions" ("id" varchar(64) not null, "admin_id" uuid not null, "kind" varchar(16) not null, "issued_at" timestamptz not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, constraint "admin_sessions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "admin_sessions_admin_id_index" on "admin_sessions" ("admin_id");`);
    this.addSql(`create index "admin_sessions_expires_at_index" on "admin_sessions" ("expires_at");`);
    // Admin tokens issued before this migration have no session row: their admins sign in again.
    this.addSql(`drop table if exists "revoked_tokens";`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `create table "revoked_tokens" ("id" varchar(100) not null, "expires_at" timestamptz not null, constraint "revoked_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(`drop table if exists "admin_sessions";`);
    this.addSql(`alter table "admins" drop column "totp_last_step", drop column "deactivated_at";`);
  }
}
