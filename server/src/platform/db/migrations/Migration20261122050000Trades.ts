import { Migration } from '@mikro-orm/migrations';

/** Trades (once per log), positions, and indexer cursors. */
export class Migration20261122050000Trades extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "chain_cursors" ("name" varchar(100) not null, "last_block" bigint not null, constraint "chain_cursors_pkey" primary key ("name"));`,
    );
    this.addSql(
      `create table "positions" ("duel_id" varchar(66) not null, "holder" varchar(42) not null, "option_index" smallint not null, "shares" numeric(78,0) not null, "cost_basis" numeric(78,0) not null, constraint "positions_pkey" primary key ("duel_id", "holder", "option_index"));`,
    );
    this.addSql(
      `create table "trades" ("id" uuid not null, "duel_id" varchar(66) not null, "tx_hash" varchar(66) not null, "log_index" int not null, "block_number" bigint not null, "trader" varchar(42) not null, "side" varchar(4) not null, "option_index" smallint not null, "collateral" numeric(78,0) not null, "fee" numeric(78,0) not null, "shares" numeric(78,0) not null, "created_at" timestamptz not null, constraint "trades_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "trades_duel_created_idx" on "trades" ("duel_id", "created_at");`);
    this.addSql(`create index "trades_trader_idx" on "trades" ("trader");`);
    this.addSql(`alter table "trades" add constraint "trades_tx_log_unique" unique ("tx_hash", "log_index");`);
  }

  override async down(): Promise<void> {
    for (const t of ['trades', 'positions', 'chain_cursors']) this.addSql(`drop table if exists "${t}" cascade;`);
  }
}
