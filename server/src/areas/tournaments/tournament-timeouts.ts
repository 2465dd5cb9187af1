import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../logger.js';
import type { CancellationService } from './tournament-cancellation.service.js';
import type { RefundService } from './tournament-refunds.service.js';
import type { TournamentDb } from './tournament.repository.js';

/** The rule a timeout cancellation is recorded under (`cancelledBy`: `system:min-entries`). */
export const MIN_ENTRIES_RULE = 'min-entries';

export interface TimeoutsSummary {
  readonly checkedAt: string;
  readonly cancelled: { tournamentId: string; entries: number; minEntriesToActivate: number }[];
  readonly stagesLocked: number;
  readonly refundTablesBuilt: number;
}

const BATCH = 100;

/**
 * The timeouts step of the tournaments automation, idempotent by construction (every change is
 * guarded by the state it leaves: a second run right after the first finds nothing to do):
 *
 * 1. LIVE tournaments past their first lock with fewer entries than `minEntriesToActivate` are
 *    cancelled (`system:min-entries`), which builds their refund tables;
 * 2. every stage of a LIVE tournament whose lock time passed gets its lock recorded;
 * 3. cancelled tournaments whose refund table was not built (a crash after the cancellation) get it.
 */
export class TournamentTimeouts {
  constructor(
    private readonly db: TournamentDb,
    private readonly cancellations: CancellationService,
    private readonly refunds: RefundService,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** One run at the injected clock's now (the admin route and the periodic task). */
  runNow(): Promise<TimeoutsSummary> {
    return this.run(new Date(this.clock.now()));
  }

  async run(now: Date): Promise<TimeoutsSummary> {
    const cancelled: TimeoutsSummary['cancelled'] = [];
    for (const id of await this.db.read.cancellation.missedMinimum(now, BATCH)) {
      const t = await this.refunds.tournament(id);
      const result = await this.cancellations.cancel(
        `system:${MIN_ENTRIES_RULE}`,
        id,
        `Fewer than ${t.minEntries} entries at the first lock (${t.entryCount})`,
      );
      if (!result.alreadyCancelled) {
        cancelled.push({ tournamentId: id, entries: t.entryCount, minEntriesToActivate: t.minEntries });
      }
    }
    const locked = await this.db.read.cancellation.lockDueStages(now);
    let refundTablesBuilt = 0;
    for (const id of await this.db.read.cancellation.cancelledWithoutRefundTable(BATCH)) {
      const built = await this.refunds.ensureTable(await this.refunds.tournament(id)).catch((err: unknown) => {
        this.logger.warn({ err, tournamentId: id }, 'refund table of a cancelled tournament not built yet');
        return null;
      });
      if (built) refundTablesBuilt++;
    }
    const summary = { checkedAt: now.toISOString(), cancelled, stagesLocked: locked.length, refundTablesBuilt };
    if (cancelled.length || locked.length || refundTablesBuilt) this.logger.info(summary, 'tournament timeouts');
    return summary;
  }
}
