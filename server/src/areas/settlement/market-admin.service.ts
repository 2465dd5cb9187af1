import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '@duelkit/contract';
import type { Bytes32, ChainPort } from '../../adapters/chain/chain.port.js';
import type { Orm } from '../../platform/db/orm.js';
import { isDomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Duel } from '../markets/duel.entity.js';
import { assertTransition } from '../markets/duel-state.js';
import type { DistributionService } from './distribution.service.js';
import type { BootstrapThreshold, MarketAdminQueries } from './market-admin.queries.js';
import type { MarketSettingsStore, TimingChanges } from './market-settings.js';
import type { DuelLookup } from './resolution.service.js';
import type { DuelCancellationRow } from './settlement.entities.js';

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
    private readonly orm: Orm,
    private readonly chain: ChainPort,
    private readonly duels: DuelLookup,
    private readonly distribution: DistributionService,
    private readonly queries: MarketAdminQueries,
    private readonly settings: MarketSettingsStore,
    private readonly threshold: BootstrapThreshold,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Cancels the named markets; the whole batch is checked first. Refunds follow once the chain confirms. */
  async discard(admin: AdminActor, duelIds: readonly string[], reason: string) {
    const now = this.now();
    const duels: Duel[] = [];
    for (const id of duelIds) {
      const duel = await this.duels.require(id);
      assertTransition(duel, 'cancel', 'admin', now);
      duels.push(duel);
    }
    const batchId = await this.batch('discard', admin, duels, reason);
    const results = [];
    for (const duel of duels) results.push(await this.cancelOne(duel, 'discard', reason, admin, batchId));
    return { batchId, results };
  }

  /** Cancels markets that missed their bootstrap threshold or stayed unresolved past the grace period. */
  async cancelExpired(admin: AdminActor, opts: { dryRun: boolean; limit: number }) {
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
      const r = await this.cancelOne(duel, reason, text, admin, batchId);
      results.push(r.success ? { ...r, reason, txHash: r.txHash } : { ...r, reason });
    }
    return { batchId, dryRun: false, results };
  }

  /** Queues the payouts of settled markets (named, or every settled one with unpaid holders). */
  async autoDistribute(admin: AdminActor, duelIds: readonly string[] | undefined) {
    const ids =
      duelIds ??
      (
        await this.conn().execute<{ duel_id: string }[]>(
          `select d.duel_id from duels d where d.status = 'settled'
             and (not exists (select 1 from duel_distributions x where x.duel_id = d.duel_id and x.kind = 'payout')
               or exists (select 1 from duel_distributions x where x.duel_id = d.duel_id and x.kind = 'payout' and x.status = 'failed'))
           order by d.resolved_at nulls last limit 100`,
        )
      ).map((r) => r.duel_id);
    const duels = [];
    for (const id of ids) duels.push(await this.duels.require(id));
    const batchId = await this.batch('auto_distribute', admin, duels, null);
    const out = [];
    for (const duel of duels) {
      try {
        assertTransition(duel, 'payout', 'admin', this.now());
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
    assertTransition(duel, 'refund', 'admin', this.now());
    const r = await this.distribution.requeue(duel, null);
    await this.conn().execute(
      'update duel_cancellations set refunds_dispatched_at = coalesce(refunds_dispatched_at, now()) where duel_id = ?',
      [duel.duelId],
    );
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
    const rows = await this.conn().execute<{ duel_id: string }[]>(
      `update duels set status = 'pending' where status = 'open' and chain_state = 'confirmed' and end_time <= now()
       returning duel_id`,
    );
    return rows.length;
  }

  /**
   * Records the cancellation before sending it (so the refunds can never miss it), sends it as the
   * platform, and removes the record when the chain refuses up front.
   */
  private async cancelOne(duel: Duel, source: CancelSource, reason: string, admin: AdminActor, batchId: string) {
    const conn = this.conn();
    const inserted = await conn.execute<{ duel_id: string }[]>(
      `insert into duel_cancellations (duel_id, source, reason, admin_id, batch_id, requested_at)
       values (?, ?, ?, ?, ?, now()) on conflict (duel_id) do nothing returning duel_id`,
      [duel.duelId, source, reason, admin.adminId, batchId],
    );
    try {
      const txHash = await this.chain.cancel(duel.duelId as Bytes32, {
        record: (sql, hash) =>
          sql('update duel_cancellations set tx_hash = ? where duel_id = ?', [hash, duel.duelId]).then(() => undefined),
      });
      await conn.execute('update duel_cancellations set tx_hash = ? where duel_id = ?', [txHash, duel.duelId]);
      return { duelId: duel.duelId, success: true as const, txHash };
    } catch (err) {
      // Only a refusal before recording (a DomainError from simulation) proves nothing was sent.
      if (inserted.length && isDomainError(err)) {
        await conn.execute('delete from duel_cancellations where duel_id = ?', [duel.duelId]);
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

  private async batch(
    kind: 'discard' | 'cancel_expired' | 'auto_distribute',
    admin: AdminActor,
    duels: Duel[],
    reason: string | null,
  ) {
    const id = randomUUID();
    await this.conn().execute(
      'insert into settlement_batches (id, kind, admin_id, duel_ids, reason, created_at) values (?, ?, ?, ?::text[], ?, now())',
      [id, kind, admin.adminId, `{${duels.map((d) => d.duelId).join(',')}}`, reason],
    );
    return id;
  }

  private conn() {
    return this.orm.em.fork().getConnection();
  }
}
