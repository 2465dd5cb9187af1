import { EntitySchema } from '@mikro-orm/core';

/*
 * Closing a tournament (docs/tournaments.md, "Disputes", "Settlement", "Payouts", "Automation"):
 * disputes of market results, stage settlements (one row per stage, ever), admin overrides of
 * dispute windows, the audit of admin actions and the automation's runs. Payout tables live in
 * the shared Merkle distribution tables.
 */

const timestamptz = { type: 'Date', columnType: 'timestamptz' } as const;

export const TournamentDisputeEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentDispute',
  tableName: 'tournament_disputes',
  uniques: [{ name: 'tournament_disputes_fixture_entry_unique', properties: ['fixtureId', 'entryId'] }],
  indexes: [
    { name: 'tournament_disputes_tournament_idx', properties: ['tournamentId', 'status'] },
    { name: 'tournament_disputes_status_idx', properties: ['status', 'expiresAt'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    tournamentId: { type: 'string', length: 24 },
    stageId: { type: 'uuid' },
    fixtureId: { type: 'uuid' },
    entryId: { type: 'uuid' },
    wallet: { type: 'string', length: 42 },
    reason: { type: 'text' },
    proposedResult: { type: 'string', length: 8, nullable: true },
    status: { type: 'string', length: 10 },
    originalResult: { type: 'string', length: 8 },
    correctedResult: { type: 'string', length: 8, nullable: true },
    resolutionNote: { type: 'text', nullable: true },
    resolvedBy: { type: 'string', length: 120, nullable: true },
    createdAt: timestamptz,
    expiresAt: timestamptz,
    resolvedAt: { ...timestamptz, nullable: true },
  },
});

/** A stage's settlement: its primary key makes a stage settle once, whoever runs it. */
export const TournamentStageSettlementEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentStageSettlement',
  tableName: 'tournament_stage_settlements',
  indexes: [{ name: 'tournament_stage_settlements_tournament_idx', properties: ['tournamentId'] }],
  properties: {
    stageId: { type: 'uuid', primary: true },
    tournamentId: { type: 'string', length: 24 },
    mode: { type: 'string', length: 8 },
    actor: { type: 'string', length: 120 },
    reason: { type: 'text', nullable: true },
    blockers: { type: 'json', columnType: 'jsonb' },
    settledAt: timestamptz,
  },
});

/** An admin's end of a dispute window: a stage's (scope = its id) or the final one (scope = 'final'). */
export const TournamentWindowOverrideEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentWindowOverride',
  tableName: 'tournament_window_overrides',
  properties: {
    tournamentId: { type: 'string', length: 24, primary: true },
    scope: { type: 'string', length: 40, primary: true },
    endsAt: timestamptz,
    setBy: { type: 'string', length: 120 },
    setAt: timestamptz,
  },
});

/** Every admin action that steers a tournament: who, what, why. */
export const TournamentAdminActionEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentAdminAction',
  tableName: 'tournament_admin_actions',
  indexes: [{ name: 'tournament_admin_actions_tournament_idx', properties: ['tournamentId', 'createdAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    tournamentId: { type: 'string', length: 24 },
    stageId: { type: 'uuid', nullable: true },
    action: { type: 'string', length: 32 },
    actor: { type: 'string', length: 120 },
    reason: { type: 'text', nullable: true },
    details: { type: 'json', columnType: 'jsonb' },
    createdAt: timestamptz,
  },
});

/** One run of the automation (all steps, or one), with what each step did. */
export const TournamentAutomationRunEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentAutomationRun',
  tableName: 'tournament_automation_runs',
  indexes: [{ name: 'tournament_automation_runs_started_idx', properties: ['startedAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    trigger: { type: 'string', length: 16 },
    steps: { type: 'json', columnType: 'jsonb' },
    startedAt: timestamptz,
    finishedAt: { ...timestamptz, nullable: true },
  },
});

export const tournamentCloseEntities = [
  TournamentDisputeEntity,
  TournamentStageSettlementEntity,
  TournamentWindowOverrideEntity,
  TournamentAdminActionEntity,
  TournamentAutomationRunEntity,
];
