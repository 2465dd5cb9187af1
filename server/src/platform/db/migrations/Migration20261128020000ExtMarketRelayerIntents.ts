import { Migration } from '@mikro-orm/migrations';

/**
 * Relayer intents of the external market: each relayer transaction a request means to submit
 * (deploy, approvals, wraps, withdrawals, sweeps, redemptions), recorded under the request's write
 * key before it is sent, with the signed request itself and, once known, the relayer's
 * transaction id. A retry of the request finds the intent and asks the relayer for that
 * transaction instead of submitting another.
 */
export class Migration20261128020000ExtMarketRelayerIntents extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "ext_market_relayer_intents" ("write_key" varchar(300) not null, "user_id" uuid not null, "operation" varchar(32) not null, "request" jsonb not null, "details" jsonb not null, "transaction_id" varchar(128) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "ext_market_relayer_intents_pkey" primary key ("write_key"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "ext_market_relayer_intents";`);
  }
}
