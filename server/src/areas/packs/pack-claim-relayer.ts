import { isRetryableCode } from '@duelkit/contract';
import type { Hash, Hex } from 'viem';
import type { PrizeVaultPort, VaultDistributionKind } from '../../adapters/chain/prize-vault.port.js';
import { DomainError, isDomainError } from '../../errors.js';
import type { JobEngine } from '../../platform/jobs/job-engine.js';
import { systemClock } from '../../platform/clock.js';
import type { DistributionBook, LeafProof } from '../../platform/merkle/distribution-book.js';
import type { Logger } from '../../logger.js';
import type { PackClaimRunRepository } from './pack-claim-run.repository.js';
import type { PackClaimRunRow } from './pack.entities.js';
import type { PackRepository, PackView } from './pack.repository.js';
import type { PackService } from './pack.service.js';
import type { ClaimRunDto } from './pack.types.js';

export const PACK_CLAIMS_QUEUE = 'pack-claims';

/** One auto-claim job: the run of `generation` claims every unclaimed leaf of the pack's table. */
export interface ClaimJob {
  readonly packId: string;
  readonly kind: VaultDistributionKind;
  readonly generation: number;
}

/** Test hooks standing in for a dying worker: before a claim is sent, or after it was sent but before it is recorded. */
export interface ClaimFaults {
  beforeSubmit?(leaf: { packId: string; account: string }): Promise<void>;
  afterSubmit?(leaf: { packId: string; account: string }): Promise<void>;
}

export interface RelayerOptions {
  /** How long a claim waits for its receipt before the job retries later. */
  readonly confirmTimeoutMs?: number;
  readonly pageSize?: number;
  readonly faults?: ClaimFaults;
}

export function toRunDto(run: PackClaimRunRow): ClaimRunDto {
  return {
    status: run.status,
    generation: run.generation,
    sent: run.sent,
    skipped: run.skipped,
    failed: run.failed,
    lastError: run.lastError,
    startedAt: run.startedAt ? new Date(run.startedAt).toISOString() : null,
    finishedAt: run.finishedAt ? new Date(run.finishedAt).toISOString() : null,
  };
}

/**
 * Auto-claim: the platform submits the claim of every unclaimed leaf for its account, one
 * transaction per leaf, as a durable job. Each claim's write key is the pack, kind and account,
 * and the vault pays a leaf once, so a run that dies anywhere and runs again (a redelivered job, a
 * new run) pays nobody twice; leaves their accounts claimed themselves are skipped.
 */
export class PackClaimRelayer {
  private jobs: JobEngine | undefined;

  constructor(
    private readonly repo: PackRepository,
    private readonly runs: PackClaimRunRepository,
    private readonly packs: PackService,
    private readonly book: DistributionBook,
    private readonly vault: PrizeVaultPort,
    private readonly logger: Logger,
    private readonly options: RelayerOptions = {},
  ) {}

  /** Runs the claim worker on `jobs`; without it this instance only records runs for another. */
  attach(jobs: JobEngine): void {
    this.jobs = jobs;
    jobs.work<ClaimJob>({
      queue: PACK_CLAIMS_QUEUE,
      handler: (data) => this.run(data.packId, data.kind, data.generation),
    });
  }

  /** Starts a run (unless one is under way) and queues its job. */
  async start(packId: string, kind: VaultDistributionKind): Promise<ClaimRunDto> {
    const pack = await this.packs.require(packId);
    const d = await this.book.find(pack.poolId as Hex, kind);
    if (!d || d.status !== 'published') {
      throw new DomainError('INVALID_STATE', `The ${kind} root of pack ${pack.id} is not published on the vault yet`, {
        details: { packId: pack.id, status: pack.status, kind, distribution: d?.status ?? null },
      });
    }
    const { run, started } = await this.runs.startClaimRun(pack.id, kind);
    if (started) await this.enqueue({ packId: pack.id, kind, generation: run.generation });
    return toRunDto(run);
  }

  /** The job: claims every leaf not yet claimed, one transaction each. */
  async run(packId: string, kind: VaultDistributionKind, generation: number): Promise<void> {
    const current = await this.runs.claimRun(packId, kind);
    if (!current || current.generation !== generation || current.status === 'done' || current.status === 'failed')
      return;
    const pack = await this.packs.require(packId);
    const d = await this.book.find(pack.poolId as Hex, kind);
    if (!d) return;
    await this.runs.updateClaimRun(packId, kind, generation, { status: 'running' });
    const pageSize = this.options.pageSize ?? 100;
    let failed = 0;
    for (let offset = 0; offset < d.leafCount; offset += pageSize) {
      for (const leaf of await this.book.leaves(d, { offset, limit: pageSize })) {
        const outcome = leaf.claimed ? 'skipped' : await this.claimOne(pack, kind, leaf);
        if (outcome === 'failed') failed++;
        await this.runs.updateClaimRun(packId, kind, generation, { [outcome]: 1 });
      }
    }
    // The pack moves on before the run reads as ended: whoever sees the run done sees the pack claimed.
    await this.completeIfClaimed(pack, kind);
    await this.runs.updateClaimRun(packId, kind, generation, { status: failed ? 'failed' : 'done' });
  }

  private async claimOne(
    pack: PackView,
    kind: VaultDistributionKind,
    leaf: LeafProof,
  ): Promise<'sent' | 'skipped' | 'failed'> {
    const d = await this.book.find(pack.poolId as Hex, kind);
    if (!d) return 'failed';
    // No pre-check of the vault: a claim this relayer sent before dying comes back under its
    // write key with its hash (and is recorded now); a leaf its account claimed itself reverts
    // with ALREADY_CLAIMED before anything is sent.
    const at = { packId: pack.id, account: leaf.account };
    await this.options.faults?.beforeSubmit?.(at);
    let txHash: Hash;
    try {
      txHash = await this.vault.claim(pack.collateral, leaf.poolId, kind, leaf.account, leaf.amount, leaf.proof, {
        key: `packs:claim:${pack.id}:${kind}:${leaf.account.toLowerCase()}`,
      });
    } catch (err) {
      if (isDomainError(err) && err.code === 'ALREADY_CLAIMED') return 'skipped';
      return this.failure(pack, kind, leaf, err);
    }
    await this.options.faults?.afterSubmit?.(at);
    // Waiting for the node is I/O, measured on the wall clock whatever clock the rules run on.
    const deadline = systemClock.now() + (this.options.confirmTimeoutMs ?? 20_000);
    for (;;) {
      const receipt = await this.vault.receipt(txHash);
      if (receipt.status === 'success') break;
      if (receipt.status === 'reverted') {
        // Reverted because the account claimed in between: nothing is owed any more.
        if (await this.vault.isClaimed(pack.collateral, leaf.poolId, kind, leaf.account)) return 'skipped';
        return this.failure(pack, kind, leaf, new Error(`claim transaction ${txHash} reverted`));
      }
      if (systemClock.now() > deadline) throw new Error(`claim transaction ${txHash} not mined yet; the job retries`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await this.book.markClaimed(d, leaf.account, txHash);
    return 'sent';
  }

  /** A refusal of this leaf is recorded and the run goes on; an outage fails the job, which retries. */
  private async failure(pack: PackView, kind: VaultDistributionKind, leaf: LeafProof, err: unknown) {
    if (!isDomainError(err) || isRetryableCode(err.code)) throw err;
    this.logger.warn({ packId: pack.id, kind, account: leaf.account, err: err.message }, 'pack claim refused');
    const run = await this.runs.claimRun(pack.id, kind);
    if (run)
      await this.runs.updateClaimRun(pack.id, kind, run.generation, { lastError: `${leaf.account}: ${err.message}` });
    return 'failed' as const;
  }

  /**
   * Queues again the runs no worker moved for `staleMs` (queued on an instance without jobs, or a
   * job that gave up): the periodic tick calls it. A run is safe to repeat.
   */
  async resumeStale(staleMs: number, now: Date): Promise<number> {
    const stale = await this.runs.staleClaimRuns(new Date(now.getTime() - staleMs));
    for (const run of stale) {
      await this.enqueue({ packId: run.packId, kind: run.kind, generation: run.generation }, `_r${now.getTime()}`);
    }
    return stale.length;
  }

  private async completeIfClaimed(pack: PackView, kind: VaultDistributionKind): Promise<void> {
    const d = await this.book.find(pack.poolId as Hex, kind);
    if (!d) return;
    const onChain = await this.vault.distribution(pack.collateral, pack.poolId as Hex, kind);
    if (onChain.claimed !== BigInt(d.total)) return;
    if (kind === 'payout') await this.repo.transition(pack.id, ['settled'], 'claimed');
    else await this.repo.markRefundsClaimed(pack.id);
  }

  private async enqueue(job: ClaimJob, suffix = ''): Promise<void> {
    if (!this.jobs) {
      this.logger.warn(
        { ...job },
        'no job engine in this process: the periodic tick of an instance that runs jobs queues the run',
      );
      return;
    }
    await this.jobs.add(PACK_CLAIMS_QUEUE, 'claim', job, {
      jobId: `claims_${job.packId}_${job.kind}_g${job.generation}${suffix}`,
    });
  }
}
