import { EntitySchema } from '@mikro-orm/core';
import type { PackStatus } from '@duelkit/contract';

/**
 * A pack's own state. The pack is also a `parent_markets` row (same id, `group_kind = 'pack'`)
 * that holds its title, category and creator; its markets are that parent's child duels.
 */
export interface PackRow {
  id: string;
  builderAppId: string;
  status: PackStatus;
  createdBy: 'creator' | 'admin';
  creatorUserId: string | null;
  collateral: 'usdc' | 'credits';
  entryFee: string;
  feeBps: number;
  lockAt: Date;
  poolId: string;
  /** Confirmed entry fees at settlement, base units. */
  poolTotal: string | null;
  /** Fee plus rounding dust released to the treasury at settlement, base units. */
  feeAmount: string | null;
  feeTxHash: string | null;
  payoutRoot: string | null;
  cancelReason: string | null;
  createdAt: Date;
  publishedAt: Date | null;
  lockedAt: Date | null;
  resolvingAt: Date | null;
  settledAt: Date | null;
  claimedAt: Date | null;
  cancelledAt: Date | null;
  refundsClaimedAt: Date | null;
}

export const PackEntity = new EntitySchema<PackRow>({
  name: 'Pack',
  tableName: 'packs',
  indexes: [{ name: 'packs_status_lock_at_idx', properties: ['status', 'lockAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    builderAppId: { type: 'uuid' },
    status: { type: 'string', length: 10 },
    createdBy: { type: 'string', length: 8 },
    creatorUserId: { type: 'uuid', nullable: true },
    collateral: { type: 'string', length: 8 },
    entryFee: { type: 'decimal', columnType: 'numeric(78,0)' },
    feeBps: { type: 'integer' },
    lockAt: { type: 'Date', columnType: 'timestamptz' },
    poolId: { type: 'string', length: 66 },
    poolTotal: { type: 'decimal', columnType: 'numeric(78,0)', nullable: true },
    feeAmount: { type: 'decimal', columnType: 'numeric(78,0)', nullable: true },
    feeTxHash: { type: 'string', length: 66, nullable: true },
    payoutRoot: { type: 'string', length: 66, nullable: true },
    cancelReason: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    publishedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    lockedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    resolvingAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    settledAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    claimedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    cancelledAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    refundsClaimedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/** A market of a pack (a child duel of its parent), with the pack's own void. */
export interface PackMarketRow {
  packId: string;
  duelId: string;
  position: number;
  addedAt: Date;
  resolveTxHash: string | null;
  voidedAt: Date | null;
  voidReason: string | null;
  voidTxHash: string | null;
}

export const PackMarketEntity = new EntitySchema<PackMarketRow>({
  name: 'PackMarket',
  tableName: 'pack_markets',
  uniques: [{ name: 'pack_markets_duel_unique', properties: ['duelId'] }],
  properties: {
    packId: { type: 'uuid', primary: true },
    duelId: { type: 'string', length: 66, primary: true },
    position: { type: 'integer' },
    addedAt: { type: 'Date', columnType: 'timestamptz' },
    resolveTxHash: { type: 'string', length: 66, nullable: true },
    voidedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    voidReason: { type: 'text', nullable: true },
    voidTxHash: { type: 'string', length: 66, nullable: true },
  },
});

export type EntryStatus = 'pending' | 'confirmed' | 'failed';

/**
 * One user's entry: one per (pack, user), pending until its deposit is mined and verified. The
 * settlement writes its points, rank and payout.
 */
export interface PackEntryRow {
  id: string;
  packId: string;
  userId: string;
  account: string;
  amount: string;
  status: EntryStatus;
  /** Deposit attempts: a failed entry may be entered again, under a new write key. */
  attempt: number;
  txHash: string | null;
  failureReason: string | null;
  createdAt: Date;
  confirmedAt: Date | null;
  points: number | null;
  correctPicks: number | null;
  rank: number | null;
  payout: string | null;
}

export const PackEntryEntity = new EntitySchema<PackEntryRow>({
  name: 'PackEntry',
  tableName: 'pack_entries',
  uniques: [{ name: 'pack_entries_pack_user_unique', properties: ['packId', 'userId'] }],
  indexes: [{ name: 'pack_entries_status_idx', properties: ['status'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    packId: { type: 'uuid' },
    userId: { type: 'uuid' },
    account: { type: 'string', length: 42 },
    amount: { type: 'decimal', columnType: 'numeric(78,0)' },
    status: { type: 'string', length: 10 },
    attempt: { type: 'integer', default: 1 },
    txHash: { type: 'string', length: 66, nullable: true },
    failureReason: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    confirmedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    points: { type: 'integer', nullable: true },
    correctPicks: { type: 'integer', nullable: true },
    rank: { type: 'integer', nullable: true },
    payout: { type: 'decimal', columnType: 'numeric(78,0)', nullable: true },
  },
});

/** A user's pick in one market of a pack, with the option's price when it was made. */
export interface PackPickRow {
  packId: string;
  userId: string;
  duelId: string;
  optionIndex: number;
  /** Price of the option at pick time, scaled by 1e18. */
  price: string;
  pointsIfCorrect: number;
  pickedAt: Date;
}

export const PackPickEntity = new EntitySchema<PackPickRow>({
  name: 'PackPick',
  tableName: 'pack_picks',
  properties: {
    packId: { type: 'uuid', primary: true },
    userId: { type: 'uuid', primary: true },
    duelId: { type: 'string', length: 66, primary: true },
    optionIndex: { type: 'smallint' },
    price: { type: 'decimal', columnType: 'numeric(78,0)' },
    pointsIfCorrect: { type: 'integer' },
    pickedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

export type ClaimRunStatus = 'queued' | 'running' | 'done' | 'failed';

/** The latest auto-claim run of a pack's payout or refund distribution, with its progress. */
export interface PackClaimRunRow {
  packId: string;
  kind: 'payout' | 'refund';
  generation: number;
  status: ClaimRunStatus;
  sent: number;
  skipped: number;
  failed: number;
  lastError: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  updatedAt: Date;
}

export const PackClaimRunEntity = new EntitySchema<PackClaimRunRow>({
  name: 'PackClaimRun',
  tableName: 'pack_claim_runs',
  properties: {
    packId: { type: 'uuid', primary: true },
    kind: { type: 'string', length: 8, primary: true },
    generation: { type: 'integer' },
    status: { type: 'string', length: 8 },
    sent: { type: 'integer', default: 0 },
    skipped: { type: 'integer', default: 0 },
    failed: { type: 'integer', default: 0 },
    lastError: { type: 'text', nullable: true },
    startedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    finishedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
