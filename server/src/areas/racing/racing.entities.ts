import { EntitySchema } from '@mikro-orm/core';
import type {
  EloRow,
  EventScoreRow,
  PeriodRow,
  PredictionRow,
  RacingTournamentRow,
  SettledEventRow,
  SideBetRow,
} from './racing.repository.js';

/*
 * The racing area's tables. The repository (racing.repository.ts) reads and writes them with SQL;
 * these schemas exist so that the migration check compares them with what the migrations create.
 */

const RacingTournamentEntity = new EntitySchema<RacingTournamentRow & { paidAt: Date | null }>({
  name: 'RacingTournament',
  tableName: 'racing_tournaments',
  properties: {
    tournamentId: { type: 'string', length: 24, primary: true },
    seasonId: { type: 'integer' },
    seasonName: { type: 'string', length: 120 },
    completedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    paidAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

const RacingPeriodEntity = new EntitySchema<PeriodRow>({
  name: 'RacingPeriod',
  tableName: 'racing_periods',
  properties: {
    tournamentId: { type: 'string', length: 24, primary: true },
    wallet: { type: 'string', length: 42, primary: true },
    periodStart: { type: 'Date', columnType: 'timestamptz' },
    reentries: { type: 'integer', default: 0 },
    lastDepositTxHash: { type: 'string', length: 66 },
  },
});

const RacingPredictionEntity = new EntitySchema<PredictionRow>({
  name: 'RacingPrediction',
  tableName: 'racing_predictions',
  indexes: [
    {
      name: 'racing_predictions_one_idx',
      expression:
        'create unique index "racing_predictions_one_idx" on "racing_predictions" ("tournament_id", "event_id", lower("wallet"))',
    },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    tournamentId: { type: 'string', length: 24 },
    eventId: { type: 'integer' },
    roundId: { type: 'integer' },
    wallet: { type: 'string', length: 42 },
    driverIds: { type: 'json' },
    lockedEarlyAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

const RacingSideBetEntity = new EntitySchema<SideBetRow>({
  name: 'RacingSideBet',
  tableName: 'racing_side_bets',
  indexes: [
    {
      name: 'racing_side_bets_one_idx',
      expression:
        'create unique index "racing_side_bets_one_idx" on "racing_side_bets" ("tournament_id", "round_id", lower("wallet"), "prop")',
    },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    tournamentId: { type: 'string', length: 24 },
    roundId: { type: 'integer' },
    wallet: { type: 'string', length: 42 },
    prop: { type: 'string', length: 16 },
    value: { type: 'string', length: 16 },
    points: { type: 'integer', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

const RacingSettledEventEntity = new EntitySchema<SettledEventRow>({
  name: 'RacingSettledEvent',
  tableName: 'racing_settled_events',
  properties: {
    tournamentId: { type: 'string', length: 24, primary: true },
    eventId: { type: 'integer', primary: true },
    roundId: { type: 'integer' },
    seq: { type: 'integer' },
    state: { type: 'string', length: 12 },
    classification: { type: 'json', nullable: true },
    settledAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

const RacingEventScoreEntity = new EntitySchema<EventScoreRow & { tournamentId: string }>({
  name: 'RacingEventScore',
  tableName: 'racing_event_scores',
  properties: {
    tournamentId: { type: 'string', length: 24, primary: true },
    eventId: { type: 'integer', primary: true },
    roundId: { type: 'integer' },
    wallet: { type: 'string', length: 42, primary: true },
    points: { type: 'integer' },
    exact: { type: 'integer' },
    inTopN: { type: 'integer', fieldName: 'in_top_n' },
    podium: { type: 'integer' },
    bonus: { type: 'integer' },
  },
});

const RacingEloEntity = new EntitySchema<EloRow & { tournamentId: string }>({
  name: 'RacingElo',
  tableName: 'racing_elo',
  indexes: [{ name: 'racing_elo_seq_idx', properties: ['tournamentId', 'seq'] }],
  properties: {
    tournamentId: { type: 'string', length: 24, primary: true },
    eventId: { type: 'integer', primary: true },
    seq: { type: 'integer' },
    wallet: { type: 'string', length: 42, primary: true },
    ratingBefore: { type: 'double', columnType: 'float8' },
    ratingAfter: { type: 'double', columnType: 'float8' },
  },
});

/** The racing area's tables, for the ORM the wiring builds (server/src/entities.ts). */
export const racingEntities = [
  RacingTournamentEntity,
  RacingPeriodEntity,
  RacingPredictionEntity,
  RacingSideBetEntity,
  RacingSettledEventEntity,
  RacingEventScoreEntity,
  RacingEloEntity,
] as const;
