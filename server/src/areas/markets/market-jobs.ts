import type { ChainPort } from '../../adapters/chain/chain.port.js';
import type { DuelRepository } from './duel.repository.js';
import type { MarketEventLogRepository } from './market-event-log.repository.js';
import type { ChainTxPipeline } from '../../platform/chain-tx/chain-tx.pipeline.js';
import type { MarketIndexer } from './market-indexer.js';
import type { JobEngine } from '../../platform/jobs/job-engine.js';
import type { Logger } from '../../logger.js';
import type { Clock } from '../../platform/clock.js';

export const MARKETS_QUEUE = 'markets';

/** A scheduled task of the markets area: run once per interval across all instances. */
export interface ScheduledTask {
  readonly name: string;
  readonly everyMs: number;
  run(now: Date): Promise<unknown>;
}

/**
 * Creations the chain never confirmed: a reverted transaction marks the duel failed with the
 * reason; a record whose transaction was never sent (the process died in between) fails after
 * `staleMs` at `now` (its creation time is the database's, so `now` is wall-clock time). Runs on the job engine.
 */
export async function reconcilePendingDuels(
  duels: DuelRepository,
  chain: ChainPort,
  staleMs: number,
  now: Date,
): Promise<number> {
  const pending = await duels.pendingCreations(200);
  let changed = 0;
  for (const row of pending) {
    if (!row.tx_hash) {
      if (now.getTime() - new Date(row.created_at).getTime() < staleMs) continue;
      await duels.failPendingCreation(row.duel_id, 'the creation transaction was never sent');
      changed++;
      continue;
    }
    if ((await chain.transactionStatus(row.tx_hash as `0x${string}`)) === 'reverted') {
      await duels.failPendingCreation(row.duel_id, 'the creation transaction reverted on chain');
      changed++;
    }
  }
  return changed;
}

/**
 * What the markets area does when a recorded write reaches its outcome: a creation that reverted
 * or could never be mined marks its duel failed, with the reason, in the same transaction; a
 * trade that did writes its `bet.failed` event.
 */
export function registerMarketOutcomes(
  pipeline: ChainTxPipeline,
  duels: DuelRepository,
  events: MarketEventLogRepository,
): void {
  // A trade the server accepted but the chain refused is announced as `bet.failed`.
  // Only refusals: a mined write is settled without a transaction of its own.
  for (const kind of ['markets.buy', 'markets.sell']) {
    pipeline.onOutcome(
      kind,
      async (sql, tx, outcome) => {
        if (outcome.status !== 'mined') await events.betFailed(sql, tx, outcome);
      },
      ['reverted', 'failed'],
    );
  }
  pipeline.onOutcome(
    'markets.create',
    async (sql, tx, outcome) => {
      if (outcome.status === 'mined') return;
      const duelId = tx.effect?.['duelId'];
      if (typeof duelId !== 'string') return;
      const reason =
        outcome.status === 'reverted'
          ? 'the creation transaction reverted on chain'
          : `the creation failed: ${outcome.reason}`;
      await duels.failPendingCreation(duelId.toLowerCase(), reason, sql);
    },
    ['reverted', 'failed'],
  );
}

/**
 * Puts the markets area's periodic work on the durable job engine: one scheduler entry per task
 * (once across instances) and one worker that runs whichever is due. Delivery is at least once;
 * every task is idempotent.
 */
export async function scheduleMarketJobs(
  jobs: JobEngine,
  tasks: readonly ScheduledTask[],
  logger: Logger,
  clock: Clock,
): Promise<void> {
  const byName = new Map(tasks.map((t) => [t.name, t]));
  for (const task of tasks) await jobs.every(MARKETS_QUEUE, task.name, task.everyMs, {});
  jobs.work<Record<string, never>>({
    queue: MARKETS_QUEUE,
    handler: async (_data, job) => {
      const task = byName.get(job.name);
      if (!task) {
        logger.warn({ job: job.name }, 'no task for scheduled job');
        return;
      }
      await task.run(new Date(clock.now()));
    },
  });
}

/** The indexer as a scheduled task. */
export function indexerTask(indexer: MarketIndexer, everyMs: number): ScheduledTask {
  return {
    name: 'index-markets',
    everyMs,
    // Catch up in one go after downtime: keep reading batches while there are blocks to read.
    async run() {
      for (let i = 0; i < 20; i++) {
        if ((await indexer.runOnce()).caughtUp) return;
      }
    },
  };
}
