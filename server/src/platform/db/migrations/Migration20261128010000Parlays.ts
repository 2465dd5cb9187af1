import { Migration } from '@mikro-orm/migrations';

/**
 * Parlay quotes with the exposure they hold on the pool (per leg, so caps per outcome and per
 * game are sums over rows), the pool's single row whose lock serialises every exposure check,
 * and the liquidity pool's ledger of deposits, withdrawals and realised results.
 */
export class Migration20261128010000Parlays extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "parlay_pool" ("id" int not null, constraint "parlay_pool_pkey" primary key ("id"));`);
    this.addSql(`insert into "parlay_pool" ("id") values (1);`);
    this.addSql(
      `create table "parlay_quotes" ("id" varchar(40) not null, "bettor" varchar(42) not null, "nonce" bigint not null, ` +
        `"stake" numeric(78,0) not null, "fee" numeric(78,0) not null, "odds" numeric(78,0) not null, "payout" numeric(78,0) not null, ` +
        `"exposure" numeric(78,0) not null, "expected_liability" numeric(78,0) not null, "legs" jsonb not null, "typed_data" jsonb not null, ` +
        `"signature" varchar(132) not null, "status" varchar(16) not null default 'quoted', "expires_at" timestamptz not null, ` +
        `"created_at" timestamptz not null, constraint "parlay_quotes_pkey" primary key ("id"), ` +
        `constraint "parlay_quotes_bettor_nonce_key" unique ("bettor", "nonce"));`,
    );
    this.addSql(
      `create table "parlay_quote_legs" ("quote_id" varchar(40) not null, ` +
        `"leg_index" int not null, "condition_id" varchar(66) not null, "outcome_id" int not null, "fixture_id" bigint not null, ` +
        `constraint "parlay_quote_legs_pkey" primary key ("quote_id", "leg_index"));`,
    );
    this.addSql(`create index "parlay_quote_legs_outcome_idx" on "parlay_quote_legs" ("condition_id", "outcome_id");`);
    this.addSql(`create index "parlay_quote_legs_fixture_idx" on "parlay_quote_legs" ("fixture_id");`);
    this.addSql(`create index "parlay_quotes_live_idx" on "parlay_quotes" ("status", "expires_at");`);
    this.addSql(
      `create table "lp_movements" ("id" bigserial primary key, "account" varchar(42) null, "kind" varchar(16) not null, ` +
        `"assets" numeric(78,0) not null, "shares" numeric(78,0) not null, "at" timestamptz not null);`,
    );
    this.addSql(`create index "lp_movements_account_idx" on "lp_movements" ("account", "at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "lp_movements";`);
    this.addSql(`drop table if exists "parlay_quote_legs";`);
    this.addSql(`drop table if exists "parlay_quotes";`);
    this.addSql(`drop table if exists "parlay_pool";`);
  }
}
