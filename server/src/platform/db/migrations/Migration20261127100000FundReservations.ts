import { Migration } from '@mikro-orm/migrations';

/**
 * The per-wallet ledger of pending debits: one reservation per chain write that spends a
 * managed wallet's collateral (bets, market funding, withdrawals, entries), keyed like the write,
 * and one row per (chain, wallet, token) whose lock serialises the funding checks of that wallet
 * across every process.
 */
export class Migration20261127100000FundReservations extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "fund_wallets" ("chain_id" int not null, "account" varchar(42) not null, "token" varchar(42) not null, constraint "fund_wallets_pkey" primary key ("chain_id", "account", "token"));`,
    );
    this.addSql(
      `create table "fund_reservations" ("write_key" varchar(300) not null, "chain_id" int not null, "account" varchar(42) not null, "token" varchar(42) not null, "amount" numeric(78,0) not null, "created_at" timestamptz not null, constraint "fund_reservations_pkey" primary key ("write_key"));`,
    );
    this.addSql(
      `create index "fund_reservations_wallet_idx" on "fund_reservations" ("chain_id", "account", "token", "created_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "fund_reservations";`);
    this.addSql(`drop table if exists "fund_wallets";`);
  }
}
