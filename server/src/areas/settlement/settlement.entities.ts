import { EntitySchema } from '@mikro-orm/core';

/** A participant's objection to a market's resolution; one per (duel, participant). */
export interface DuelContestRow {
  id: string;
  duelId: string;
  userAddress: string;
  userId: string | null;
  reason: string;
  proposedOptionIndex: number | null;
  createdAt: Date;
}

export const DuelContestEntity = new EntitySchema<DuelContestRow>({
  name: 'DuelContest',
  tableName: 'duel_contests',
  uniques: [{ name: 'duel_contests_duel_user_unique', properties: ['duelId', 'userAddress'] }],
  indexes: [{ name: 'duel_contests_created_at_idx', properties: ['createdAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    duelId: { type: 'string', length: 66 },
    userAddress: { type: 'string', length: 42 },
    userId: { type: 'uuid', nullable: true },
    reason: { type: 'text' },
    proposedOptionIndex: { type: 'smallint', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

export type DistributionKind = 'payout' | 'refund';
export type DistributionStatus = 'queued' | 'submitted' | 'paid' | 'failed';

/**
 * The ledger of payouts and refunds: one row per (duel, holder, kind), so a payment is recorded
 * once however often its job runs. `generation` names the job that currently owns the row.
 */
export interface DuelDistributionRow {
  id: string;
  duelId: string;
  holder: string;
  kind: DistributionKind;
  isCreator: boolean;
  status: DistributionStatus;
  amount: string | null;
  txHash: string | null;
  generation: number;
  attempts: number;
  lastError: string | null;
  batchId: string | null;
  enqueuedAt: Date | null;
  paidAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const DuelDistributionEntity = new EntitySchema<DuelDistributionRow>({
  name: 'DuelDistribution',
  tableName: 'duel_distributions',
  uniques: [{ name: 'duel_distributions_duel_holder_kind_unique', properties: ['duelId', 'holder', 'kind'] }],
  indexes: [{ name: 'duel_distributions_status_idx', properties: ['status', 'updatedAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    duelId: { type: 'string', length: 66 },
    holder: { type: 'string', length: 42 },
    kind: { type: 'string', length: 8 },
    isCreator: { type: 'boolean' },
    status: { type: 'string', length: 10 },
    amount: { type: 'decimal', columnType: 'numeric(78,0)', nullable: true },
    txHash: { type: 'string', length: 66, nullable: true },
    generation: { type: 'integer', default: 0 },
    attempts: { type: 'integer', default: 0 },
    lastError: { type: 'text', nullable: true },
    batchId: { type: 'uuid', nullable: true },
    enqueuedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    paidAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** Why and how a market was cancelled through the admin surface. */
export interface DuelCancellationRow {
  duelId: string;
  source: 'discard' | 'bootstrap_threshold' | 'unresolved';
  reason: string;
  adminId: string | null;
  batchId: string | null;
  txHash: string | null;
  requestedAt: Date;
  refundsDispatchedAt: Date | null;
}

export const DuelCancellationEntity = new EntitySchema<DuelCancellationRow>({
  name: 'DuelCancellation',
  tableName: 'duel_cancellations',
  properties: {
    duelId: { type: 'string', length: 66, primary: true },
    source: { type: 'string', length: 24 },
    reason: { type: 'text' },
    adminId: { type: 'uuid', nullable: true },
    batchId: { type: 'uuid', nullable: true },
    txHash: { type: 'string', length: 66, nullable: true },
    requestedAt: { type: 'Date', columnType: 'timestamptz' },
    refundsDispatchedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/** One admin request that started work on several markets (audit trail). */
export interface SettlementBatchRow {
  id: string;
  kind: 'discard' | 'cancel_expired' | 'auto_distribute';
  adminId: string | null;
  duelIds: string[];
  reason: string | null;
  createdAt: Date;
}

export const SettlementBatchEntity = new EntitySchema<SettlementBatchRow>({
  name: 'SettlementBatch',
  tableName: 'settlement_batches',
  properties: {
    id: { type: 'uuid', primary: true },
    kind: { type: 'string', length: 24 },
    adminId: { type: 'uuid', nullable: true },
    duelIds: { type: 'string[]', columnType: 'text[]' },
    reason: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** The platform's market timings as changed at run time (one row, id 1); absent → configured defaults. */
export interface MarketSettingsRow {
  id: number;
  contestPeriodSeconds: number;
  publicLeadSeconds: number;
  privateLeadSeconds: number;
  resolutionGraceSeconds: number;
  updatedAt: Date;
  updatedBy: string | null;
}

export const MarketSettingsEntity = new EntitySchema<MarketSettingsRow>({
  name: 'MarketSettings',
  tableName: 'market_settings',
  properties: {
    id: { type: 'smallint', primary: true, autoincrement: false },
    contestPeriodSeconds: { type: 'integer' },
    publicLeadSeconds: { type: 'integer' },
    privateLeadSeconds: { type: 'integer' },
    resolutionGraceSeconds: { type: 'integer' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
    updatedBy: { type: 'string', length: 320, nullable: true },
  },
});

/** The settlement area's tables, for the ORM the wiring builds (server/src/entities.ts). */
export const settlementEntities = [
  DuelContestEntity,
  DuelDistributionEntity,
  DuelCancellationEntity,
  SettlementBatchEntity,
  MarketSettingsEntity,
] as const;
