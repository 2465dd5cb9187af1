import { Migration } from '@mikro-orm/migrations';

/**
 * Tournament cancellation: who cancelled, why and when; hidden (discarded) tournaments; the time
 * each stage locked; and the cancel requests of creators and entrants (one open per requester).
 */
export class Migration20261126120000TournamentCancellation extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "tournaments" add column "cancelled_at" timestamptz null, add column "cancel_reason" varchar(500) null, add column "cancelled_by" varchar(120) null, add column "discarded_at" timestamptz null;`,
    );
    this.addSql(`alter table "tournament_stages" add column "locked_at" timestamptz null;`);
    this.addSql(
      `create table "tournament_cancel_requests" ("id" uuid not null, "tournament_id" varchar(24) not null, "wallet" varchar(42) not null, "role" varchar(8) not null, "reason" varchar(500) not null, "status" varchar(10) not null, "decided_by" varchar(120) null, "decision_reason" varchar(500) null, "created_at" timestamptz not null, "decided_at" timestamptz null, constraint "tournament_cancel_requests_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "tournament_cancel_requests_tournament_idx" on "tournament_cancel_requests" ("tournament_id");`,
    );
    this.addSql(
      `create index "tournament_cancel_requests_status_idx" on "tournament_cancel_requests" ("status", "created_at");`,
    );
    this.addSql(
      `create unique index "tournament_cancel_requests_open_unique" on "tournament_cancel_requests" ("tournament_id", "wallet") where "status" = 'OPEN';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "tournament_cancel_requests" cascade;`);
    this.addSql(`alter table "tournament_stages" drop column "locked_at";`);
    this.addSql(
      `alter table "tournaments" drop column "cancelled_at", drop column "cancel_reason", drop column "cancelled_by", drop column "discarded_at";`,
    );
  }
}
