import { getAddress, type Address, type Hash, type Hex } from 'viem';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import { claimProofOf } from '../../platform/merkle/claim-proof.js';
import type { DistributionBook } from '../../platform/merkle/distribution-book.js';
import type { MerkleDistributionRow } from '../../platform/merkle/distribution.entity.js';
import type { AdminActor } from './tournament-disputes.service.js';
import { payoutTable, type PayoutTable } from './tournament-payout-table.js';
import type { TournamentReadService } from './tournament-read.service.js';
import type { Reason } from './tournament-settlement.service.js';
import type { TournamentDb, TournamentRepos } from './tournament.repository.js';
import type { Actor, TournamentRow, TournamentSettings } from './tournament.types.js';
import { tournamentPoolId } from './vault-pools.js';
import { CloseContext } from './tournament-windows.js';

/**
 * Payouts of a finished tournament: the table from the final standings, its Merkle root in the
 * shared distribution book, the root published on the stake asset's PrizeVault, proofs for
 * claimants and the confirmation of their claims (verified on chain). Every chain write carries a
 * stable key, so a retried request never writes twice.
 */
export class PayoutService {
  constructor(
    private readonly db: TournamentDb,
    private readonly reads: TournamentReadService,
    private readonly book: DistributionBook,
    private readonly vault: PrizeVaultPort,
    private readonly settings: TournamentSettings,
    private readonly treasury: Address,
    private readonly clock: Clock,
  ) {}

  private now(): Date {
    return new Date(this.clock.now());
  }

  private poolOf(t: TournamentRow): Hex {
    return tournamentPoolId(t.id);
  }

  /** The table from the standings now. */
  async table(t: TournamentRow, r: TournamentRepos = this.db.read): Promise<PayoutTable> {
    const entries = await r.tournaments.entries(t.id);
    const seats = await r.play.stageEntriesOfTournament(t.id);
    const stages = await r.tournaments.stages(t.id);
    const deposits = await r.deposits.deposits(t.id);
    const indexOf = new Map(stages.map((s) => [s.id, s.stageIndex]));
    const lastStage = new Map<string, number>();
    for (const seat of seats) {
      const index = indexOf.get(seat.stageId) ?? 0;
      lastStage.set(seat.entryId, Math.max(lastStage.get(seat.entryId) ?? 0, index));
    }
    const pool = deposits.filter((d) => !d.refundedAt).reduce((sum, d) => sum + BigInt(d.amount), 0n);
    const champion = t.championWallet?.toLowerCase() ?? null;
    return payoutTable(
      t,
      pool,
      entries.map((e) => ({
        wallet: getAddress(e.wallet),
        placement: e.placement,
        champion: champion !== null && e.wallet.toLowerCase() === champion,
        lastStage: lastStage.get(e.id) ?? 0,
      })),
    );
  }

  /** What stands between the tournament and its payout table, read with `r`. */
  async readiness(t: TournamentRow, r: TournamentRepos = this.db.read): Promise<Reason[]> {
    const reasons: Reason[] = [];
    if (t.status !== 'COMPLETED') {
      reasons.push({ code: 'NOT_COMPLETED', message: `The tournament is ${t.status}` });
    }
    const ctx = await CloseContext.load(r, t, this.now(), this.settings);
    const unsettled = ctx.stages.filter((s) => !ctx.settlement(s.id));
    if (unsettled.length) {
      reasons.push({
        code: 'STAGES_UNSETTLED',
        message: `Stage(s) ${unsettled.map((s) => s.stageIndex).join(', ')} not settled`,
      });
    }
    const final = ctx.finalWindow();
    if (unsettled.length === 0 && final.status !== 'CLOSED') {
      reasons.push({
        code: 'FINAL_WINDOW_OPEN',
        message: `The final window closes at ${final.closesAt?.toISOString() ?? 'an unknown time'}`,
      });
    }
    const open = await r.close.countDisputes({ tournamentId: t.id, status: 'OPEN' });
    if (open) reasons.push({ code: 'DISPUTES_PENDING', message: `${open} open dispute(s)` });
    return reasons;
  }

  async built(t: TournamentRow): Promise<boolean> {
    return (await this.book.find(this.poolOf(t), 'payout')) !== null;
  }

  private async lines(t: TournamentRow, d: MerkleDistributionRow | null) {
    const table = await this.table(t);
    if (!d) return { table, rows: table.lines.map((l) => ({ ...l, claimed: false, claimTxHash: null })) };
    const byWallet = new Map(table.lines.map((l) => [l.wallet.toLowerCase(), l]));
    const entries = await this.db.read.tournaments.entries(t.id);
    const placementOf = new Map(entries.map((e) => [e.wallet.toLowerCase(), e.placement]));
    const leaves = await this.book.leaves(d, { offset: 0, limit: 10_000 });
    return {
      table,
      rows: leaves
        .map((leaf) => ({
          wallet: leaf.account,
          placement: placementOf.get(leaf.account.toLowerCase()) ?? null,
          tier: byWallet.get(leaf.account.toLowerCase())?.tier ?? 'Payout',
          amount: leaf.amount,
          claimed: leaf.claimed,
          claimTxHash: leaf.claimTxHash,
        }))
        .sort((a, b) => (a.placement ?? Infinity) - (b.placement ?? Infinity)),
    };
  }

  async payouts(tournamentId: string) {
    const t = await this.reads.tournament(tournamentId);
    const d = await this.book.find(this.poolOf(t), 'payout');
    const { table, rows } = await this.lines(t, d);
    const distributable = d ? BigInt(d.total) : table.distributable;
    return {
      tournamentId: t.id,
      status: d ? (d.status === 'published' ? ('published' as const) : ('built' as const)) : ('projected' as const),
      stakeAsset: t.stakeAsset,
      prizePool: table.prizePool.toString(),
      fee: table.fee.toString(),
      distributable: distributable.toString(),
      root: (d?.root as Hex | undefined) ?? null,
      payouts: rows.map((r) => ({ ...r, amount: r.amount.toString() })),
    };
  }

  async payoutStatus(tournamentId: string) {
    const t = await this.reads.tournament(tournamentId);
    const d = await this.book.find(this.poolOf(t), 'payout');
    if (!d) {
      return {
        tournamentId: t.id,
        rootSet: false,
        rootOnChain: false,
        root: null,
        publishTxHash: null,
        total: '0',
        claimedOnChain: '0',
        leafCount: 0,
        leavesClaimed: 0,
        complete: false,
        leaves: [],
      };
    }
    const onChain =
      d.status === 'published' ? await this.vault.distribution(t.stakeAsset, this.poolOf(t), 'payout') : null;
    const leaves = await this.book.leaves(d, { offset: 0, limit: 10_000 });
    return {
      tournamentId: t.id,
      rootSet: true,
      rootOnChain: d.status === 'published',
      root: d.root as Hex,
      publishTxHash: (d.publishTxHash as Hash | null) ?? null,
      total: d.total,
      claimedOnChain: (onChain?.claimed ?? 0n).toString(),
      leafCount: d.leafCount,
      leavesClaimed: leaves.filter((l) => l.claimed).length,
      complete: onChain !== null && onChain.claimed === BigInt(d.total),
      leaves: leaves.map((l) => ({
        wallet: l.account,
        amount: l.amount.toString(),
        claimed: l.claimed,
        claimTxHash: l.claimTxHash,
      })),
    };
  }

  /** Builds the payout table's Merkle root, once. */
  async setRoot(admin: AdminActor, tournamentId: string) {
    const t = await this.reads.tournament(tournamentId);
    const poolId = this.poolOf(t);
    let d = await this.book.find(poolId, 'payout');
    if (!d) {
      const table = await this.db.transaction(async (r) => {
        await r.tournaments.lock(t.id);
        const current = (await r.tournaments.byId(t.id)) ?? t;
        const reasons = await this.readiness(current, r);
        if (reasons.length) {
          throw new DomainError('PAYOUT_NOT_READY', `Tournament ${t.id} cannot be paid out yet`, {
            details: { tournamentId: t.id, reasons },
          });
        }
        return this.table(current, r);
      });
      if (table.lines.length === 0) {
        throw new DomainError('PAYOUT_NOT_READY', `Nobody is paid in tournament ${t.id}`, {
          details: { tournamentId: t.id, reasons: [{ code: 'EMPTY_TABLE', message: 'The payout table is empty' }] },
        });
      }
      d = await this.book.record(
        poolId,
        'payout',
        t.stakeAsset,
        table.lines.map((l) => ({ account: l.wallet, amount: l.amount })),
      );
      await this.db.read.close.audit({
        tournamentId: t.id,
        stageId: null,
        action: 'set-root',
        actor: admin.email,
        reason: null,
        details: { root: d.root, distributable: table.distributable.toString(), fee: table.fee.toString() },
        at: this.now(),
      });
    }
    const { table, rows } = await this.lines(t, d);
    return {
      tournamentId: t.id,
      status: d.status,
      root: d.root as Hex,
      total: d.total,
      fee: table.fee.toString(),
      leafCount: d.leafCount,
      poolId,
      vaultAddress: this.vault.address(t.stakeAsset),
      payouts: rows.map((r) => ({ ...r, amount: r.amount.toString() })),
    };
  }

  /** Publishes the root on the vault and releases the fee to the treasury; each write once, ever. */
  async publish(admin: AdminActor, tournamentId: string) {
    const t = await this.reads.tournament(tournamentId);
    const poolId = this.poolOf(t);
    const d = await this.book.find(poolId, 'payout');
    if (!d) {
      throw new DomainError('PAYOUT_NOT_READY', `The payout table of ${t.id} is not built: call set-root first`, {
        details: { tournamentId: t.id, reasons: [{ code: 'ROOT_NOT_BUILT', message: 'No payout root yet' }] },
      });
    }
    let txHash = d.publishTxHash as Hash | null;
    if (!txHash) {
      txHash = await this.vault.setRoot(t.stakeAsset, poolId, 'payout', d.root as Hex, BigInt(d.total), {
        key: `tournaments:set-root:${t.id}:payout`,
      });
      if (await this.book.markPublished(d, txHash)) {
        await this.db.read.close.audit({
          tournamentId: t.id,
          stageId: null,
          action: 'publish-root',
          actor: admin.email,
          reason: null,
          details: { root: d.root, total: d.total, txHash },
          at: this.now(),
        });
      }
    }
    const { fee } = await this.table(t);
    const feeTx =
      fee > 0n
        ? await this.vault.release(t.stakeAsset, poolId, this.treasury, fee, 'tournament-fee', {
            key: `tournaments:fee:${t.id}`,
          })
        : null;
    return {
      tournamentId: t.id,
      root: d.root as Hex,
      total: d.total,
      txHash,
      fee: { amount: fee.toString(), to: this.treasury, txHash: feeTx },
    };
  }

  async payoutRoot(tournamentId: string) {
    const t = await this.reads.tournament(tournamentId);
    const poolId = this.poolOf(t);
    const d = await this.book.find(poolId, 'payout');
    const reasons = d ? [] : await this.readiness(t);
    const onChain = d?.status === 'published' ? await this.vault.distribution(t.stakeAsset, poolId, 'payout') : null;
    return {
      tournamentId: t.id,
      status: d ? d.status : ('none' as const),
      ready: d !== null || reasons.length === 0,
      reasons,
      root: (d?.root as Hex | undefined) ?? null,
      total: d?.total ?? '0',
      leafCount: d?.leafCount ?? 0,
      publishTxHash: (d?.publishTxHash as Hash | null | undefined) ?? null,
      onChain: onChain
        ? { root: onChain.root, total: onChain.total.toString(), claimed: onChain.claimed.toString() }
        : null,
    };
  }

  async claimProof(tournamentId: string, wallet: Address | null) {
    const t = await this.reads.tournament(tournamentId);
    if (!wallet) throw new DomainError('UNAUTHENTICATED', 'Send a bearer token, or name the wallet with ?wallet=');
    const poolId = this.poolOf(t);
    if (!(await this.book.find(poolId, 'payout'))) {
      throw new DomainError('PAYOUT_NOT_READY', `Tournament ${t.id} has no payout root yet`, {
        details: { tournamentId: t.id, reasons: [{ code: 'ROOT_NOT_BUILT', message: 'No payout root yet' }] },
      });
    }
    const leaf = await this.book.proof(poolId, 'payout', wallet);
    if (!leaf) {
      throw new DomainError('NOT_FOUND', `${getAddress(wallet)} has no payout in tournament ${t.id}`, {
        details: { tournamentId: t.id, wallet: getAddress(wallet) },
      });
    }
    const claimed =
      leaf.claimed || (leaf.published && (await this.vault.isClaimed(t.stakeAsset, poolId, 'payout', leaf.account)));
    return claimProofOf(leaf, t.stakeAsset, this.vault.claimCall(t.stakeAsset, leaf), claimed);
  }

  /** Records a claim after finding its Claimed event in the transaction's receipt. */
  async confirmClaim(actor: Actor, tournamentId: string, txHash: Hash) {
    const t = await this.reads.tournament(tournamentId);
    const poolId = this.poolOf(t);
    const d = await this.book.find(poolId, 'payout');
    if (!d) {
      throw new DomainError('PAYOUT_NOT_READY', `Tournament ${t.id} has no payout root yet`, {
        details: { tournamentId: t.id, reasons: [{ code: 'ROOT_NOT_BUILT', message: 'No payout root yet' }] },
      });
    }
    const leaf = await this.book.proof(poolId, 'payout', actor.wallet);
    if (!leaf) {
      throw new DomainError('NOT_FOUND', `${actor.wallet} has no payout in tournament ${t.id}`, {
        details: { tournamentId: t.id, wallet: actor.wallet },
      });
    }
    const receipt = await this.vault.receipt(txHash);
    if (receipt.status === 'pending') {
      throw new DomainError('CLAIM_PENDING', `Transaction ${txHash} is not mined yet`, { details: { txHash } });
    }
    const mismatch = (reason: string, message: string) =>
      new DomainError('CLAIM_MISMATCH', message, { details: { txHash, reason } });
    if (receipt.status === 'reverted') throw mismatch('reverted', `Transaction ${txHash} reverted`);
    const claim = receipt.claims.find(
      (c) =>
        c.collateral === t.stakeAsset &&
        c.poolId.toLowerCase() === poolId.toLowerCase() &&
        c.kind === 'payout' &&
        c.account.toLowerCase() === actor.wallet.toLowerCase(),
    );
    if (!claim)
      throw mismatch(
        'no_claim',
        `Transaction ${txHash} holds no payout claim of tournament ${t.id} for ${actor.wallet}`,
      );
    if (claim.amount !== leaf.amount) {
      throw mismatch('amount', `The claim paid ${claim.amount}, the leaf is ${leaf.amount}`);
    }
    const recorded = await this.book.markClaimed(d, actor.wallet, txHash);
    return {
      tournamentId: t.id,
      account: leaf.account,
      amount: leaf.amount.toString(),
      txHash,
      claimed: true as const,
      recorded,
    };
  }
}
