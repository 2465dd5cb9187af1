import { randomUUID } from 'node:crypto';
import { DistributionBook } from '../../src/platform/merkle/distribution-book.js';
import type { MerkleDistributionRow, MerkleLeafRow } from '../../src/platform/merkle/distribution.entity.js';
import type { DistributionKind, DistributionRepository } from '../../src/platform/merkle/distribution.repository.js';
import type { BuiltDistribution } from '../../src/platform/merkle/merkle-tree.js';

/**
 * The distribution tables in memory, with the repository's once-per-(pool, kind) rule: what the
 * real `DistributionBook` stores its Merkle tables in during a unit test.
 */
export class MemoryDistributions implements Omit<DistributionRepository, 'orm' | 'sql'> {
  readonly rows: MerkleDistributionRow[] = [];
  readonly leafRows: MerkleLeafRow[] = [];

  insertOnce(
    kind: DistributionKind,
    collateral: MerkleDistributionRow['collateral'],
    built: BuiltDistribution,
  ): Promise<{ row: MerkleDistributionRow; created: boolean }> {
    const existing = this.rows.find((r) => r.poolId === built.poolId.toLowerCase() && r.kind === kind);
    if (existing) return Promise.resolve({ row: existing, created: false });
    const row: MerkleDistributionRow = {
      id: randomUUID(),
      poolId: built.poolId.toLowerCase(),
      kind,
      collateral,
      root: built.root,
      total: built.total.toString(),
      leafCount: built.leaves.length,
      status: 'built',
      publishTxHash: null,
      createdAt: new Date(0),
      publishedAt: null,
    };
    this.rows.push(row);
    for (const l of built.leaves) {
      this.leafRows.push({
        distributionId: row.id,
        account: l.account.toLowerCase(),
        amount: l.amount.toString(),
        proof: [...l.proof],
        claimTxHash: null,
        claimedAt: null,
      });
    }
    return Promise.resolve({ row, created: true });
  }

  find(poolId: string, kind: DistributionKind): Promise<MerkleDistributionRow | null> {
    return Promise.resolve(this.rows.find((r) => r.poolId === poolId.toLowerCase() && r.kind === kind) ?? null);
  }

  leaf(distributionId: string, account: string): Promise<MerkleLeafRow | null> {
    return Promise.resolve(
      this.leafRows.find((l) => l.distributionId === distributionId && l.account === account.toLowerCase()) ?? null,
    );
  }

  leaves(distributionId: string, page: { offset: number; limit: number; claimed?: boolean }): Promise<MerkleLeafRow[]> {
    return Promise.resolve(
      this.leafRows
        .filter((l) => l.distributionId === distributionId)
        .filter((l) => page.claimed === undefined || (l.claimedAt !== null) === page.claimed)
        .slice(page.offset, page.offset + page.limit),
    );
  }

  counts(distributionId: string): Promise<{ claimed: number; unclaimed: number; claimedAmount: string }> {
    const leaves = this.leafRows.filter((l) => l.distributionId === distributionId);
    const claimed = leaves.filter((l) => l.claimedAt !== null);
    return Promise.resolve({
      claimed: claimed.length,
      unclaimed: leaves.length - claimed.length,
      claimedAmount: claimed.reduce((sum, l) => sum + BigInt(l.amount), 0n).toString(),
    });
  }

  markPublished(id: string, txHash: string): Promise<boolean> {
    const row = this.rows.find((r) => r.id === id && r.status === 'built');
    if (!row) return Promise.resolve(false);
    row.status = 'published';
    row.publishTxHash = txHash.toLowerCase();
    row.publishedAt = new Date(0);
    return Promise.resolve(true);
  }

  markClaimed(distributionId: string, account: string, txHash: string): Promise<boolean> {
    const leaf = this.leafRows.find(
      (l) => l.distributionId === distributionId && l.account === account.toLowerCase() && l.claimedAt === null,
    );
    if (!leaf) return Promise.resolve(false);
    leaf.claimTxHash = txHash.toLowerCase();
    leaf.claimedAt = new Date(0);
    return Promise.resolve(true);
  }
}

/** The real distribution book over in-memory tables. */
export function memoryDistributionBook(): { book: DistributionBook; tables: MemoryDistributions } {
  const tables = new MemoryDistributions();
  return { book: new DistributionBook(tables as unknown as DistributionRepository), tables };
}
