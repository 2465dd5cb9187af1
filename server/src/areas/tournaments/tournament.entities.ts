import { EntitySchema } from '@mikro-orm/core';

/*
 * The tournaments data model (docs/tournaments.md, "Data model"). Facts are stored as they
 * happen — tournaments and stages at creation, fixtures with their odds and results, entries,
 * deposits, picks — and what follows from them (chip stacks, ranks, groups, matches, placements)
 * is written by the recompute after every fact that changes it, from scratch through
 * tournament-format.ts. Chips are whole numbers (bigint columns read as JS numbers); money is
 * numeric(78,0) base units.
 */

const timestamptz = { type: 'Date', columnType: 'timestamptz' } as const;
const amount = { type: 'decimal', columnType: 'numeric(78,0)' } as const;
const chips = { type: 'bigint', columnType: 'bigint' } as const;

export const TournamentEntity = new EntitySchema<Record<string, unknown>>({
  name: 'Tournament',
  tableName: 'tournaments',
  indexes: [
    { name: 'tournaments_status_created_idx', properties: ['status', 'createdAt'] },
    { name: 'tournaments_owner_idx', properties: ['ownerWallet'] },
  ],
  uniques: [{ name: 'tournaments_creator_deposit_unique', properties: ['creatorDepositTxHash'] }],
  properties: {
    id: { type: 'string', length: 24, primary: true },
    builderAppId: { type: 'uuid', nullable: true },
    name: { type: 'string', length: 120 },
    description: { type: 'text', nullable: true },
    sport: { type: 'string', length: 40 },
    league: { type: 'string', length: 80, nullable: true },
    category: { type: 'string', length: 50, nullable: true },
    gameType: { type: 'string', length: 24 },
    format: { type: 'string', length: 24 },
    type: { type: 'string', length: 16 },
    status: { type: 'string', length: 12 },
    stakeAsset: { type: 'string', length: 8 },
    ownerWallet: { type: 'string', length: 42 },
    ownerUserId: { type: 'uuid', nullable: true },
    totalStages: { type: 'integer' },
    minEntries: { type: 'integer' },
    maxEntrants: { type: 'integer' },
    chipsPerStage: { type: 'integer' },
    groupSize: { type: 'integer' },
    advancePerGroup: { type: 'integer' },
    fixturesPerStage: { type: 'integer' },
    leagueId: { type: 'integer' },
    feeBps: { type: 'integer' },
    payoutBps: { type: 'json', columnType: 'jsonb' },
    creatorDepositTxHash: { type: 'string', length: 66 },
    poolId: { type: 'string', length: 66 },
    startsAt: timestamptz,
    endsAt: timestamptz,
    activatedAt: { ...timestamptz, nullable: true },
    completedAt: { ...timestamptz, nullable: true },
    championWallet: { type: 'string', length: 42, nullable: true },
    cancelledAt: { ...timestamptz, nullable: true },
    cancelReason: { type: 'string', length: 500, nullable: true },
    cancelledBy: { type: 'string', length: 120, nullable: true },
    discardedAt: { ...timestamptz, nullable: true },
    createdAt: timestamptz,
    updatedAt: timestamptz,
  },
});

export const TournamentStageEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentStage',
  tableName: 'tournament_stages',
  uniques: [{ name: 'tournament_stages_index_unique', properties: ['tournamentId', 'stageIndex'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    tournamentId: { type: 'string', length: 24 },
    stageIndex: { type: 'integer' },
    stageName: { type: 'string', length: 40 },
    kind: { type: 'string', length: 10 },
    buyin: amount,
    multiplier: { type: 'integer' },
    isFinal: { type: 'boolean' },
    startChips: chips,
    windowStart: timestamptz,
    windowEnd: timestamptz,
    startsAt: timestamptz,
    lockAt: timestamptz,
    endsAt: timestamptz,
    completedAt: { ...timestamptz, nullable: true },
    lockedAt: { ...timestamptz, nullable: true },
  },
});

export const TournamentFixtureEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentFixture',
  tableName: 'tournament_fixtures',
  uniques: [{ name: 'tournament_fixtures_stage_provider_unique', properties: ['stageId', 'providerFixtureId'] }],
  indexes: [
    { name: 'tournament_fixtures_tournament_idx', properties: ['tournamentId'] },
    { name: 'tournament_fixtures_ends_idx', properties: ['endsAt'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    tournamentId: { type: 'string', length: 24 },
    stageId: { type: 'uuid' },
    providerFixtureId: { type: 'bigint', columnType: 'bigint' },
    title: { type: 'string', length: 200 },
    homeTeam: { type: 'string', length: 100 },
    awayTeam: { type: 'string', length: 100 },
    startsAt: timestamptz,
    lockAt: timestamptz,
    endsAt: timestamptz,
    expiresAt: timestamptz,
    oddsHome: { type: 'integer' },
    oddsDraw: { type: 'integer' },
    oddsAway: { type: 'integer' },
    result: { type: 'string', length: 8, nullable: true },
    homeScore: { type: 'integer', nullable: true },
    awayScore: { type: 'integer', nullable: true },
    settledAt: { ...timestamptz, nullable: true },
  },
});

export const TournamentEntryEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentEntry',
  tableName: 'tournament_entries',
  uniques: [{ name: 'tournament_entries_wallet_unique', properties: ['tournamentId', 'wallet'] }],
  indexes: [{ name: 'tournament_entries_wallet_idx', properties: ['wallet'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    tournamentId: { type: 'string', length: 24 },
    wallet: { type: 'string', length: 42 },
    userId: { type: 'uuid', nullable: true },
    isCreator: { type: 'boolean' },
    seq: { type: 'integer' },
    depositTxHash: { type: 'string', length: 66 },
    enteredAt: timestamptz,
    placement: { type: 'integer', nullable: true },
    stagesPlayed: { type: 'integer', default: 0 },
    points: { ...chips, default: 0 },
    status: { type: 'string', length: 12, default: 'ALIVE' },
  },
});

/** Every vault deposit used for a tournament: at most once (the transaction hash is the key). */
export const TournamentDepositEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentDeposit',
  tableName: 'tournament_deposits',
  indexes: [{ name: 'tournament_deposits_tournament_idx', properties: ['tournamentId', 'wallet'] }],
  properties: {
    txHash: { type: 'string', length: 66, primary: true },
    tournamentId: { type: 'string', length: 24 },
    stageIndex: { type: 'integer' },
    wallet: { type: 'string', length: 42 },
    amount,
    purpose: { type: 'string', length: 8 },
    createdAt: timestamptz,
    refundTxHash: { type: 'string', length: 66, nullable: true },
    refundedAt: { ...timestamptz, nullable: true },
  },
});

/** A participant of a stage, with its chips (kept up to date by every pick) and derived standing. */
export const TournamentStageEntryEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentStageEntry',
  tableName: 'tournament_stage_entries',
  indexes: [{ name: 'tournament_stage_entries_tournament_idx', properties: ['tournamentId'] }],
  properties: {
    stageId: { type: 'uuid', primary: true },
    entryId: { type: 'uuid', primary: true },
    tournamentId: { type: 'string', length: 24 },
    wallet: { type: 'string', length: 42 },
    startChips: chips,
    available: chips,
    stack: chips,
    rank: { type: 'integer', nullable: true },
    groupLabel: { type: 'string', length: 4, nullable: true },
    groupRank: { type: 'integer', nullable: true },
    status: { type: 'string', length: 12 },
    paidTxHash: { type: 'string', length: 66, nullable: true },
    picks: { type: 'integer', default: 0 },
    wonPicks: { type: 'integer', default: 0 },
  },
});

export const TournamentPickEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentPick',
  tableName: 'tournament_picks',
  uniques: [{ name: 'tournament_picks_fixture_entry_unique', properties: ['fixtureId', 'entryId'] }],
  indexes: [
    { name: 'tournament_picks_stage_idx', properties: ['stageId'] },
    { name: 'tournament_picks_wallet_idx', properties: ['wallet'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    tournamentId: { type: 'string', length: 24 },
    stageId: { type: 'uuid' },
    fixtureId: { type: 'uuid' },
    entryId: { type: 'uuid' },
    wallet: { type: 'string', length: 42 },
    outcome: { type: 'string', length: 4 },
    stake: chips,
    odds: { type: 'integer' },
    status: { type: 'string', length: 6 },
    payout: { ...chips, nullable: true },
    createdAt: timestamptz,
    settledAt: { ...timestamptz, nullable: true },
  },
});

export const TournamentMatchEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentMatch',
  tableName: 'tournament_matches',
  properties: {
    stageId: { type: 'uuid', primary: true },
    slot: { type: 'integer', primary: true },
    tournamentId: { type: 'string', length: 24 },
    aEntryId: { type: 'uuid', nullable: true },
    aSeed: { type: 'integer', nullable: true },
    bEntryId: { type: 'uuid', nullable: true },
    bSeed: { type: 'integer', nullable: true },
    winnerEntryId: { type: 'uuid', nullable: true },
    status: { type: 'string', length: 8 },
  },
});

/** A creator's bond held in the vault: the balance, and every deposit and withdrawal. */
export const TournamentBondEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentBond',
  tableName: 'tournament_bonds',
  properties: {
    wallet: { type: 'string', length: 42, primary: true },
    asset: { type: 'string', length: 8, primary: true },
    balance: amount,
    updatedAt: timestamptz,
  },
});

export const TournamentBondMovementEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentBondMovement',
  tableName: 'tournament_bond_movements',
  uniques: [{ name: 'tournament_bond_movements_tx_unique', properties: ['txHash'] }],
  indexes: [{ name: 'tournament_bond_movements_wallet_idx', properties: ['wallet'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    wallet: { type: 'string', length: 42 },
    asset: { type: 'string', length: 8 },
    kind: { type: 'string', length: 10 },
    amount,
    txHash: { type: 'string', length: 66, nullable: true },
    status: { type: 'string', length: 8 },
    createdAt: timestamptz,
  },
});

/** A creator's or entrant's request that a tournament be cancelled; an admin rejects it or cancels. */
export const TournamentCancelRequestEntity = new EntitySchema<Record<string, unknown>>({
  name: 'TournamentCancelRequest',
  tableName: 'tournament_cancel_requests',
  indexes: [
    { name: 'tournament_cancel_requests_tournament_idx', properties: ['tournamentId'] },
    { name: 'tournament_cancel_requests_status_idx', properties: ['status', 'createdAt'] },
    {
      name: 'tournament_cancel_requests_open_unique',
      expression:
        'create unique index "tournament_cancel_requests_open_unique" on "tournament_cancel_requests" ("tournament_id", "wallet") where "status" = \'OPEN\'',
    },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    tournamentId: { type: 'string', length: 24 },
    /** Lower-case. */
    wallet: { type: 'string', length: 42 },
    role: { type: 'string', length: 8 },
    reason: { type: 'string', length: 500 },
    status: { type: 'string', length: 10 },
    decidedBy: { type: 'string', length: 120, nullable: true },
    decisionReason: { type: 'string', length: 500, nullable: true },
    createdAt: timestamptz,
    decidedAt: { ...timestamptz, nullable: true },
  },
});

export const tournamentEntities = [
  TournamentEntity,
  TournamentStageEntity,
  TournamentFixtureEntity,
  TournamentEntryEntity,
  TournamentDepositEntity,
  TournamentStageEntryEntity,
  TournamentPickEntity,
  TournamentMatchEntity,
  TournamentBondEntity,
  TournamentBondMovementEntity,
  TournamentCancelRequestEntity,
];
