import { EntitySchema } from '@mikro-orm/core';

/** Why a snapshot was taken: after a trade moved the price, or by the periodic job. */
export type PriceSnapshotSource = 'trade' | 'schedule';

/**
 * The prices of one duel at one moment, the raw material of price charts (docs/price-history.md).
 * `id` grows with insertion, so it orders snapshots sharing a timestamp (trades of one block).
 */
export interface PriceSnapshotRow {
  id: string;
  duelId: string;
  /** Marginal price per option, 1e18-scaled base-unit decimal strings. */
  optionPrices: string[];
  /** Price of option 0 in basis points (0..10000). */
  yesBps: number;
  source: PriceSnapshotSource;
  /** Start of the schedule bucket a `schedule` row belongs to; null for `trade` rows. */
  bucketStart: Date | null;
  createdAt: Date;
}

export const PriceSnapshotEntity = new EntitySchema<PriceSnapshotRow>({
  name: 'PriceSnapshot',
  tableName: 'price_snapshots',
  // Trade rows have no bucket (NULLs never collide), so the constraint only limits schedule rows.
  uniques: [{ name: 'price_snapshots_duel_bucket_unique', properties: ['duelId', 'bucketStart'] }],
  indexes: [{ name: 'price_snapshots_duel_created_idx', properties: ['duelId', 'createdAt'] }],
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true },
    duelId: { type: 'string', length: 66 },
    optionPrices: { type: 'string[]', columnType: 'text[]' },
    yesBps: { type: 'integer' },
    source: { type: 'string', length: 8 },
    bucketStart: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
