import type { ClaimProof } from '@duelkit/contract';
import { getAddress, type Hash, type Hex } from 'viem';
import type { PrizeVaultPort, VaultDistributionKind } from '../../adapters/chain/prize-vault.port.js';
import { DomainError } from '../../errors.js';
import type { OperationContext } from '../../platform/operation.context.js';
import { claimProofOf } from '../../platform/merkle/claim-proof.js';
import type { DistributionBook } from '../../platform/merkle/distribution-book.js';
import type { MerkleDistributionRow } from '../../platform/merkle/distribution.entity.js';
import type { PackLifecycleService } from './pack-lifecycle.service.js';
import type { PackClaimRunRepository } from './pack-claim-run.repository.js';
import type { PackView } from './pack.repository.js';
import type { PackService } from './pack.service.js';
import { toRunDto } from './pack-claim-relayer.js';
import type { ClaimStatusDto, DistributionSummaryDto, SubmitRootDto } from './pack.types.js';

/**
 * Payout and refund tables of packs on the prize vault: roots published by the admin, proofs and
 * summaries for claimants, claim progress. The tables themselves live in the shared distribution
 * book; the vault is the truth of what was claimed.
 */
export class PackPayoutService {
  constructor(
    private readonly runs: PackClaimRunRepository,
    private readonly packs: PackService,
    private readonly lifecycle: PackLifecycleService,
    private readonly book: DistributionBook,
    private readonly vault: PrizeVaultPort,
  ) {}

  /** The leaf of `account` with everything PrizeVault.claim needs. */
  async proof(packId: string, kind: VaultDistributionKind, account: string | undefined): Promise<ClaimProof> {
    const pack = await this.packs.require(packId);
    const who = requireAccount(account);
    const d = await this.book.find(pack.poolId as Hex, kind);
    if (!d) throw notReady(pack, kind);
    const leaf = await this.book.proof(pack.poolId as Hex, kind, who);
    if (!leaf) {
      throw new DomainError('NOT_FOUND', `${getAddress(who)} has no ${kind} in pack ${pack.id}`, {
        details: { packId: pack.id, kind, account: getAddress(who) },
      });
    }
    const claimed =
      leaf.claimed ||
      (leaf.published && (await this.vault.isClaimed(pack.collateral, leaf.poolId, kind, leaf.account)));
    // A pack names its vault checksummed everywhere it answers (vaultOf), and so here.
    const call = { ...this.vault.claimCall(pack.collateral, leaf), to: this.packs.vaultOf(pack) };
    return claimProofOf(leaf, pack.collateral, call, claimed);
  }

  async summary(
    packId: string,
    kind: VaultDistributionKind,
    account: string | undefined,
  ): Promise<DistributionSummaryDto> {
    const pack = await this.packs.require(packId);
    const d = await this.book.find(pack.poolId as Hex, kind);
    const base = {
      packId: pack.id,
      kind,
      poolId: pack.poolId as Hex,
      vaultAddress: this.packs.vaultOf(pack),
    };
    if (!d) {
      return { ...base, status: 'not_ready', root: null, total: '0', leafCount: 0, claimedAmount: '0', mine: null };
    }
    const onChain =
      d.status === 'published' ? await this.vault.distribution(pack.collateral, pack.poolId as Hex, kind) : null;
    let mine: DistributionSummaryDto['mine'] = null;
    if (account) {
      const leaf = await this.book.proof(pack.poolId as Hex, kind, account);
      if (leaf) {
        mine = {
          account: leaf.account,
          amount: leaf.amount.toString(),
          claimed:
            leaf.claimed ||
            (leaf.published && (await this.vault.isClaimed(pack.collateral, leaf.poolId, kind, leaf.account))),
          claimTxHash: leaf.claimTxHash ?? null,
        };
      }
    }
    return {
      ...base,
      status: d.status,
      root: d.root,
      total: d.total,
      leafCount: d.leafCount,
      claimedAmount: (onChain?.claimed ?? 0n).toString(),
      mine,
    };
  }

  /**
   * Publishes the table's root on the vault, once: the write key is the pack and kind, so a
   * repeat (or a crash before the publication was recorded) sends nothing new.
   */
  async submitRoot(ctx: OperationContext, packId: string, kind: VaultDistributionKind): Promise<SubmitRootDto> {
    const pack = await this.packs.require(packId);
    let d: MerkleDistributionRow | null;
    if (kind === 'payout') {
      this.packs.assertStatus(pack, ['settled', 'claimed'], 'publish a payout root (settle it first)');
      d = await this.book.find(pack.poolId as Hex, 'payout');
      if (!d) {
        throw new DomainError('INVALID_STATE', `Nobody is paid in pack ${pack.id}: there is no payout root`, {
          details: { packId: pack.id, status: pack.status },
        });
      }
    } else {
      d = await this.lifecycle.refundTable(pack);
      if (!d) {
        throw new DomainError('INVALID_STATE', `Nobody entered pack ${pack.id}: there is nothing to refund`, {
          details: { packId: pack.id, status: pack.status },
        });
      }
    }
    let txHash = d.publishTxHash as Hash | null;
    if (!txHash) {
      txHash = await this.vault.setRoot(pack.collateral, pack.poolId as Hex, kind, d.root as Hex, BigInt(d.total), {
        key: `packs:set-root:${pack.id}:${kind}`,
        write: ctx.writeKey(`set-root:${kind}`),
      });
      await this.book.markPublished(d, txHash);
    }
    return {
      packId: pack.id,
      kind,
      root: d.root,
      total: d.total,
      leafCount: d.leafCount,
      poolId: pack.poolId,
      vaultAddress: this.packs.vaultOf(pack),
      txHash,
    };
  }

  async claimStatus(packId: string, kind: VaultDistributionKind): Promise<ClaimStatusDto> {
    const pack = await this.packs.require(packId);
    const d = await this.book.find(pack.poolId as Hex, kind);
    const run = await this.runs.claimRun(pack.id, kind);
    if (!d) {
      return {
        packId: pack.id,
        kind,
        status: 'not_ready',
        root: null,
        total: '0',
        leafCount: 0,
        claimedOnChain: '0',
        leavesClaimedByRelayer: 0,
        complete: false,
        run: run ? toRunDto(run) : null,
      };
    }
    const onChain =
      d.status === 'published' ? await this.vault.distribution(pack.collateral, pack.poolId as Hex, kind) : null;
    const counts = await this.book.counts(d);
    return {
      packId: pack.id,
      kind,
      status: d.status,
      root: d.root,
      total: d.total,
      leafCount: d.leafCount,
      claimedOnChain: (onChain?.claimed ?? 0n).toString(),
      leavesClaimedByRelayer: counts.claimed,
      complete: onChain !== null && onChain.claimed === BigInt(d.total),
      run: run ? toRunDto(run) : null,
    };
  }

  /** Whether every leaf of the pack's `kind` table is claimed on the vault. */
  async fullyClaimed(pack: PackView, kind: VaultDistributionKind): Promise<boolean> {
    const d = await this.book.find(pack.poolId as Hex, kind);
    if (!d || d.status !== 'published') return false;
    const onChain = await this.vault.distribution(pack.collateral, pack.poolId as Hex, kind);
    return onChain.claimed === BigInt(d.total);
  }
}

function requireAccount(account: string | undefined): string {
  if (account) return account;
  throw new DomainError('VALIDATION_FAILED', 'Whose leaf? Send a bearer token or the account query parameter', {
    fieldErrors: { 'query.account': ['required without a bearer token'] },
  });
}

function notReady(pack: PackView, kind: VaultDistributionKind): DomainError {
  return new DomainError(
    'INVALID_STATE',
    kind === 'payout'
      ? `Pack ${pack.id} has no payout table yet: it is ${pack.status}`
      : `Pack ${pack.id} has no refund table: it is ${pack.status}`,
    { details: { packId: pack.id, status: pack.status, kind } },
  );
}
