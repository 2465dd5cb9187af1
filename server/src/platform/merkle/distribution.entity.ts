import { EntitySchema } from '@mikro-orm/core';

/** A payout or refund table published (or to be published) as a Merkle root on a prize vault. */
export interface MerkleDistributionRow {
  id: string;
  /** The vault pool, 0x + 64 hex. */
  poolId: string;
  kind: 'payout' | 'refund';
  collateral: 'usdc' | 'credits';
  root: string;
  /** Sum of all leaves, base units. */
  total: string;
  leafCount: number;
  /** `built`: stored, not on chain yet; `published`: the root is set on the vault. */
  status: 'built' | 'published';
  publishTxHash: string | null;
  createdAt: Date;
  publishedAt: Date | null;
}

export const MerkleDistributionEntity = new EntitySchema<MerkleDistributionRow>({
  name: 'MerkleDistribution',
  tableName: 'merkle_distributions',
  uniques: [{ name: 'merkle_distributions_pool_kind_unique', properties: ['poolId', 'kind'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    poolId: { type: 'string', length: 66 },
    kind: { type: 'string', length: 8 },
    collateral: { type: 'string', length: 8 },
    root: { type: 'string', length: 66 },
    total: { type: 'decimal', columnType: 'numeric(78,0)' },
    leafCount: { type: 'integer' },
    status: { type: 'string', length: 10 },
    publishTxHash: { type: 'string', length: 66, nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    publishedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/** One account's leaf of a distribution, with its proof and whether it was claimed on chain. */
export interface MerkleLeafRow {
  distributionId: string;
  account: string;
  amount: string;
  proof: string[];
  claimTxHash: string | null;
  claimedAt: Date | null;
}

export const MerkleLeafEntity = new EntitySchema<MerkleLeafRow>({
  name: 'MerkleLeaf',
  tableName: 'merkle_leaves',
  indexes: [{ name: 'merkle_leaves_account_idx', properties: ['account'] }],
  properties: {
    distributionId: { type: 'uuid', primary: true },
    account: { type: 'string', length: 42, primary: true },
    amount: { type: 'decimal', columnType: 'numeric(78,0)' },
    proof: { type: 'string[]', columnType: 'text[]' },
    claimTxHash: { type: 'string', length: 66, nullable: true },
    claimedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
