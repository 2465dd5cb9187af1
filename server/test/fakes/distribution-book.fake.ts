import { DistributionBook } from '../../src/platform/merkle/distribution-book.js';
import type { MerkleDistributionRow, MerkleLeafRow } from '../../src/platform/merkle/distribution.entity.js';
import type { DistributionRepository } from '../../src/platform/merkle/distribution.repository.js';

/**
 * The distributions table in memory, with `DistributionRepository`'s answers: one distribution
 * per pool and kind, leaves in account order, publish and claim recorded once.
 */
export class MemoryDistributions implements Omit<DistributionRepository, 'orm' | 'sql'> {
  readonly rows: MerkleDistributionRow[] = [];
  readonly leafRows: MerkleLeafRow[] = [];
  private n = 0;

  insertOnce: DistributionRepository['insertOnce'] = (kind, collateral, built) => {
    const existing = this.rows.find((d) => d.poolId === built.poolId.toLowerCase() && d.kind === kind);
    if (existing) return Promise.resolve({ row: { ...existing }, created: false });
    const row: MerkleDistributionRow = {
      id: `dist-${++this.n}`,
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
    return Promise.resolve({ row: { ...row }, created: true });
  };

  find: DistributionRepository['find'] = (poolId, kind) => {
    const d = this.rows.find((x) => x.poolId === poolId.toLowerCase() && x.kind === kind);
    return Promise.resolve(d ? { ...d } : null);
  };

  leaf: DistributionRepository['leaf'] = (id, account) =>
    Promise.resolve(this.leafRows.find((l) => l.distributionId === id && l.account === account.toLowerCase()) ?? null);

  leaves: DistributionRepository['leaves'] = (id, page) =>
    Promise.resolve(
      this.leafRows
        .filter(
          (l) => l.distributionId === id && (page.claimed === undefined || (l.claimedAt !== null) === page.claimed),
        )
        .sort((a, b) => (a.account < b.account ? -1 : 1))
        .slice(page.offset, page.offset + page.limit),
    );

  counts: DistributionRepository['counts'] = (id) => {
    const own = this.leafRows.filter((l) => l.distributionId === id);
    const claimed = own.filter((l) => l.claimedAt);
    return Promise.resolve({
      claimed: claimed.length,
      unclaimed: own.length - claimed.length,
      claimedAmount: claimed.reduce((s, l) => s + BigInt(l.amount), 0n).toString(),
    });
  };

  markPublished: DistributionRepository['markPublished'] = (id, txHash) => {
    const d = this.rows.find((x) => x.id === id && x.status === 'built');
    if (!d) return Promise.resolve(false);
    Object.assign(d, { status: 'published', publishTxHash: txHash.toLowerCase(), publishedAt: new Date(0) });
    return Promise.resolve(true);
  };

  markClaimed: DistributionRepository['markClaimed'] = (id, account, txHash) => {
    const l = this.leafRows.find(
      (x) => x.distributionId === id && x.account === account.toLowerCase() && x.claimedAt === null,
    );
    if (!l) return Promise.resolve(false);
    Object.assign(l, { claimTxHash: txHash.toLowerCase(), claimedAt: new Date(0) });
    return Promise.resolve(true);
  };
}

/** The real distribution book over in-memory tables. */
export function memoryDistributionBook(): { book: DistributionBook; tables: MemoryDistributions } {
  const tables = new MemoryDistributions();
  return { book: new DistributionBook(tables as unknown as DistributionRepository), tables };
}
