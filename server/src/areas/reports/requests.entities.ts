import { EntitySchema } from '@mikro-orm/core';

const timestamptz = { type: 'Date', columnType: 'timestamptz' } as const;

/** A creator, league or token request of a user (documented extension; docs/operations.md, "Requests"). */
export const PlatformRequestEntity = new EntitySchema<Record<string, unknown>>({
  name: 'PlatformRequest',
  tableName: 'platform_requests',
  indexes: [
    { name: 'platform_requests_kind_created_idx', properties: ['kind', 'createdAt', 'id'] },
    { name: 'platform_requests_user_idx', properties: ['userId'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    kind: { type: 'string', length: 10 },
    userId: { type: 'uuid' },
    builderAppId: { type: 'uuid' },
    /** What the request is about: '' (creator), the league id, or the token symbol; one pending per subject. */
    subject: { type: 'string', length: 100 },
    status: { type: 'string', length: 10 },
    message: { type: 'text', nullable: true },
    leagueId: { type: 'string', length: 100, nullable: true },
    tokenName: { type: 'string', length: 60, nullable: true },
    tokenSymbol: { type: 'string', length: 11, nullable: true },
    decidedBy: { type: 'string', length: 320, nullable: true },
    decidedAt: { ...timestamptz, nullable: true },
    decisionReason: { type: 'string', length: 500, nullable: true },
    createdAt: timestamptz,
  },
});

/** A user admitted to a league by an approved league request. */
export const LeagueMembershipEntity = new EntitySchema<Record<string, unknown>>({
  name: 'LeagueMembership',
  tableName: 'league_memberships',
  indexes: [{ name: 'league_memberships_joined_idx', properties: ['joinedAt'] }],
  properties: {
    leagueId: { type: 'string', length: 100, primary: true },
    userId: { type: 'uuid', primary: true },
    requestId: { type: 'uuid' },
    joinedAt: timestamptz,
  },
});

/** A token launched from an approved token request: once per request. */
export const LaunchedTokenEntity = new EntitySchema<Record<string, unknown>>({
  name: 'LaunchedToken',
  tableName: 'launched_tokens',
  uniques: [{ name: 'launched_tokens_request_unique', properties: ['requestId'] }],
  indexes: [{ name: 'launched_tokens_launched_idx', properties: ['launchedAt', 'id'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    requestId: { type: 'uuid' },
    userId: { type: 'uuid' },
    name: { type: 'string', length: 60 },
    symbol: { type: 'string', length: 11 },
    tokenAddress: { type: 'string', length: 42, nullable: true },
    launchedBy: { type: 'string', length: 320 },
    launchedAt: timestamptz,
  },
});

/** A trader's profit and loss at the end of a UTC day: one row per holder and day (the daily job's key). */
export const PnlSnapshotEntity = new EntitySchema<Record<string, unknown>>({
  name: 'PnlSnapshot',
  tableName: 'pnl_snapshots',
  indexes: [{ name: 'pnl_snapshots_at_idx', properties: ['snapshotAt', 'holder'] }],
  properties: {
    holder: { type: 'string', length: 42, primary: true },
    day: { type: 'date', columnType: 'date', primary: true },
    invested: { type: 'decimal', columnType: 'numeric(78,0)' },
    returned: { type: 'decimal', columnType: 'numeric(78,0)' },
    openCostBasis: { type: 'decimal', columnType: 'numeric(78,0)' },
    trades: { type: 'integer' },
    snapshotAt: timestamptz,
  },
});

/** The records the reports read that no other area writes. */
export const reportsEntities: readonly EntitySchema[] = [
  PlatformRequestEntity,
  LeagueMembershipEntity,
  LaunchedTokenEntity,
  PnlSnapshotEntity,
];
