import { Migration } from '@mikro-orm/migrations';

/** Payout and refund distributions published as Merkle roots on prize vaults, with every leaf and its proof. */
export class Migration20261124000000MerkleDistributions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "merkle_distributions" ("id" uuid not null, "pool_id" varchar(66) not null, "kind" varchar(8) not null, "collateral" varchar(8) not null, "root" varchar(66) not null, "total" numeric(78,0) not null, "leaf_count" int not null, "status" varchar(10) not null, "publish_tx_hash" varchar(66) null, "created_at" timestamptz not null, "published_at" timestamptz null, constraint "merkle_distributions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "merkle_distributions" add constraint "merkle_distributions_pool_kind_unique" unique ("pool_id", "kind");`,
    );
    this.addSql(
      `create table "merkle_leaves" ("distribution_id" uuid not null, "account" varchar(42) not null, "amount" numeric(78,0) not null, "proof" text[] not null, "claim_tx_hash" varchar(66) null, "claimed_at" timestamptz null, constraint "merkle_leaves_pkey" primary key ("distribution_id", "account"));`,
    );
    this.addSql(`create index "merkle_leaves_account_idx" on "merkle_leaves" ("account");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "merkle_leaves" cascade;`);
    this.addSql(`drop table if exists "merkle_distributions" cascade;`);
  }
}
