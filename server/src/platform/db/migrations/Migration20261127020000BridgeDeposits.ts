import { Migration } from '@mikro-orm/migrations';

/** Bridge deposit events (deduped by the provider's id) and the notifications outbox. */
export class Migration20261127020000BridgeDeposits extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "bridge_deposits" ("event_id" varchar(200) not null, "user_id" uuid not null, "address" varchar(42) not null, "collateral_stack" varchar(8) not null, "amount" numeric(78,0) not null, "status" varchar(10) not null, "tx_hash" varchar(66) null, "payload_sha256" varchar(64) not null, "received_at" timestamptz not null, "credited_at" timestamptz null, constraint "bridge_deposits_pkey" primary key ("event_id"));`,
    );
    this.addSql(`create index "bridge_deposits_status_idx" on "bridge_deposits" ("status", "received_at");`);
    this.addSql(
      `create table "notification_outbox" ("id" uuid not null, "dedupe_key" varchar(250) not null, "user_id" uuid not null, "kind" varchar(40) not null, "payload" jsonb not null, "status" varchar(10) not null, "attempts" int not null default 0, "locked_until" timestamptz null, "last_error" text null, "created_at" timestamptz not null, "delivered_at" timestamptz null, constraint "notification_outbox_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "notification_outbox_status_idx" on "notification_outbox" ("status", "created_at");`);
    this.addSql(
      `alter table "notification_outbox" add constraint "notification_outbox_dedupe_unique" unique ("dedupe_key");`,
    );
  }

  override async down(): Promise<void> {
    for (const t of ['notification_outbox', 'bridge_deposits']) this.addSql(`drop table if exists "${t}" cascade;`);
  }
}
