import { Migration } from '@mikro-orm/migrations';

/**
 * Racing tournaments (F1 grid predictor): a tournament row with `game_type = 'F1_GRID_PREDICTOR'`
 * plus its season, the entrants' scoring periods (re-entries), predictions, side bets, the settled
 * events with their classification, event scores and the Elo history (one row per entrant and event).
 */
export class Migration20261128010000Racing extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "racing_tournaments" ("tournament_id" varchar(24) not null, "season_id" int not null, "season_name" varchar(120) not null, "completed_at" timestamptz null, "paid_at" timestamptz null, constraint "racing_tournaments_pkey" primary key ("tournament_id"));`,
    );
    this.addSql(
      `create table "racing_periods" ("tournament_id" varchar(24) not null, "wallet" varchar(42) not null, "period_start" timestamptz not null, "reentries" int not null default 0, "last_deposit_tx_hash" varchar(66) not null, constraint "racing_periods_pkey" primary key ("tournament_id", "wallet"));`,
    );
    this.addSql(
      `create table "racing_predictions" ("id" uuid not null, "tournament_id" varchar(24) not null, "event_id" int not null, "round_id" int not null, "wallet" varchar(42) not null, "driver_ids" jsonb not null, "locked_early_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "racing_predictions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create unique index "racing_predictions_one_idx" on "racing_predictions" ("tournament_id", "event_id", lower("wallet"));`,
    );
    this.addSql(
      `create table "racing_side_bets" ("id" uuid not null, "tournament_id" varchar(24) not null, "round_id" int not null, "wallet" varchar(42) not null, "prop" varchar(16) not null, "value" varchar(16) not null, "points" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "racing_side_bets_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create unique index "racing_side_bets_one_idx" on "racing_side_bets" ("tournament_id", "round_id", lower("wallet"), "prop");`,
    );
    this.addSql(
      `create table "racing_settled_events" ("tournament_id" varchar(24) not null, "event_id" int not null, "round_id" int not null, "seq" int not null, "state" varchar(12) not null, "classification" jsonb null, "settled_at" timestamptz not null, constraint "racing_settled_events_pkey" primary key ("tournament_id", "event_id"));`,
    );
    this.addSql(
      `create table "racing_event_scores" ("tournament_id" varchar(24) not null, "event_id" int not null, "round_id" int not null, "wallet" varchar(42) not null, "points" int not null, "exact" int not null, "in_top_n" int not null, "podium" int not null, "bonus" int not null, constraint "racing_event_scores_pkey" primary key ("tournament_id", "event_id", "wallet"));`,
    );
    this.addSql(
      `create table "racing_elo" ("tournament_id" varchar(24) not null, "event_id" int not null, "seq" int not null, "wallet" varchar(42) not null, "rating_before" float8 not null, "rating_after" float8 not null, constraint "racing_elo_pkey" primary key ("tournament_id", "event_id", "wallet"));`,
    );
    this.addSql(`create index "racing_elo_seq_idx" on "racing_elo" ("tournament_id", "seq");`);
  }

  override async down(): Promise<void> {
    for (const t of [
      'racing_elo',
      'racing_event_scores',
      'racing_settled_events',
      'racing_side_bets',
      'racing_predictions',
      'racing_periods',
      'racing_tournaments',
    ]) {
      this.addSql(`drop table if exists "${t}";`);
    }
  }
}
