import { Migration } from '@mikro-orm/migrations';

/** Tournaments: stages, fixtures, entries, deposits, stage participants, picks, knockout matches and creator bonds. */
export class Migration20261125000000Tournaments extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "tournaments" ("id" varchar(24) not null, "builder_app_id" uuid null, "name" varchar(120) not null, "description" text null, "sport" varchar(40) not null, "league" varchar(80) null, "category" varchar(50) null, "game_type" varchar(24) not null, "format" varchar(24) not null, "type" varchar(16) not null, "status" varchar(12) not null, "stake_asset" varchar(8) not null, "owner_wallet" varchar(42) not null, "owner_user_id" uuid null, "total_stages" int not null, "min_entries" int not null, "max_entrants" int not null, "chips_per_stage" int not null, "group_size" int not null, "advance_per_group" int not null, "fixtures_per_stage" int not null, "league_id" int not null, "fee_bps" int not null, "payout_bps" jsonb not null, "creator_deposit_tx_hash" varchar(66) not null, "pool_id" varchar(66) not null, "starts_at" timestamptz not null, "ends_at" timestamptz not null, "activated_at" timestamptz null, "completed_at" timestamptz null, "champion_wallet" varchar(42) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "tournaments_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "tournaments_status_created_idx" on "tournaments" ("status", "created_at");`);
    this.addSql(`create index "tournaments_owner_idx" on "tournaments" ("owner_wallet");`);
    this.addSql(
      `alter table "tournaments" add constraint "tournaments_creator_deposit_unique" unique ("creator_deposit_tx_hash");`,
    );
    this.addSql(
      `create table "tournament_stages" ("id" uuid not null, "tournament_id" varchar(24) not null, "stage_index" int not null, "stage_name" varchar(40) not null, "kind" varchar(10) not null, "buyin" numeric(78,0) not null, "multiplier" int not null, "is_final" boolean not null, "start_chips" bigint not null, "window_start" timestamptz not null, "window_end" timestamptz not null, "starts_at" timestamptz not null, "lock_at" timestamptz not null, "ends_at" timestamptz not null, "completed_at" timestamptz null, constraint "tournament_stages_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "tournament_stages" add constraint "tournament_stages_index_unique" unique ("tournament_id", "stage_index");`,
    );
    this.addSql(
      `create table "tournament_fixtures" ("id" uuid not null, "tournament_id" varchar(24) not null, "stage_id" uuid not null, "provider_fixture_id" bigint not null, "title" varchar(200) not null, "home_team" varchar(100) not null, "away_team" varchar(100) not null, "starts_at" timestamptz not null, "lock_at" timestamptz not null, "ends_at" timestamptz not null, "expires_at" timestamptz not null, "odds_home" int not null, "odds_draw" int not null, "odds_away" int not null, "result" varchar(8) null, "home_score" int null, "away_score" int null, "settled_at" timestamptz null, constraint "tournament_fixtures_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "tournament_fixtures_tournament_idx" on "tournament_fixtures" ("tournament_id");`);
    this.addSql(`create index "tournament_fixtures_ends_idx" on "tournament_fixtures" ("ends_at");`);
    this.addSql(
      `alter table "tournament_fixtures" add constraint "tournament_fixtures_stage_provider_unique" unique ("stage_id", "provider_fixture_id");`,
    );
    this.addSql(
      `create table "tournament_entries" ("id" uuid not null, "tournament_id" varchar(24) not null, "wallet" varchar(42) not null, "user_id" uuid null, "is_creator" boolean not null, "seq" int not null, "deposit_tx_hash" varchar(66) not null, "entered_at" timestamptz not null, "placement" int null, "stages_played" int not null default 0, "points" bigint not null default 0, "status" varchar(12) not null default 'ALIVE', constraint "tournament_entries_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "tournament_entries_wallet_idx" on "tournament_entries" ("wallet");`);
    this.addSql(
      `alter table "tournament_entries" add constraint "tournament_entries_wallet_unique" unique ("tournament_id", "wallet");`,
    );
    this.addSql(
      `create table "tournament_deposits" ("tx_hash" varchar(66) not null, "tournament_id" varchar(24) not null, "stage_index" int not null, "wallet" varchar(42) not null, "amount" numeric(78,0) not null, "purpose" varchar(8) not null, "created_at" timestamptz not null, "refund_tx_hash" varchar(66) null, "refunded_at" timestamptz null, constraint "tournament_deposits_pkey" primary key ("tx_hash"));`,
    );
    this.addSql(
      `create index "tournament_deposits_tournament_idx" on "tournament_deposits" ("tournament_id", "wallet");`,
    );
    this.addSql(
      `create table "tournament_stage_entries" ("stage_id" uuid not null, "entry_id" uuid not null, "tournament_id" varchar(24) not null, "wallet" varchar(42) not null, "start_chips" bigint not null, "available" bigint not null, "stack" bigint not null, "rank" int null, "group_label" varchar(4) null, "group_rank" int null, "status" varchar(12) not null, "paid_tx_hash" varchar(66) null, "picks" int not null default 0, "won_picks" int not null default 0, constraint "tournament_stage_entries_pkey" primary key ("stage_id", "entry_id"));`,
    );
    this.addSql(
      `create index "tournament_stage_entries_tournament_idx" on "tournament_stage_entries" ("tournament_id");`,
    );
    this.addSql(
      `create table "tournament_picks" ("id" uuid not null, "tournament_id" varchar(24) not null, "stage_id" uuid not null, "fixture_id" uuid not null, "entry_id" uuid not null, "wallet" varchar(42) not null, "outcome" varchar(4) not null, "stake" bigint not null, "odds" int not null, "status" varchar(6) not null, "payout" bigint null, "created_at" timestamptz not null, "settled_at" timestamptz null, constraint "tournament_picks_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "tournament_picks_stage_idx" on "tournament_picks" ("stage_id");`);
    this.addSql(`create index "tournament_picks_wallet_idx" on "tournament_picks" ("wallet");`);
    this.addSql(
      `alter table "tournament_picks" add constraint "tournament_picks_fixture_entry_unique" unique ("fixture_id", "entry_id");`,
    );
    this.addSql(
      `create table "tournament_matches" ("stage_id" uuid not null, "slot" int not null, "tournament_id" varchar(24) not null, "a_entry_id" uuid null, "a_seed" int null, "b_entry_id" uuid null, "b_seed" int null, "winner_entry_id" uuid null, "status" varchar(8) not null, constraint "tournament_matches_pkey" primary key ("stage_id", "slot"));`,
    );
    this.addSql(
      `create table "tournament_bonds" ("wallet" varchar(42) not null, "asset" varchar(8) not null, "balance" numeric(78,0) not null, "updated_at" timestamptz not null, constraint "tournament_bonds_pkey" primary key ("wallet", "asset"));`,
    );
    this.addSql(
      `create table "tournament_bond_movements" ("id" uuid not null, "wallet" varchar(42) not null, "asset" varchar(8) not null, "kind" varchar(10) not null, "amount" numeric(78,0) not null, "tx_hash" varchar(66) null, "status" varchar(8) not null, "created_at" timestamptz not null, constraint "tournament_bond_movements_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "tournament_bond_movements_wallet_idx" on "tournament_bond_movements" ("wallet");`);
    this.addSql(
      `alter table "tournament_bond_movements" add constraint "tournament_bond_movements_tx_unique" unique ("tx_hash");`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'tournament_bond_movements',
      'tournament_bonds',
      'tournament_matches',
      'tournament_picks',
      'tournament_stage_entries',
      'tournament_deposits',
      'tournament_entries',
      'tournament_fixtures',
      'tournament_stages',
      'tournaments',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
