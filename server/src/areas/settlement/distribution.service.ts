import type { EntityManager } from '@mikro-orm/postgresql';
import type { Job } from 'bullmq';
import { getAddress, type Address } from 'viem';
import type { Bytes32, MarketEvent } from '../../adapters/chain/chain.port.js';
import type { MarketLifecyclePort } from '../../adapters/chain/market-lifecycle.port.js';
import type { ChainReadsPort } from '../../adapters/chain/chain-reads.port.js';
import { isDomainError } from '../../errors.js';
import type { WriteKey } from '../../platform/operation.context.js';
import type { MarketEventSink } from '../markets/market-indexer.js';
import type { JobEngine } from '../../platform/jobs/job-engine.js';
import type { Logger } from '../../logger.js';
import type { Duel } from '../markets/duel.entity.js';
import { assertTransition } from '../markets/duel-state.js';
import type { DistributionLedgerRepository, LedgerRow } from './distribution-ledger.repository.js';
import type { DistributionKind, DistributionStatus } from './settlement.entities.js';
import { systemClock, type Clock } from '../../platform/clock.js';

export const SETTLEMENT_QUEUE = 'settlement';

/** One payment job: pays `holder` of `duelId` if generation `generation` still owns the ledger row. */
export interface PayJob {
  readonly duelId: string;
  readonly holder: string;
  readonly kind: DistributionKind;
  readonly generation: number;
}

/** Test hooks that stand in for a dying worker: before sending a payment, or after sending it but before recording it. */
export interface DistributionFaults {
  beforeSubmit?(row: { duelId: string; holder: string }): Promise<void>;
  afterSubmit?(row: { duelId: string; holder: string }): Promise<void>;
}

/** What a holder's pull of their payout did: sent now, paid before, nothing owed, or waiting for the others. */
export type ClaimStatus = 'submitted' | 'already_paid' | 'nothing_to_claim' | 'deferred';

export interface ClaimOutcome {
  readonly duelId: string;
  readonly status: ClaimStatus;
  readonly amount: bigint | null;
  readonly txHash: `0x${string}` | null;
}

export interface DistributionOptions {
  /** How long a job waits for its payment's receipt before retrying later. */
  readonly confirmTimeoutMs?: number;
  readonly concurrency?: number;
  readonly faults?: DistributionFaults;
}

const kindOf = (status: Duel['status']): DistributionKind | undefined =>
  status === 'settled' ? 'payout' : status === 'cancelled' ? 'refund' : undefined;

/** What the DistributionService works with. */
export interface DistributionDeps {
  readonly ledger: DistributionLedgerRepository;
  readonly lifecycle: MarketLifecyclePort;
  readonly reads: ChainReadsPort;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly options?: DistributionOptions;
}

/**
 * Payouts of settled markets and refunds of cancelled ones, as durable jobs with exactly one
 * effect per participant: the ledger holds one row per (duel, holder, kind), every write to it is
 * fenced by the row's generation, and the chain pays a holder at most once (`paid` flag). The
 * amount is always the chain's `owed`; the creator is paid last, because their funding (refund) or
 * pool share (payout) comes from what remains.
 */
export class DistributionService {
  private jobs: JobEngine | undefined;

  constructor(private readonly deps: DistributionDeps) {}

  /** Runs the payment worker on `jobs`; without it this instance only records work for another. */
  attach(jobs: JobEngine): void {
    this.jobs = jobs;
    jobs.work<PayJob>({
      queue: SETTLEMENT_QUEUE,
      concurrency: this.deps.options?.concurrency ?? 4,
      handler: (data, job) => this.handle(data, job),
    });
  }

  /**
   * Makes sure every participant of a terminal market has a ledger row of the market's kind and
   * queues the ones that are ready. Idempotent.
   */
  async dispatch(duel: Duel, batchId: string | null): Promise<{ kind: DistributionKind; participants: number }> {
    const kind = kindOf(duel.status);
    assertTransition(duel, kind ?? 'payout', 'system', this.deps.clock.now());
    if (!kind) throw new Error('unreachable: a terminal market has a distribution kind');
    const holders = await this.holders(duel, kind);
    for (const holder of holders) {
      const isCreator = holder.toLowerCase() === duel.creatorAddress.toLowerCase();
      await this.deps.ledger.ensureEntry({
        duelId: duel.duelId,
        holder,
        kind,
        isCreator,
        batchId,
        at: new Date(this.deps.clock.now()),
      });
    }
    await this.enqueueReady(duel.duelId, kind);
    return { kind, participants: holders.length };
  }

  /**
   * Queues again every unpaid entry of a terminal market (after failures or a crash). A holder the
   * chain already paid is recorded as paid instead. Older jobs of those entries become no-ops.
   */
  async requeue(duel: Duel, batchId: string | null) {
    const { kind } = await this.dispatch(duel, batchId);
    const rows = await this.deps.ledger.rows(duel.duelId, kind);
    let requeued = 0;
    let alreadyPaid = 0;
    for (const row of rows.filter((r) => r.status !== 'paid')) {
      const onChain = await this.deps.lifecycle.owed(duel.duelId as Bytes32, row.holder as Address);
      if (onChain.paid) {
        await this.deps.ledger.markPaid(row);
        alreadyPaid++;
        continue;
      }
      await this.deps.ledger.requeue(row.id);
      requeued++;
    }
    await this.enqueueReady(duel.duelId, kind);
    return { kind, participants: rows.length, requeued, alreadyPaid };
  }

  /**
   * A winner pulls their payout of a settled market now instead of waiting for its job. The same
   * ledger row and the same chain key as the job (`markets.payout:<duel>:<holder>`), so whichever
   * runs first sends the one payment and the other finds it: a repeated claim returns the first
   * transaction, never a second one. The creator, paid from what remains, waits for the others.
   */
  async claim(duel: Duel, holder: Address, write?: WriteKey): Promise<ClaimOutcome> {
    assertTransition(duel, 'payout', 'participant', this.deps.clock.now());
    await this.dispatch(duel, null);
    const rows = await this.deps.ledger.rows(duel.duelId, 'payout');
    const row = rows.find((r) => r.holder.toLowerCase() === holder.toLowerCase());
    const outcome = (
      status: ClaimStatus,
      amount: bigint | null = null,
      txHash: string | null = null,
    ): ClaimOutcome => ({
      duelId: duel.duelId,
      status,
      amount,
      txHash: txHash as `0x${string}` | null,
    });
    if (!row) return outcome('nothing_to_claim');
    const recorded = () =>
      this.deps.ledger.rows(duel.duelId, 'payout').then((all) => all.find((r) => r.id === row.id) ?? row);
    if (row.status === 'paid') return outcome('already_paid', BigInt(row.amount ?? '0'), row.tx_hash);
    if (row.is_creator && rows.some((r) => !r.is_creator && r.status !== 'paid')) return outcome('deferred');
    const owed = await this.deps.lifecycle.owed(duel.duelId as Bytes32, row.holder as Address);
    if (owed.paid) {
      await this.deps.ledger.markPaid(row);
      const r = await recorded();
      return outcome('already_paid', r.amount === null ? null : BigInt(r.amount), r.tx_hash);
    }
    await this.deps.ledger.markClaimSubmitted(row, owed.amount);
    try {
      const txHash = await this.deps.lifecycle.payout(duel.duelId as Bytes32, row.holder as Address, {
        ...(write ? { write } : {}),
        record: (sql, hash) => this.deps.ledger.recordClaimTxHash(row, hash, sql),
      });
      await this.deps.ledger.recordClaimTxHash(row, txHash);
      const r = await recorded();
      return outcome('submitted', BigInt(r.amount ?? owed.amount.toString()), txHash);
    } catch (err) {
      if (!isDomainError(err) || err.code !== 'ALREADY_PAID') throw err;
      await this.deps.ledger.markPaid(row);
      const r = await recorded();
      return outcome('already_paid', r.amount === null ? null : BigInt(r.amount), r.tx_hash);
    }
  }

  /** Progress of a market's distribution. */
  async status(duel: Duel) {
    const kind = kindOf(duel.status) ?? null;
    const rows = kind ? await this.deps.ledger.rows(duel.duelId, kind) : [];
    const cancellation = await this.deps.ledger.cancellation(duel.duelId);
    const count = (s: DistributionStatus[]) => rows.filter((r) => s.includes(r.status)).length;
    const paid = count(['paid']);
    return {
      duelId: duel.duelId,
      duelStatus: duel.status,
      kind: rows.length ? kind : null,
      participants: rows.length,
      paid,
      pending: count(['queued', 'submitted']),
      failed: count(['failed']),
      totalPaid: rows
        .filter((r) => r.status === 'paid')
        .reduce((sum, r) => sum + BigInt(r.amount ?? '0'), 0n)
        .toString(),
      complete: rows.length > 0 && paid === rows.length,
      cancellation: cancellation
        ? {
            source: cancellation.source,
            reason: cancellation.reason,
            requestedAt: new Date(cancellation.requested_at).toISOString(),
            txHash: cancellation.tx_hash as `0x${string}` | null,
          }
        : null,
      entries: rows.map((r) => ({
        holder: getAddress(r.holder),
        isCreator: r.is_creator,
        status: r.status,
        amount: r.amount,
        txHash: r.tx_hash as `0x${string}` | null,
        attempts: r.attempts,
        lastError: r.last_error,
      })),
    };
  }

  /**
   * Periodic: starts the payouts of every settled market (no admin needed) and the refunds of
   * markets cancelled through the admin surface once the indexer saw the cancellation, and queues entries that are ready but not queued (after a crash, or the
   * creator once everyone else is paid).
   */
  async sweep(): Promise<void> {
    // Settlement pays its winners by itself: a settled market without a ledger gets one here.
    for (const s of await this.deps.ledger.settledWithoutPayouts(50)) {
      const duel = await this.deps.ledger.duel(s.duel_id);
      if (duel) await this.dispatch(duel, null);
    }
    for (const c of await this.deps.ledger.undispatchedCancellations(50)) {
      const duel = await this.deps.ledger.duel(c.duel_id);
      if (!duel) continue;
      await this.dispatch(duel, c.batch_id);
      await this.deps.ledger.markRefundsDispatched(c.duel_id);
    }
    for (const r of await this.deps.ledger.unqueued(100)) await this.enqueueReady(r.duel_id, r.kind);
  }

  /** Records a Paid event, whoever triggered the payment: the chain's amount is the truth. */
  readonly paidSink: MarketEventSink = {
    apply: async (em: EntityManager, e: MarketEvent) => {
      if (e.kind !== 'paid') return;
      // Inside the indexer's transaction: recorded exactly when its cursor moves past the event.
      await this.deps.ledger.recordPaidEvent(em, e);
    },
  };

  /** The job: pays one holder once. */
  async handle(data: PayJob, job: Pick<Job, 'attemptsMade' | 'opts'>): Promise<void> {
    const row = await this.deps.ledger.entry(data.duelId, data.holder, data.kind);
    if (!row || row.status === 'paid' || row.generation !== data.generation) return;
    try {
      await this.pay(row);
    } catch (err) {
      const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      await this.deps.ledger.recordFailure(row, String((err as Error).message), final);
      throw err;
    }
    await this.enqueueReady(row.duel_id, row.kind);
  }

  private async pay(row: LedgerRow): Promise<void> {
    const duelId = row.duel_id as Bytes32;
    const holder = row.holder as Address;
    const owed = await this.deps.lifecycle.owed(duelId, holder);
    if (owed.paid) {
      await this.deps.ledger.markPaid(row);
      return;
    }
    await this.deps.options?.faults?.beforeSubmit?.({ duelId: row.duel_id, holder: row.holder });
    // Record the intent first: a crash after sending leaves a row the next attempt can explain.
    await this.deps.ledger.markSubmitted(row, owed.amount);
    let txHash: `0x${string}`;
    try {
      // Keyed by (duel, holder): a rerun job finds the recorded payment instead of sending another.
      txHash = await this.deps.lifecycle.payout(duelId, holder, {
        record: (sql, hash) => this.deps.ledger.recordTxHash(row, hash, sql),
      });
    } catch (err) {
      if (isDomainError(err) && err.code === 'ALREADY_PAID') {
        await this.deps.ledger.markPaid(row);
        return;
      }
      throw err;
    }
    await this.deps.ledger.recordTxHash(row, txHash);
    await this.deps.options?.faults?.afterSubmit?.({ duelId: row.duel_id, holder: row.holder });
    // Waiting for the node is I/O, measured on the wall clock whatever clock the rules run on.
    const deadline = systemClock.now() + (this.deps.options?.confirmTimeoutMs ?? 20_000);
    for (;;) {
      const state = await this.deps.reads.transactionStatus(txHash);
      if (state === 'success') break;
      if (state === 'reverted') throw new Error(`payout transaction ${txHash} reverted`);
      if (systemClock.now() > deadline) throw new Error(`payout transaction ${txHash} not mined yet`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await this.deps.ledger.markPaid(row);
  }

  /** Queues entries not yet queued in their generation; the creator only once everyone else is paid. */
  private async enqueueReady(duelId: string, kind: DistributionKind): Promise<void> {
    const jobs = this.jobs;
    if (!jobs) return;
    const rows = await this.deps.ledger.rows(duelId, kind);
    const othersUnpaid = rows.some((r) => !r.is_creator && r.status !== 'paid');
    for (const r of rows) {
      if (r.status !== 'queued' || r.enqueued_at) continue;
      if (r.is_creator && othersUnpaid) continue;
      const data: PayJob = { duelId, holder: r.holder, kind, generation: r.generation };
      await jobs.add(SETTLEMENT_QUEUE, 'pay', data, { jobId: `${kind}_${duelId}_${r.holder}_g${r.generation}` });
      await this.deps.ledger.markEnqueued(r);
    }
  }

  /**
   * Who is owed something: on a refund every trader with a positive net deposit, on a payout every
   * holder of winning shares; the creator always (funding back, or the pool's winning balance).
   */
  private async holders(duel: Duel, kind: DistributionKind): Promise<string[]> {
    const owed =
      kind === 'refund'
        ? await this.deps.ledger.netDepositors(duel.duelId)
        : await this.deps.ledger.winningHolders(duel.duelId, duel.winningOptionIndex ?? -1);
    const creator = getAddress(duel.creatorAddress);
    const holders = owed.map((h) => getAddress(h)).filter((h) => h !== creator);
    return [...holders, creator];
  }
}
