import { Migration } from '@mikro-orm/migrations';

/** Price snapshots behind the price-history charts (docs/price-history.md). */
export class Migration20261123110000PriceSnapshots extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "price_snapshots" ("id" bigserial primary key, "duel_id" varchar(66) not null, "option_prices" text[] not null, "yes_bps" int not null, "source" varchar(8) not null, "bucket_start" timestamptz null, "created_at" timestamptz not null);`,
    );
    this.addSql(`create index "price_snapshots_duel_created_idx" on "price_snapshots" ("duel_id", "created_at");`);
    this.addSql(
      `alter table "price_snapshots" add constraint "price_snapshots_duel_bucket_unique" unique ("duel_id", "bucket_start");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "price_snapshots" cascade;`);
  }
}
