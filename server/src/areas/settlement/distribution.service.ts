import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Job } from 'bullmq';
import { getAddress, type Address } from 'viem';
import type { Bytes32, ChainPort, MarketEvent } from '../../adapters/chain/chain.port.js';
import type { Orm } from '../../platform/db/orm.js';
import { sqlIn } from '../../platform/db/sql.js';
import { isDomainError } from '../../errors.js';
import type { MarketEventSink } from '../markets/market-indexer.js';
import type { JobEngine } from '../../platform/jobs/job-engine.js';
import type { Logger } from '../../logger.js';
import { DuelEntity, type Duel } from '../markets/duel.entity.js';
import { assertTransition } from '../markets/duel-state.js';
import type { DistributionKind, DistributionStatus } from './settlement.entities.js';

export const SETTLEMENT_QUEUE = 'settlement';

/** One payment job: pays `holder` of `duelId` if generation `generation` still owns the ledger row. */
export interface PayJob {
  readonly duelId: string;
  readonly holder: string;
  readonly kind: DistributionKind;
  readonly generation: number;
}

interface LedgerRow {
  id: string;
  duel_id: string;
  holder: string;
  kind: DistributionKind;
  is_creator: boolean;
  status: DistributionStatus;
  amount: string | null;
  tx_hash: string | null;
  generation: number;
  attempts: number;
  last_error: string | null;
  enqueued_at: Date | null;
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

/**
 * Payouts of settled markets and refunds of cancelled ones, as durable jobs with exactly one
 * effect per participant: the ledger holds one row per (duel, holder, kind), every write to it is
 * fenced by the row's generation, and the chain pays a holder at most once (`paid` flag). The
 * amount is always the chain's `owed`; the creator is paid last, because their funding (refund) or
 * pool share (payout) comes from what remains.
 */
export class DistributionService {
  private jobs: JobEngine | undefined;

  constructor(
    private readonly orm: Orm,
    private readonly chain: ChainPort,
    private readonly logger: Logger,
    private readonly options: DistributionOptions = {},
  ) {}

  /** Runs the payment worker on `jobs`; without it this instance only records work for another. */
  attach(jobs: JobEngine): void {
    this.jobs = jobs;
    jobs.work<PayJob>({
      queue: SETTLEMENT_QUEUE,
      concurrency: this.options.concurrency ?? 4,
      handler: (data, job) => this.handle(data, job),
    });
  }

  /**
   * Makes sure every participant of a terminal market has a ledger row of the market's kind and
   * queues the ones that are ready. Idempotent.
   */
  async dispatch(duel: Duel, batchId: string | null): Promise<{ kind: DistributionKind; participants: number }> {
    const kind = kindOf(duel.status);
    assertTransition(duel, kind ?? 'payout', 'system', Date.now());
    if (!kind) throw new Error('unreachable: a terminal market has a distribution kind');
    const holders = await this.holders(duel, kind);
    const conn = this.conn();
    for (const holder of holders) {
      await conn.execute(
        `insert into duel_distributions (id, duel_id, holder, kind, is_creator, status, batch_id, created_at, updated_at)
         values (?, ?, ?, ?, ?, 'queued', ?, now(), now()) on conflict (duel_id, holder, kind) do nothing`,
        [randomUUID(), duel.duelId, holder, kind, holder.toLowerCase() === duel.creatorAddress.toLowerCase(), batchId],
      );
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
    const rows = await this.rows(duel.duelId, kind);
    let requeued = 0;
    let alreadyPaid = 0;
    for (const row of rows.filter((r) => r.status !== 'paid')) {
      const onChain = await this.chain.owed(duel.duelId as Bytes32, row.holder as Address);
      if (onChain.paid) {
        await this.markPaid(row);
        alreadyPaid++;
        continue;
      }
      await this.conn().execute(
        `update duel_distributions set generation = generation + 1, status = 'queued', enqueued_at = null,
           updated_at = now() where id = ? and status <> 'paid'`,
        [row.id],
      );
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
  async claim(duel: Duel, holder: Address): Promise<ClaimOutcome> {
    assertTransition(duel, 'payout', 'participant', Date.now());
    await this.dispatch(duel, null);
    const rows = await this.rows(duel.duelId, 'payout');
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
    const recorded = () => this.rows(duel.duelId, 'payout').then((all) => all.find((r) => r.id === row.id) ?? row);
    if (row.status === 'paid') return outcome('already_paid', BigInt(row.amount ?? '0'), row.tx_hash);
    if (row.is_creator && rows.some((r) => !r.is_creator && r.status !== 'paid')) return outcome('deferred');
    const owed = await this.chain.owed(duel.duelId as Bytes32, row.holder as Address);
    if (owed.paid) {
      await this.markPaid(row);
      const r = await recorded();
      return outcome('already_paid', r.amount === null ? null : BigInt(r.amount), r.tx_hash);
    }
    await this.conn().execute(
      `update duel_distributions set status = 'submitted', amount = coalesce(amount, ?), updated_at = now()
        where id = ? and status <> 'paid'`,
      [owed.amount.toString(), row.id],
    );
    try {
      const txHash = await this.chain.payout(duel.duelId as Bytes32, row.holder as Address, {
        record: (sql, hash) =>
          sql('update duel_distributions set tx_hash = ?, updated_at = now() where id = ?', [hash, row.id]).then(
            () => undefined,
          ),
      });
      await this.conn().execute('update duel_distributions set tx_hash = ?, updated_at = now() where id = ?', [
        txHash,
        row.id,
      ]);
      const r = await recorded();
      return outcome('submitted', BigInt(r.amount ?? owed.amount.toString()), txHash);
    } catch (err) {
      if (!isDomainError(err) || err.code !== 'ALREADY_PAID') throw err;
      await this.markPaid(row);
      const r = await recorded();
      return outcome('already_paid', r.amount === null ? null : BigInt(r.amount), r.tx_hash);
    }
  }

  /** Progress of a market's distribution. */
  async status(duel: Duel) {
    const kind = kindOf(duel.status) ?? null;
    const rows = kind ? await this.rows(duel.duelId, kind) : [];
    const [cancellation] = await this.conn().execute<
      {
        source: 'discard' | 'bootstrap_threshold' | 'unresolved';
        reason: string;
        requested_at: Date;
        tx_hash: string | null;
      }[]
    >('select source, reason, requested_at, tx_hash from duel_cancellations where duel_id = ?', [duel.duelId]);
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
    const conn = this.conn();
    // Settlement pays its winners by itself: a settled market without a ledger gets one here.
    const settled = await conn.execute<{ duel_id: string }[]>(
      `select d.duel_id from duels d where d.status = 'settled'
          and not exists (select 1 from duel_distributions x where x.duel_id = d.duel_id and x.kind = 'payout')
        order by d.resolved_at nulls last limit 50`,
    );
    for (const s of settled) {
      const duel = await this.duel(s.duel_id);
      if (duel) await this.dispatch(duel, null);
    }
    const cancelled = await conn.execute<{ duel_id: string; batch_id: string | null }[]>(
      `select c.duel_id, c.batch_id from duel_cancellations c join duels d on d.duel_id = c.duel_id
        where c.refunds_dispatched_at is null and d.status = 'cancelled' limit 50`,
    );
    for (const c of cancelled) {
      const duel = await this.duel(c.duel_id);
      if (!duel) continue;
      await this.dispatch(duel, c.batch_id);
      await conn.execute('update duel_cancellations set refunds_dispatched_at = now() where duel_id = ?', [c.duel_id]);
    }
    const ready = await conn.execute<{ duel_id: string; kind: DistributionKind }[]>(
      `select distinct duel_id, kind from duel_distributions where status = 'queued' and enqueued_at is null limit 100`,
    );
    for (const r of ready) await this.enqueueReady(r.duel_id, r.kind);
  }

  /** Records a Paid event, whoever triggered the payment: the chain's amount is the truth. */
  readonly paidSink: MarketEventSink = {
    apply: async (em: EntityManager, e: MarketEvent) => {
      if (e.kind !== 'paid') return;
      // Inside the indexer's transaction: recorded exactly when its cursor moves past the event.
      await sqlIn(em)(
        `insert into duel_distributions (id, duel_id, holder, kind, is_creator, status, amount, tx_hash, paid_at, created_at, updated_at)
         select ?, d.duel_id, ?, ?, lower(d.creator_address) = lower(?), 'paid', ?, ?, to_timestamp(?), now(), now()
           from duels d where d.duel_id = ?
         on conflict (duel_id, holder, kind) do update set status = 'paid', amount = excluded.amount,
           tx_hash = excluded.tx_hash, paid_at = excluded.paid_at, updated_at = now()`,
        [
          randomUUID(),
          getAddress(e.holder),
          e.refund ? 'refund' : 'payout',
          e.holder,
          e.amount.toString(),
          e.txHash.toLowerCase(),
          e.timestamp,
          e.duelId.toLowerCase(),
        ],
      );
    },
  };

  /** The job: pays one holder once. */
  async handle(data: PayJob, job: Pick<Job, 'attemptsMade' | 'opts'>): Promise<void> {
    const [row] = await this.conn().execute<LedgerRow[]>(
      'select * from duel_distributions where duel_id = ? and holder = ? and kind = ?',
      [data.duelId, data.holder, data.kind],
    );
    if (!row || row.status === 'paid' || row.generation !== data.generation) return;
    try {
      await this.pay(row);
    } catch (err) {
      const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      await this.conn().execute(
        `update duel_distributions set attempts = attempts + 1, last_error = ?, updated_at = now(),
           status = case when ? then 'failed' else status end
         where id = ? and generation = ? and status <> 'paid'`,
        [String((err as Error).message).slice(0, 500), final, row.id, row.generation],
      );
      throw err;
    }
    await this.enqueueReady(row.duel_id, row.kind);
  }

  private async pay(row: LedgerRow): Promise<void> {
    const duelId = row.duel_id as Bytes32;
    const holder = row.holder as Address;
    const owed = await this.chain.owed(duelId, holder);
    if (owed.paid) {
      await this.markPaid(row);
      return;
    }
    await this.options.faults?.beforeSubmit?.({ duelId: row.duel_id, holder: row.holder });
    // Record the intent first: a crash after sending leaves a row the next attempt can explain.
    await this.conn().execute(
      `update duel_distributions set status = 'submitted', amount = ?, updated_at = now() where id = ? and generation = ?`,
      [owed.amount.toString(), row.id, row.generation],
    );
    let txHash: `0x${string}`;
    try {
      // Keyed by (duel, holder): a rerun job finds the recorded payment instead of sending another.
      txHash = await this.chain.payout(duelId, holder, {
        record: (sql, hash) =>
          sql('update duel_distributions set tx_hash = ?, updated_at = now() where id = ? and generation = ?', [
            hash,
            row.id,
            row.generation,
          ]).then(() => undefined),
      });
    } catch (err) {
      if (isDomainError(err) && err.code === 'ALREADY_PAID') {
        await this.markPaid(row);
        return;
      }
      throw err;
    }
    await this.conn().execute(
      'update duel_distributions set tx_hash = ?, updated_at = now() where id = ? and generation = ?',
      [txHash, row.id, row.generation],
    );
    await this.options.faults?.afterSubmit?.({ duelId: row.duel_id, holder: row.holder });
    const deadline = Date.now() + (this.options.confirmTimeoutMs ?? 20_000);
    for (;;) {
      const state = await this.chain.transactionStatus(txHash);
      if (state === 'success') break;
      if (state === 'reverted') throw new Error(`payout transaction ${txHash} reverted`);
      if (Date.now() > deadline) throw new Error(`payout transaction ${txHash} not mined yet`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await this.markPaid(row);
  }

  private async markPaid(row: Pick<LedgerRow, 'id'>): Promise<void> {
    await this.conn().execute(
      `update duel_distributions set status = 'paid', paid_at = coalesce(paid_at, now()), last_error = null,
         updated_at = now() where id = ?`,
      [row.id],
    );
  }

  /** Queues entries not yet queued in their generation; the creator only once everyone else is paid. */
  private async enqueueReady(duelId: string, kind: DistributionKind): Promise<void> {
    const jobs = this.jobs;
    if (!jobs) return;
    const rows = await this.rows(duelId, kind);
    const othersUnpaid = rows.some((r) => !r.is_creator && r.status !== 'paid');
    for (const r of rows) {
      if (r.status !== 'queued' || r.enqueued_at) continue;
      if (r.is_creator && othersUnpaid) continue;
      const data: PayJob = { duelId, holder: r.holder, kind, generation: r.generation };
      await jobs.add(SETTLEMENT_QUEUE, 'pay', data, { jobId: `${kind}_${duelId}_${r.holder}_g${r.generation}` });
      await this.conn().execute(
        'update duel_distributions set enqueued_at = now(), updated_at = now() where id = ? and generation = ?',
        [r.id, r.generation],
      );
    }
  }

  /**
   * Who is owed something: on a refund every trader with a positive net deposit, on a payout every
   * holder of winning shares; the creator always (funding back, or the pool's winning balance).
   */
  private async holders(duel: Duel, kind: DistributionKind): Promise<string[]> {
    const rows =
      kind === 'refund'
        ? await this.conn().execute<{ holder: string }[]>(
            `select trader as holder from trades where duel_id = ? group by trader
              having sum(case when side = 'buy' then collateral else -collateral end) > 0 order by trader`,
            [duel.duelId],
          )
        : await this.conn().execute<{ holder: string }[]>(
            'select holder from positions where duel_id = ? and option_index = ? and shares > 0 order by holder',
            [duel.duelId, duel.winningOptionIndex ?? -1],
          );
    const creator = getAddress(duel.creatorAddress);
    const holders = rows.map((r) => getAddress(r.holder)).filter((h) => h !== creator);
    return [...holders, creator];
  }

  private rows(duelId: string, kind: DistributionKind): Promise<LedgerRow[]> {
    return this.conn().execute<LedgerRow[]>(
      `select id, duel_id, holder, kind, is_creator, status, amount::text as amount, tx_hash, generation, attempts,
         last_error, enqueued_at from duel_distributions where duel_id = ? and kind = ? order by is_creator desc, holder`,
      [duelId, kind],
    );
  }

  private async duel(duelId: string): Promise<Duel | null> {
    return this.orm.em.fork().findOne(DuelEntity, { duelId });
  }

  private conn() {
    return this.orm.em.fork().getConnection();
  }
}
