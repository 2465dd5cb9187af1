import { Migration } from '@mikro-orm/migrations';

/**
 * Parlay tickets as the indexer reads them from ParlayBook (placement, settlement, claim), the
 * conditions' results posted on chain, and a chain position on each pool movement so a movement
 * indexed from an event is written once.
 */
export class Migration20261128020000ParlayTickets extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "parlay_tickets" ("ticket_id" varchar(66) not null, "bettor" varchar(42) not null, "nonce" bigint not null, ` +
        `"quote_id" varchar(40) null, "stake" numeric(78,0) not null, "fee" numeric(78,0) not null, "payout" numeric(78,0) not null, ` +
        `"liability" numeric(78,0) not null, "legs" jsonb not null, "status" varchar(16) not null, "outcome" varchar(8) null, "owed" numeric(78,0) not null default 0, ` +
        `"pool_result" numeric(78,0) null, "placed_tx" varchar(66) not null, "claim_tx" varchar(66) null, "placed_at" timestamptz not null, ` +
        `"settled_at" timestamptz null, "claimed_at" timestamptz null, constraint "parlay_tickets_pkey" primary key ("ticket_id"));`,
    );
    this.addSql(`create index "parlay_tickets_bettor_idx" on "parlay_tickets" ("bettor", "placed_at");`);
    this.addSql(`create index "parlay_tickets_status_idx" on "parlay_tickets" ("status");`);
    this.addSql(
      `create table "parlay_results" ("condition_id" varchar(66) not null, "is_void" boolean not null, ` +
        `"winning_outcome" int not null, "posted_at" timestamptz not null, constraint "parlay_results_pkey" primary key ("condition_id"));`,
    );
    this.addSql(`alter table "lp_movements" add column "tx_hash" varchar(66) null, add column "log_index" int null;`);
    this.addSql(`create unique index "lp_movements_log_key" on "lp_movements" ("tx_hash", "log_index");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "lp_movements_log_key";`);
    this.addSql(`alter table "lp_movements" drop column if exists "tx_hash", drop column if exists "log_index";`);
    this.addSql(`drop table if exists "parlay_results";`);
    this.addSql(`drop table if exists "parlay_tickets";`);
  }
}
