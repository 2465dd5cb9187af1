import type { ErrorCode } from '@duelkit/contract';
import type { Bytes32, ChainPort } from '../../adapters/chain/chain.port.js';
import { isDomainError } from '../../errors.js';
import type { OperationContext } from '../../platform/operation-context.js';
import type { Logger } from '../../logger.js';
import type { Duel } from '../markets/duel.entity.js';
import { assertTransition } from '../markets/duel-state.js';
import type { DistributionService } from './distribution.service.js';
import type { BootstrapThreshold, MarketAdminQueries } from './market-admin.queries.js';
import type { BatchKind, MarketAdminRepository } from './market-admin.repository.js';
import type { MarketSettingsStore, TimingChanges } from './market-settings.js';
import type { DuelLookup } from './resolution.service.js';
import type { DuelCancellationRow } from './settlement.entities.js';
import type { Clock } from '../../platform/clock.js';

export interface AdminActor {
  readonly adminId: string;
  readonly email: string;
}

type CancelSource = DuelCancellationRow['source'];

/**
 * §4.16 market administration writes: cancellations (discard, cancel-expired) whose refunds follow
 * as durable jobs, payouts, timings, and closing ended markets (docs/admin-markets.md). The
 * admin's views live in MarketAdminQueries.
 */
export class MarketAdminService {
  constructor(
    private readonly repo: MarketAdminRepository,
    private readonly chain: ChainPort,
    private readonly duels: DuelLookup,
    private readonly distribution: DistributionService,
    private readonly queries: MarketAdminQueries,
    private readonly settings: MarketSettingsStore,
    private readonly threshold: BootstrapThreshold,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {}

  /** Cancels the named markets; the whole batch is checked first. Refunds follow once the chain confirms. */
  async discard(ctx: OperationContext, admin: AdminActor, duelIds: readonly string[], reason: string) {
    const now = this.clock.now();
    const duels: Duel[] = [];
    for (const id of duelIds) {
      const duel = await this.duels.require(id);
      assertTransition(duel, 'cancel', 'admin', now);
      duels.push(duel);
    }
    const batchId = await this.batch('discard', admin, duels, reason);
    const results = [];
    for (const duel of duels) results.push(await this.cancelOne(ctx, duel, 'discard', reason, admin, batchId));
    return { batchId, results };
  }

  /** Cancels markets that missed their bootstrap threshold or stayed unresolved past the grace period. */
  async cancelExpired(ctx: OperationContext, admin: AdminActor, opts: { dryRun: boolean; limit: number }) {
    const candidates = await this.queries.expiredCandidates({ page: 1, limit: opts.limit });
    if (opts.dryRun) {
      return {
        batchId: null,
        dryRun: true,
        results: candidates.rows.map((c) => ({
          duelId: c.duel.duelId,
          reason: c.reason,
          success: true as const,
          txHash: null,
        })),
      };
    }
    const batchId = await this.batch(
      'cancel_expired',
      admin,
      candidates.rows.map((c) => c.duel),
      null,
    );
    const results = [];
    for (const { duel, reason } of candidates.rows) {
      const text =
        reason === 'bootstrap_threshold'
          ? `fewer than ${this.threshold.minParticipants} participants or less than ${this.threshold.minVolume} volume by the start`
          : `not resolved within ${this.settings.resolutionGraceSeconds} s after the end`;
      const r = await this.cancelOne(ctx, duel, reason, text, admin, batchId);
      results.push(r.success ? { ...r, reason, txHash: r.txHash } : { ...r, reason });
    }
    return { batchId, dryRun: false, results };
  }

  /** Queues the payouts of settled markets (named, or every settled one with unpaid holders). */
  async autoDistribute(admin: AdminActor, duelIds: readonly string[] | undefined) {
    const ids = duelIds ?? (await this.repo.settledAwaitingPayout(100));
    const duels = [];
    for (const id of ids) duels.push(await this.duels.require(id));
    const batchId = await this.batch('auto_distribute', admin, duels, null);
    const out = [];
    for (const duel of duels) {
      try {
        assertTransition(duel, 'payout', 'admin', this.clock.now());
        const r = await this.distribution.requeue(duel, batchId);
        out.push({
          duelId: duel.duelId,
          enqueued: true,
          participants: r.participants,
          queued: r.requeued,
          alreadyPaid: r.alreadyPaid,
        });
      } catch (err) {
        if (!isDomainError(err)) throw err;
        out.push({
          duelId: duel.duelId,
          enqueued: false,
          participants: 0,
          queued: 0,
          alreadyPaid: 0,
          code: err.code,
          message: err.message,
        });
      }
    }
    return { batchId, duels: out };
  }

  async continueRefunds(duelId: string) {
    const duel = await this.duels.require(duelId);
    assertTransition(duel, 'refund', 'admin', this.clock.now());
    const r = await this.distribution.requeue(duel, null);
    await this.repo.markRefundsDispatched(duel.duelId);
    return {
      duelId: duel.duelId,
      requeued: r.requeued,
      alreadyPaid: r.alreadyPaid,
      status: await this.distribution.status(duel),
    };
  }

  async setDuration(admin: AdminActor, changes: TimingChanges) {
    await this.settings.update(changes, admin.email);
    return this.queries.duration();
  }

  /** System job: marks markets past their end as pending (awaiting resolution). */
  async closeEnded(): Promise<number> {
    return this.repo.closeEnded(new Date(this.clock.now()));
  }

  /**
   * Records the cancellation before sending it (so the refunds can never miss it), sends it as the
   * platform, and removes the record when the chain refuses up front.
   */
  private async cancelOne(
    ctx: OperationContext,
    duel: Duel,
    source: CancelSource,
    reason: string,
    admin: AdminActor,
    batchId: string,
  ) {
    const inserted = await this.repo.recordCancellation({
      duelId: duel.duelId,
      source,
      reason,
      adminId: admin.adminId,
      batchId,
    });
    try {
      const txHash = await this.chain.cancel(duel.duelId as Bytes32, {
        write: ctx.writeKey(`cancel:${duel.duelId}`),
        record: (sql, hash) => this.repo.recordCancellationTx(duel.duelId, hash, sql),
      });
      await this.repo.recordCancellationTx(duel.duelId, txHash);
      return { duelId: duel.duelId, success: true as const, txHash };
    } catch (err) {
      // Only a refusal before recording (a DomainError from simulation) proves nothing was sent.
      if (inserted && isDomainError(err)) {
        await this.repo.deleteCancellation(duel.duelId);
      }
      if (!isDomainError(err)) {
        this.logger.error({ duelId: duel.duelId, err }, 'cancel failed');
        const code: ErrorCode = 'INTERNAL';
        return {
          duelId: duel.duelId,
          success: false as const,
          code,
          message: 'The chain could not take the transaction',
        };
      }
      return { duelId: duel.duelId, success: false as const, code: err.code, message: err.message };
    }
  }

  private batch(kind: BatchKind, admin: AdminActor, duels: Duel[], reason: string | null) {
    return this.repo.insertBatch(
      kind,
      admin.adminId,
      duels.map((d) => d.duelId),
      reason,
    );
  }
}
