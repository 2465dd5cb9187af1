import { getAddress, type Address, type Hex } from 'viem';
import { DomainError } from '../../errors.js';
import type { MerkleDistributionRow, MerkleLeafRow } from './distribution.entity.js';
import type { DistributionKind, DistributionRepository } from './distribution.repository.js';
import { buildDistribution, type DistributionEntry } from './merkle-tree.js';

export interface LeafProof {
  readonly poolId: Hex;
  readonly kind: DistributionKind;
  readonly root: Hex;
  readonly account: Address;
  readonly amount: bigint;
  readonly proof: readonly Hex[];
  /** Whether the root is set on the vault (a claim can only succeed once it is). */
  readonly published: boolean;
  readonly claimed: boolean;
  readonly claimTxHash: Hex | null;
}

/**
 * The one Merkle module of the service: packs, tournaments and racing turn their payout and
 * refund tables into distributions here, serve proofs from here and record claims here. Chain
 * calls (publishing a root, claiming a leaf) are the areas' own, through their vault port.
 */
export class DistributionBook {
  constructor(private readonly repo: DistributionRepository) {}

  /**
   * Builds and stores the distribution of `poolId`'s table, once. Recording the same table again
   * returns the stored one; a different table for a pool that has one is refused (a root, once
   * built, is what the chain will be told).
   */
  async record(
    poolId: Hex,
    kind: DistributionKind,
    collateral: MerkleDistributionRow['collateral'],
    entries: readonly DistributionEntry[],
  ): Promise<MerkleDistributionRow> {
    const built = buildDistribution(poolId, entries);
    const { row } = await this.repo.insertOnce(kind, collateral, built);
    if (row.root !== built.root) {
      throw new DomainError('INVALID_STATE', `A different ${kind} table was already recorded for this pool`, {
        details: { poolId, kind, recordedRoot: row.root, newRoot: built.root },
      });
    }
    return row;
  }

  find(poolId: Hex, kind: DistributionKind): Promise<MerkleDistributionRow | null> {
    return this.repo.find(poolId, kind);
  }

  /** The account's leaf and proof, or null when the account has no leaf (or there is no distribution). */
  async proof(poolId: Hex, kind: DistributionKind, account: string): Promise<LeafProof | null> {
    const d = await this.repo.find(poolId, kind);
    if (!d) return null;
    const leaf = await this.repo.leaf(d.id, account);
    return leaf ? toProof(d, leaf) : null;
  }

  async leaves(
    d: MerkleDistributionRow,
    page: { offset: number; limit: number; claimed?: boolean },
  ): Promise<LeafProof[]> {
    return (await this.repo.leaves(d.id, page)).map((leaf) => toProof(d, leaf));
  }

  counts(d: MerkleDistributionRow) {
    return this.repo.counts(d.id);
  }

  markPublished(d: MerkleDistributionRow, txHash: Hex): Promise<boolean> {
    return this.repo.markPublished(d.id, txHash);
  }

  markClaimed(d: MerkleDistributionRow, account: string, txHash: Hex): Promise<boolean> {
    return this.repo.markClaimed(d.id, account, txHash);
  }
}

function toProof(d: MerkleDistributionRow, leaf: MerkleLeafRow): LeafProof {
  return {
    poolId: d.poolId as Hex,
    kind: d.kind,
    root: d.root as Hex,
    account: getAddress(leaf.account),
    amount: BigInt(leaf.amount),
    proof: leaf.proof as Hex[],
    published: d.status === 'published',
    claimed: leaf.claimedAt !== null,
    claimTxHash: (leaf.claimTxHash as Hex | null) ?? null,
  };
}
