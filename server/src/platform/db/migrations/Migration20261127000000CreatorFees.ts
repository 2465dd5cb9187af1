import { Migration } from '@mikro-orm/migrations';

/** Claims of creator fees, one per settled market. */
export class Migration20261127000000CreatorFees extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "creator_fee_claims" ("id" uuid not null, "duel_id" varchar(66) not null, "creator" varchar(42) not null, "collateral_stack" varchar(8) not null, "amount" numeric(78,0) not null, "status" varchar(10) not null, "tx_hash" varchar(66) null, "paid_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "creator_fee_claims_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "creator_fee_claims_creator_idx" on "creator_fee_claims" ("creator");`);
    this.addSql(`alter table "creator_fee_claims" add constraint "creator_fee_claims_duel_unique" unique ("duel_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "creator_fee_claims" cascade;`);
  }
}
