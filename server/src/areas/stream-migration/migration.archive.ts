import { MIGRATION_FORMAT_VERSION } from '@duelkit/contract';

/** The archive's manifest (`manifest.json` beside one `<table>.ndjson` per table). */
export interface Manifest {
  readonly format: 'duelkit-stream-migration';
  readonly version: number;
  readonly createdAt: string;
  readonly tables: readonly {
    readonly table: string;
    readonly file: string;
    readonly rows: number;
    readonly sha256: string;
  }[];
}

/**
 * The tournaments host's state, parents before children (the load order), and the references an
 * import checks before it commits: `[child column, parent table, parent column]`.
 */
export const MIGRATION_TABLES: readonly {
  readonly table: string;
  readonly refs: readonly [string, string, string][];
}[] = [
  { table: 'tournaments', refs: [] },
  { table: 'tournament_stages', refs: [['tournament_id', 'tournaments', 'id']] },
  {
    table: 'tournament_fixtures',
    refs: [
      ['tournament_id', 'tournaments', 'id'],
      ['stage_id', 'tournament_stages', 'id'],
    ],
  },
  { table: 'tournament_entries', refs: [['tournament_id', 'tournaments', 'id']] },
  { table: 'tournament_deposits', refs: [['tournament_id', 'tournaments', 'id']] },
  {
    table: 'tournament_stage_entries',
    refs: [
      ['stage_id', 'tournament_stages', 'id'],
      ['entry_id', 'tournament_entries', 'id'],
    ],
  },
  {
    table: 'tournament_picks',
    refs: [
      ['fixture_id', 'tournament_fixtures', 'id'],
      ['entry_id', 'tournament_entries', 'id'],
      ['stage_id', 'tournament_stages', 'id'],
    ],
  },
  { table: 'tournament_matches', refs: [['stage_id', 'tournament_stages', 'id']] },
  { table: 'tournament_bonds', refs: [] },
  { table: 'tournament_bond_movements', refs: [] },
  { table: 'tournament_cancel_requests', refs: [['tournament_id', 'tournaments', 'id']] },
  { table: 'tournament_disputes', refs: [['tournament_id', 'tournaments', 'id']] },
  { table: 'tournament_stage_settlements', refs: [] },
  { table: 'tournament_window_overrides', refs: [] },
  { table: 'tournament_admin_actions', refs: [] },
  { table: 'tournament_automation_runs', refs: [] },
];

export const MANIFEST_FORMAT = 'duelkit-stream-migration';
export { MIGRATION_FORMAT_VERSION };
