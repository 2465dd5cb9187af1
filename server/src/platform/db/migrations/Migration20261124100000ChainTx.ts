import { Migration } from '@mikro-orm/migrations';

/**
 * Exactly-once chain writes: the transaction pipeline (`chain_txs`, one row per signed write,
 * recorded before broadcast), nonces per signing account (`chain_accounts`), the identity of the
 * chain this database belongs to, the embedded chain's replay journal, and the recovery point of
 * idempotency keys.
 */
export class Migration20261124100000ChainTx extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "chain_accounts" ("chain_id" int not null, "address" varchar(42) not null, "next_nonce" bigint not null, "updated_at" timestamptz not null, constraint "chain_accounts_pkey" primary key ("chain_id", "address"));`,
    );
    this.addSql(
      `create table "chain_identity" ("id" varchar(16) not null, "mode" varchar(16) not null, "chain_id" int not null, "genesis_hash" varchar(66) not null, "genesis_time" bigint not null, "contracts" jsonb not null, "deployment_block" bigint null, "anchor_block" bigint not null, "anchor_hash" varchar(66) not null, "created_at" timestamptz not null, constraint "chain_identity_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create table "chain_journal" ("seq" bigserial primary key, "kind" varchar(16) not null, "block_number" bigint null, "block_hash" varchar(66) null, "timestamp" bigint null, "payload" json not null, "created_at" timestamptz not null);`,
    );
    this.addSql(
      `create table "chain_txs" ("id" bigserial primary key, "chain_id" int not null, "intent_key" varchar(300) null, "retired_key" varchar(300) null, "kind" varchar(64) not null, "account" varchar(42) not null, "to_address" varchar(42) null, "data" text not null, "value" numeric(78,0) not null, "gas_limit" numeric(78,0) not null, "nonce" bigint not null, "raw_tx" text not null, "tx_hash" varchar(66) not null, "status" varchar(16) not null, "effect" jsonb null, "idempotency_record_id" bigint null, "broadcasts" int not null default 0, "last_error" text null, "block_number" bigint null, "created_at" timestamptz not null, "broadcast_at" timestamptz null, "final_at" timestamptz null, "updated_at" timestamptz not null);`,
    );
    this.addSql(`create index "chain_txs_status_idx" on "chain_txs" ("status", "chain_id");`);
    this.addSql(`create index "chain_txs_account_nonce_idx" on "chain_txs" ("chain_id", "account", "nonce");`);
    this.addSql(`alter table "chain_txs" add constraint "chain_txs_intent_key_unique" unique ("intent_key");`);
    this.addSql(`alter table "chain_txs" add constraint "chain_txs_tx_hash_unique" unique ("tx_hash");`);
    this.addSql(
      `alter table "idempotency_keys" add column "effect_started_at" timestamptz null, add column "pending_status" int null, add column "pending_body" json null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "idempotency_keys" drop column "effect_started_at", drop column "pending_status", drop column "pending_body";`,
    );
    for (const t of ['chain_txs', 'chain_journal', 'chain_identity', 'chain_accounts']) {
      this.addSql(`drop table if exists "${t}";`);
    }
  }
}
