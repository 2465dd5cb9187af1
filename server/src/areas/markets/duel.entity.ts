import { EntitySchema } from '@mikro-orm/core';

/** Market lifecycle; `open` covers bootstrapping (before start) and live trading. */
export type DuelStatus = 'open' | 'pending' | 'pending_contest' | 'settled' | 'cancelled';
/** Whether the chain has confirmed what a write asked for. */
export type ChainState = 'pending' | 'confirmed' | 'failed';

/** Read model of a market ("duel"): written on create, confirmed and updated by the indexer. */
export interface Duel {
  id: string;
  duelId: string;
  builderAppId: string;
  creatorUserId: string | null;
  creatorAddress: string;
  question: string;
  description: string | null;
  category: string;
  tags: string[];
  options: string[];
  duelType: 'PREDICTION' | 'VERSUS';
  collateralStack: 'usdc' | 'credits';
  isPrivate: boolean;
  leagueId: string | null;
  parentMarketId: string | null;
  coverImageUrl: string | null;
  startTime: Date;
  endTime: Date;
  createdAt: Date;
  status: DuelStatus;
  chainState: ChainState;
  txHash: string | null;
  chainError: string | null;
  winningOptionIndex: number | null;
  /** Pool balance per option in base units. */
  poolBalances: string[];
  totalVolume: string;
  uniqueParticipants: number;
  /** Price of option 0 in basis points (0..10000), kept for sorting and charts. */
  yesBps: number;
  extMarketId: string | null;
  extVolume24h: string | null;
  extLive: boolean;
  isCanonical: boolean;
  /** Market-maker fee in basis points, fixed at creation. */
  feeBps: number;
  initialLiquidity: string;
  resolvedAt: Date | null;
  contestEndsAt: Date | null;
}

export const DuelEntity = new EntitySchema<Duel>({
  name: 'Duel',
  tableName: 'duels',
  // Partial indexes serve the public list orderings (private duels are never listed publicly).
  indexes: [
    {
      name: 'duels_public_created_at_idx',
      expression:
        'create index "duels_public_created_at_idx" on "duels" ("created_at" desc, "id" desc) where not "is_private"',
    },
    {
      name: 'duels_public_start_time_idx',
      expression:
        'create index "duels_public_start_time_idx" on "duels" ("start_time" desc, "id" desc) where not "is_private"',
    },
    {
      name: 'duels_public_end_time_idx',
      expression:
        'create index "duels_public_end_time_idx" on "duels" ("end_time" desc, "id" desc) where not "is_private"',
    },
    {
      name: 'duels_public_status_created_at_idx',
      expression:
        'create index "duels_public_status_created_at_idx" on "duels" ("status", "created_at" desc, "id" desc) where not "is_private"',
    },
    {
      name: 'duels_canonical_volume_idx',
      expression:
        'create index "duels_canonical_volume_idx" on "duels" ("ext_volume24h" desc nulls last, "id" desc) where "is_canonical"',
    },
    {
      name: 'duels_league_created_at_idx',
      expression: 'create index "duels_league_created_at_idx" on "duels" ("league_id", "created_at" desc, "id" desc)',
    },
    {
      name: 'duels_creator_address_idx',
      expression: 'create index "duels_creator_address_idx" on "duels" ("creator_address")',
    },
    {
      name: 'duels_pending_chain_idx',
      expression: `create index "duels_pending_chain_idx" on "duels" ("created_at") where "chain_state" = 'pending'`,
    },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    duelId: { type: 'string', length: 66, unique: true },
    builderAppId: { type: 'uuid' },
    creatorUserId: { type: 'uuid', nullable: true },
    creatorAddress: { type: 'string', length: 42 },
    question: { type: 'string', length: 200 },
    description: { type: 'text', nullable: true },
    category: { type: 'string', length: 50 },
    tags: { type: 'string[]', columnType: 'text[]' },
    options: { type: 'string[]', columnType: 'text[]' },
    duelType: { type: 'string', length: 16 },
    collateralStack: { type: 'string', length: 8 },
    isPrivate: { type: 'boolean' },
    leagueId: { type: 'string', length: 100, nullable: true },
    parentMarketId: { type: 'uuid', nullable: true },
    coverImageUrl: { type: 'text', nullable: true },
    startTime: { type: 'Date', columnType: 'timestamptz' },
    endTime: { type: 'Date', columnType: 'timestamptz' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    status: { type: 'string', length: 16 },
    chainState: { type: 'string', length: 10 },
    txHash: { type: 'string', length: 66, nullable: true },
    chainError: { type: 'text', nullable: true },
    winningOptionIndex: { type: 'smallint', nullable: true },
    // Decimal strings; arithmetic on them happens in bigint, never in SQL.
    poolBalances: { type: 'string[]', columnType: 'text[]' },
    totalVolume: { type: 'decimal', columnType: 'numeric(78,0)' },
    uniqueParticipants: { type: 'integer' },
    yesBps: { type: 'integer' },
    extMarketId: { type: 'string', length: 100, nullable: true },
    extVolume24h: { type: 'decimal', columnType: 'numeric(78,0)', nullable: true },
    extLive: { type: 'boolean' },
    isCanonical: { type: 'boolean' },
    feeBps: { type: 'integer', default: 0 },
    initialLiquidity: { type: 'decimal', columnType: 'numeric(78,0)', default: 0 },
    resolvedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    contestEndsAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
