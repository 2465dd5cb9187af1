import { Migration } from '@mikro-orm/migrations';

/**
 * External prediction-market accounts: per user, the service-held signer (its key sealed), the
 * exchange credentials (sealed), the trading wallet; the relayer and bridge operations each user
 * started (so another user's id is never read); and the signed orders kept per Idempotency-Key
 * so that a retry posts the same order again instead of a second one.
 */
export class Migration20261128010000ExternalMarkets extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "ext_market_accounts" ("user_id" uuid not null, "signer_address" varchar(42) not null, "signer_key_ciphertext" text not null, "credentials_ciphertext" text null, "credentials_nonce" int not null default 0, "wallet_kind" varchar(8) not null, "trading_wallet" varchar(42) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "ext_market_accounts_pkey" primary key ("user_id"), constraint "ext_market_accounts_user_fk" foreign key ("user_id") references "users" ("id") on delete cascade);`,
    );
    this.addSql(
      `create table "ext_market_operations" ("id" varchar(128) not null, "user_id" uuid not null, "kind" varchar(32) not null, "details" jsonb not null, "created_at" timestamptz not null, constraint "ext_market_operations_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "ext_market_operations_user_idx" on "ext_market_operations" ("user_id", "created_at");`);
    this.addSql(
      `create table "ext_market_order_intents" ("user_id" uuid not null, "idempotency_key" varchar(300) not null, "order_id" varchar(66) not null, "payload" jsonb not null, "created_at" timestamptz not null, constraint "ext_market_order_intents_pkey" primary key ("user_id", "idempotency_key"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "ext_market_order_intents";`);
    this.addSql(`drop table if exists "ext_market_operations";`);
    this.addSql(`drop table if exists "ext_market_accounts";`);
  }
}
