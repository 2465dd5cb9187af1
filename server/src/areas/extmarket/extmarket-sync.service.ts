import type { ExtEvent, ExternalExchange } from '../../adapters/extmarket/external-exchange.port.js';
import type { Logger } from '../../logger.js';
import type { Clock } from '../../platform/clock.js';
import type { JobEngine } from '../../platform/jobs/job-engine.js';
import type { ExtSyncStore } from './extmarket-sync.repository.js';

/** The durable queue of the external-market area's repeating jobs. */
export const EXTMARKET_QUEUE = 'extmarket';
export const CANONICAL_SYNC_JOB = 'canonical-sync';

/** What one run did; `failed` counts duels whose upstream call failed and were left as they were. */
export interface ExtSyncReport {
  readonly at: Date;
  readonly refreshed: number;
  readonly paired: number;
  readonly failed: number;
}

export interface ExtSyncDeps {
  readonly store: ExtSyncStore;
  readonly exchange: Pick<ExternalExchange, 'eventById' | 'search'>;
  readonly clock: Clock;
  /** Called once after a run that changed a duel (the duel list cache is invalidated). */
  readonly onChange: () => void;
  readonly logger?: Pick<Logger, 'warn'>;
  /** Unpaired duels looked up per run (one discovery search each); 50 unless told. */
  readonly pairBatch?: number;
}

/** A question as the pairing rule compares it: case, surrounding and repeated spaces, a final "?" ignored. */
export function normalizeQuestion(q: string): string {
  return q
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/\s*\?$/, '')
    .toLowerCase();
}

/** Gamma's 24 h volume (a USD number) in pUSD base units (6 decimals); null when it is not a volume. */
export function volumeBaseUnits(volume24hr: number): bigint | null {
  if (!Number.isFinite(volume24hr) || volume24hr < 0 || volume24hr >= 1e15) return null;
  const [whole, fraction = ''] = volume24hr.toFixed(6).split('.');
  return BigInt(`${whole}${fraction.padEnd(6, '0')}`);
}

/** Gamma event ids are decimal integers. */
const GAMMA_EVENT_ID = /^[0-9]+$/;

/** Whether the event is in play: the upstream says live and one of its markets still trades. */
const isLive = (e: ExtEvent): boolean => e.live && e.markets.some((m) => m.active && !m.closed);

/**
 * Keeps the canonical duels' external pairing current (docs/external-markets.md, "Canonical
 * sync"): refreshes the 24 h volume and live flag of every paired duel from its external event,
 * then pairs unpaired public credits duels whose question is the question of exactly one open
 * external market found by discovery search. A failed upstream call leaves that duel as it was.
 */
export class ExtSyncService {
  constructor(private readonly deps: ExtSyncDeps) {}

  /** Schedules the sync every `everyMs` on the job engine, once across all instances. */
  async attach(jobs: JobEngine, everyMs: number): Promise<void> {
    await jobs.every(EXTMARKET_QUEUE, CANONICAL_SYNC_JOB, everyMs, {});
    jobs.work<Record<string, never>>({
      queue: EXTMARKET_QUEUE,
      handler: async (_data, job) => {
        if (job.name === CANONICAL_SYNC_JOB) await this.run();
      },
    });
  }

  async run(): Promise<ExtSyncReport> {
    const now = new Date(this.deps.clock.now());
    let refreshed = 0;
    let paired = 0;
    let failed = 0;
    const pairedDuels = await this.deps.store.paired(now);
    const taken = new Set(pairedDuels.map((d) => d.extMarketId));

    for (const duel of pairedDuels) {
      // A pairing an operator made by hand with something other than a Gamma event id is theirs to keep.
      if (!GAMMA_EVENT_ID.test(duel.extMarketId)) continue;
      let event: ExtEvent | null;
      try {
        event = await this.deps.exchange.eventById(duel.extMarketId);
      } catch (err) {
        failed++;
        this.warn(err, duel.duelId, 'refresh');
        continue;
      }
      // An event the upstream no longer has trades no more: no volume, not live.
      const volume = event ? volumeBaseUnits(event.volume24hr) : 0n;
      if (volume === null) {
        failed++;
        this.warn(new Error(`volume24hr ${event?.volume24hr} is not a volume`), duel.duelId, 'refresh');
        continue;
      }
      const live = event ? isLive(event) : false;
      if (volume === duel.volume24h && live === duel.live) continue;
      if (await this.deps.store.refresh(duel.duelId, duel.extMarketId, volume, live)) refreshed++;
    }

    for (const duel of await this.deps.store.unpaired(now, this.deps.pairBatch ?? 50)) {
      const wanted = normalizeQuestion(duel.question);
      if (!wanted) continue;
      let events: readonly ExtEvent[];
      try {
        events = (await this.deps.exchange.search(duel.question, 10)).events;
      } catch (err) {
        failed++;
        this.warn(err, duel.duelId, 'pair');
        continue;
      }
      const matches = events.filter((e) =>
        e.markets.some((m) => m.active && !m.closed && normalizeQuestion(m.question) === wanted),
      );
      const ids = new Set(matches.map((e) => e.id));
      if (ids.size !== 1) continue;
      const event = matches[0] as ExtEvent;
      const volume = volumeBaseUnits(event.volume24hr);
      if (volume === null || taken.has(event.id)) continue;
      if (await this.deps.store.pair(duel.duelId, event.id, volume, isLive(event))) {
        taken.add(event.id);
        paired++;
      }
    }

    if (refreshed + paired > 0) this.deps.onChange();
    return { at: now, refreshed, paired, failed };
  }

  private warn(err: unknown, duelId: string, step: 'refresh' | 'pair'): void {
    this.deps.logger?.warn(
      { duelId, step, err: err instanceof Error ? err.message : String(err) },
      'external market sync: upstream call failed, duel left as it was',
    );
  }
}
