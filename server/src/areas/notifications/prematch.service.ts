import type { NotificationRepository, OutboxRow, PrematchCandidate } from './notification.repository.js';

/** What the cycle needs of storage (NotificationRepository on PostgreSQL). */
export type PrematchStore = Pick<
  NotificationRepository,
  'prematchCandidates' | 'fixturesBetween' | 'enqueue' | 'claim' | 'recordPrematchRun'
>;

/** Delivers the outbox rows a run took (PushService). */
export interface OutboxDeliverer {
  deliverClaimed(claimed: readonly OutboxRow[]): Promise<number>;
}

export const PREMATCH_KIND = 'prematch';

/** The outbox key of a reminder: one per user and fixture, ever. */
export function prematchKey(c: Pick<PrematchCandidate, 'user_id' | 'provider_fixture_id'>): string {
  return `prematch:${c.user_id}:${c.provider_fixture_id}`;
}

/**
 * The pre-match cycle (docs/operations.md, "Pre-match cycle"): each user with a pick, or an entry
 * still alive, in a fixture starting within the window is reminded once per fixture. The outbox's
 * unique dedupe key is the "once": any number of runs, on any number of instances, at the same
 * moment or not, records each (user, fixture) a single time; the locked claim delivers it once.
 */
export class PrematchService {
  constructor(
    private readonly store: PrematchStore,
    private readonly deliverer: OutboxDeliverer,
    private readonly settings: { readonly windowMinutes: number; readonly intervalMs: number },
  ) {}

  get windowMinutes(): number {
    return this.settings.windowMinutes;
  }

  get intervalMs(): number {
    return this.settings.intervalMs;
  }

  async run(now: Date) {
    const until = new Date(now.getTime() + this.settings.windowMinutes * 60_000);
    const candidates = await this.store.prematchCandidates(now, until);
    let enqueued = 0;
    for (const c of candidates) {
      const minutes = Math.max(0, Math.round((c.starts_at.getTime() - now.getTime()) / 60_000));
      const id = await this.store.enqueue({
        dedupeKey: prematchKey(c),
        userId: c.user_id,
        kind: PREMATCH_KIND,
        title: 'Kick-off soon',
        body: `${c.title} starts in ${minutes} min: check your picks.`,
        data: { fixtureId: c.provider_fixture_id, startsAt: c.starts_at.toISOString() },
        now,
      });
      if (id) enqueued++;
    }
    let delivered = 0;
    for (;;) {
      const claimed = await this.store.claim(50, PREMATCH_KIND);
      if (claimed.length === 0) break;
      delivered += await this.deliverer.deliverClaimed(claimed);
      if (claimed.length < 50) break;
    }
    const run = {
      windowMinutes: this.settings.windowMinutes,
      fixtures: await this.store.fixturesBetween(now, until),
      candidates: candidates.length,
      enqueued,
      delivered,
      ranAt: now,
    };
    await this.store.recordPrematchRun(run);
    return { ...run, ranAt: now.toISOString() };
  }
}
