import type { Clock } from '../../platform/clock.js';
import { isDomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { PackClaimRelayer } from './pack-claim-relayer.js';
import type { PackEntryService } from './pack-entry.service.js';
import type { PackLifecycleService } from './pack-lifecycle.service.js';
import type { PackPayoutService } from './pack-payouts.service.js';
import type { PackRepository } from './pack.repository.js';
import type { PackService } from './pack.service.js';
import type { TickDto } from './pack.types.js';

const BATCH = 100;
/** A claim run no worker moved for this long is queued again. */
const STALE_RUN_MS = 120_000;

/**
 * The packs' clock-driven work, run by `schedule-tick` and as a repeating job: every step is a
 * guarded transition or a keyed vault write, so running it again changes nothing more.
 */
export class PackTick {
  constructor(
    private readonly repo: PackRepository,
    private readonly packs: PackService,
    private readonly entries: PackEntryService,
    private readonly lifecycle: PackLifecycleService,
    private readonly payouts: PackPayoutService,
    private readonly relayer: PackClaimRelayer,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async run(): Promise<TickDto> {
    const now = new Date(this.clock.now());
    const verified = await this.entries.verifyPending(null);
    const locked: string[] = [];
    for (const id of await this.repo.idsIn('published', { lockedBy: now, limit: BATCH })) {
      if (await this.repo.transition(id, ['published'], 'locked')) locked.push(id);
    }
    const resolving: string[] = [];
    for (const id of await this.repo.idsIn('locked', { limit: BATCH })) {
      if ((await this.lifecycle.hasResults(id)) && (await this.repo.transition(id, ['locked'], 'resolving'))) {
        resolving.push(id);
      }
    }
    const feesReleased: string[] = [];
    for (const id of await this.repo.feesDue(BATCH)) {
      if (await this.lifecycle.releaseFee(await this.packs.require(id))) feesReleased.push(id);
    }
    const claimed: string[] = [];
    for (const id of await this.repo.idsIn('settled', { limit: BATCH })) {
      const pack = await this.packs.require(id);
      if (
        (await this.payouts.fullyClaimed(pack, 'payout')) &&
        (await this.repo.transition(id, ['settled'], 'claimed'))
      ) {
        claimed.push(id);
      }
    }
    for (const id of await this.repo.refundsOpen(BATCH)) {
      const pack = await this.packs.require(id);
      try {
        await this.lifecycle.refundTable(pack);
      } catch (err) {
        if (!isDomainError(err)) throw err;
        this.logger.debug({ packId: id, err: err.message }, 'refund table not ready');
      }
      if (await this.payouts.fullyClaimed(pack, 'refund')) await this.repo.markRefundsClaimed(id);
    }
    await this.relayer.resumeStale(STALE_RUN_MS, now);
    return {
      at: now.toISOString(),
      entriesConfirmed: verified.confirmed,
      entriesFailed: verified.failed,
      locked,
      resolving,
      feesReleased,
      claimed,
    };
  }
}
