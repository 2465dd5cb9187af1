import { Migration } from '@mikro-orm/migrations';

/** The event log and outbox, and the relay's high-water mark (docs/events.md). */
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
  }
}
