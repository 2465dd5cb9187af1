import { getAddress, type Hash, type Hex } from 'viem';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import { DomainError } from '../../errors.js';
import { claimProofOf } from '../../platform/merkle/claim-proof.js';
import type { DistributionBook } from '../../platform/merkle/distribution-book.js';
import type { MerkleDistributionRow } from '../../platform/merkle/distribution.entity.js';
import type { TournamentDb } from './tournament.repository.js';
import type { TournamentRow } from './tournament.types.js';

/** PrizeVault's kind index of refunds. */
const REFUND = 1;

export function refundTableDto(d: MerkleDistributionRow) {
  return {
    root: d.root,
    total: d.total,
    leafCount: d.leafCount,
    published: d.status === 'published',
    publishTxHash: d.publishTxHash,
  };
}

/**
 * Refunds of cancelled tournaments: the refund table is every recorded deposit still in the pool
 * (stage-1 buy-ins, later stages' payments, the creator's own), one leaf per wallet, stored once
 * in the shared distribution book; its root goes on the tournament's vault pool, and each entrant
 * claims on chain with the proof served here.
 */
export class RefundService {
  constructor(
    private readonly db: TournamentDb,
    private readonly book: DistributionBook,
    private readonly vault: PrizeVaultPort,
  ) {}

  async tournament(id: string): Promise<TournamentRow> {
    const t = await this.db.read.tournaments.byId(id.toLowerCase());
    if (!t) throw new DomainError('NOT_FOUND', `No tournament ${id}`, { details: { tournamentId: id } });
    return t;
  }

  private assertCancelled(t: TournamentRow, doing: string): void {
    if (t.status !== 'CANCELED') {
      throw new DomainError('INVALID_STATE', `Tournament ${t.id} is ${t.status}: only a cancelled one can ${doing}`, {
        details: { tournamentId: t.id, status: t.status },
      });
    }
  }

  /**
   * The refund table of a cancelled tournament, built on first use: null when nothing is left to
   * refund. Deposits cannot change once the tournament is cancelled, so every call builds the same
   * table (the book refuses a different one).
   */
  async ensureTable(t: TournamentRow): Promise<MerkleDistributionRow | null> {
    this.assertCancelled(t, 'be refunded');
    const poolId = t.poolId as Hex;
    const existing = await this.book.find(poolId, 'refund');
    if (existing) return existing;
    const deposits = await this.db.read.cancellation.refundableDeposits(t.id);
    const entries = deposits
      .map((d) => ({ account: getAddress(d.wallet), amount: BigInt(d.amount) }))
      .filter((e) => e.amount > 0n);
    if (entries.length === 0) return null;
    return this.book.record(poolId, 'refund', t.stakeAsset, entries);
  }

  /** Publishes the refund root on the vault, once: a repeat answers the same transaction. */
  async publish(id: string) {
    const t = await this.tournament(id);
    this.assertCancelled(t, 'publish a refund root');
    const d = await this.ensureTable(t);
    if (!d) {
      throw new DomainError('INVALID_STATE', `Nothing to refund in tournament ${t.id}`, {
        details: { tournamentId: t.id, status: t.status },
      });
    }
    let txHash = d.publishTxHash as Hash | null;
    if (!txHash) {
      txHash = await this.vault.setRoot(t.stakeAsset, t.poolId as Hex, 'refund', d.root as Hex, BigInt(d.total), {
        key: `tournaments:set-root:${t.id}:refund`,
      });
      await this.book.markPublished(d, txHash);
    }
    return {
      tournamentId: t.id,
      kind: 'refund' as const,
      kindIndex: REFUND as 1,
      root: d.root,
      total: d.total,
      leafCount: d.leafCount,
      poolId: t.poolId,
      vaultAddress: this.vault.address(t.stakeAsset),
      txHash,
    };
  }

  /** A wallet's refund leaf with its proof and the claim call. */
  async proof(id: string, wallet: string | undefined) {
    const t = await this.tournament(id);
    if (!wallet) throw new DomainError('UNAUTHENTICATED', 'Send a bearer token, or name the wallet with ?wallet=');
    this.assertCancelled(t, 'be refunded');
    const d = await this.ensureTable(t);
    const leaf = d ? await this.book.proof(t.poolId as Hex, 'refund', wallet) : null;
    if (!leaf) {
      throw new DomainError('NOT_FOUND', `${getAddress(wallet)} has nothing to get back from tournament ${t.id}`, {
        details: { tournamentId: t.id, wallet: getAddress(wallet) },
      });
    }
    const claimed =
      leaf.claimed ||
      (leaf.published && (await this.vault.isClaimed(t.stakeAsset, leaf.poolId, 'refund', leaf.account)));
    return claimProofOf(leaf, t.stakeAsset, this.vault.claimCall(t.stakeAsset, leaf), claimed);
  }
}
