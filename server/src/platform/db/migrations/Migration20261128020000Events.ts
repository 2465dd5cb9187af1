import { Migration } from '@mikro-orm/migrations';

/**
 * The event log and outbox, the relay's high-water mark, and webhook endpoints with their
 * deliveries and attempts (docs/events.md).
 */
export class Migration20261128020000Events extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "events" ("id" uuid not null, "seq" bigint null, "type" varchar(40) not null, "version" smallint not null, "builder_app_id" uuid not null, "duel_id" varchar(66) null, "is_private" boolean not null, "dedupe_key" varchar(200) not null, "data" jsonb not null, "created_at" timestamptz not null, constraint "events_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "events" add constraint "events_seq_unique" unique ("seq");`);
    this.addSql(`alter table "events" add constraint "events_dedupe_key_unique" unique ("dedupe_key");`);
    this.addSql(`create index "events_builder_seq_idx" on "events" ("builder_app_id", "seq");`);
    this.addSql(`create index "events_unnumbered_idx" on "events" ("created_at", "id") where "seq" is null;`);
    this.addSql(
      `create table "event_relay" ("name" varchar(32) not null, "last_seq" bigint not null, constraint "event_relay_pkey" primary key ("name"));`,
    );
    this.addSql(`insert into "event_relay" ("name", "last_seq") values ('events', 0);`);
    this.addSql(
      `create table "webhook_endpoints" ("id" uuid not null, "builder_app_id" uuid not null, "url" text not null, "description" varchar(200) null, "types" text[] null, "secret_sealed" text not null, "previous_secret_sealed" text null, "previous_secret_expires_at" timestamptz null, "secret_rotated_at" timestamptz null, "status" varchar(10) not null, "disabled_reason" varchar(300) null, "consecutive_failures" int not null default 0, "created_at" timestamptz not null, constraint "webhook_endpoints_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_endpoints_app_idx" on "webhook_endpoints" ("builder_app_id", "created_at");`);
    this.addSql(
      `create table "webhook_deliveries" ("id" uuid not null, "endpoint_id" uuid not null, "event_id" uuid not null, "status" varchar(10) not null, "attempts" int not null default 0, "next_attempt_at" timestamptz null, "created_at" timestamptz not null, "delivered_at" timestamptz null, constraint "webhook_deliveries_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_event_unique" unique ("endpoint_id", "event_id");`,
    );
    this.addSql(
      `create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_attempt_at") where "status" = 'pending';`,
    );
    this.addSql(
      `create index "webhook_deliveries_endpoint_idx" on "webhook_deliveries" ("endpoint_id", "created_at");`,
    );
    this.addSql(
      `create table "webhook_attempts" ("id" uuid not null, "delivery_id" uuid not null, "attempt" int not null, "at" timestamptz not null, "status_code" smallint null, "error" varchar(500) null, "duration_ms" int not null, constraint "webhook_attempts_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_attempts_delivery_idx" on "webhook_attempts" ("delivery_id", "attempt");`);
  }
}
