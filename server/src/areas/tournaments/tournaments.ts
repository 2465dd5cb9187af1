import type { Address } from 'viem';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { DistributionBook } from '../../platform/merkle/distribution-book.js';
import type { FixturesPort } from '../../adapters/sports-provider/fixtures.port.js';
import type { Clock } from '../../platform/clock.js';
import type { Orm } from '../../platform/db/orm.js';
import type { JobEngine } from '../../platform/jobs/job-engine.js';
import type { Logger } from '../../logger.js';
import { BondService, type CollateralReader, type SignerLookup } from './tournament-bond.service.js';
import { CancellationService } from './tournament-cancellation.service.js';
import { CreateTournamentService } from './tournament-create.service.js';
import { EntryService } from './tournament-entry.service.js';
import { PicksService } from './tournament-picks.service.js';
import { RefundService } from './tournament-refunds.service.js';
import { TournamentTimeouts } from './tournament-timeouts.js';
import { TournamentReadService } from './tournament-read.service.js';
import { TournamentDb } from './tournament.repository.js';
import { FIXTURE_FINISHED, ResultsService, TOURNAMENTS_QUEUE, type FixtureFinishedJob } from './tournament-results.js';
import { StandingsService } from './tournament-standings.service.js';
import { TournamentStatsQueries } from './tournament-stats.queries.js';
import { TournamentViewsService } from './tournament-views.service.js';
import { WithdrawalService } from './tournament-withdrawal.service.js';
import { activationTimeouts, AutomationService, type TimeoutsStep } from './tournament-automation.service.js';
import { DisputeService } from './tournament-disputes.service.js';
import { PayoutService } from './tournament-payouts.service.js';
import { SettlementService } from './tournament-settlement.service.js';
import type { TournamentSettings } from './tournament.types.js';

/** Periodic work of the area, run once per interval across instances. */
export interface TournamentTask {
  readonly name: string;
  readonly everyMs: number;
  run(): Promise<unknown>;
}

/** The tournaments area as the container wires it. */
export interface Tournaments {
  readonly create: CreateTournamentService;
  readonly entries: EntryService;
  readonly withdrawals: WithdrawalService;
  readonly picks: PicksService;
  readonly reads: TournamentReadService;
  readonly views: TournamentViewsService;
  readonly bonds: BondService;
  readonly standings: StandingsService;
  readonly results: ResultsService;
  readonly disputes: DisputeService;
  readonly settlement: SettlementService;
  readonly payouts: PayoutService;
  readonly automation: AutomationService;
  /** Cancel requests, cancellation, discard and the admin lists. */
  readonly cancellations: CancellationService;
  /** Refund tables of cancelled tournaments, their roots on the vault and the proofs. */
  readonly refunds: RefundService;
  /** The automation's timeouts step (idempotent); also a periodic task. */
  readonly timeouts: TournamentTimeouts;
  readonly tasks: readonly TournamentTask[];
  /** Runs the area's workers and schedules its periodic work on the job engine. */
  attach(jobs: JobEngine): Promise<void>;
}

export interface TournamentsDeps {
  readonly orm: Orm;
  readonly vault: PrizeVaultPort;
  readonly chain: CollateralReader;
  readonly signers: SignerLookup;
  readonly fixtures: FixturesPort;
  readonly settings: TournamentSettings;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The shared Merkle module: payout and refund tables and their proofs. */
  readonly distributions: DistributionBook;
  /** Receives platform fees. */
  readonly treasury: Address;
}

export function createTournaments(deps: TournamentsDeps): Tournaments {
  const { vault, clock, logger, settings } = deps;
  const db = new TournamentDb(deps.orm);
  const stats = new TournamentStatsQueries(deps.orm);
  const standings = new StandingsService(db, clock, logger);
  const bonds = new BondService(db, vault, deps.chain, deps.signers, settings, logger);
  const reads = new TournamentReadService(db, stats, bonds, vault, clock);
  const entries = new EntryService(db, vault, deps.chain, deps.signers, standings, clock, logger);
  const withdrawals = new WithdrawalService(db, vault, standings, clock, logger);
  const results = new ResultsService(db, deps.fixtures, standings, clock, logger);
  const disputes = new DisputeService(db, reads, standings, settings, clock, logger);
  const settlement = new SettlementService(db, reads, settings, clock, logger);
  const payouts = new PayoutService(db, reads, deps.distributions, vault, settings, deps.treasury, clock);
  const refunds = new RefundService(db, deps.distributions, vault);
  const cancellations = new CancellationService(db, refunds, clock, logger);
  const timeouts = new TournamentTimeouts(db, cancellations, refunds, clock, logger);
  // The automation's timeouts step: cancel below the minimum at the first lock, then record the
  // activation of the tournaments that made it.
  const activation = activationTimeouts(db, standings);
  const timeoutsStep: TimeoutsStep = {
    async run(now) {
      const cancelling = await timeouts.run(now);
      const activating = await activation.run(now);
      return {
        ...activating,
        cancelled: cancelling.cancelled.map((c) => ({ ...c })),
        stagesLocked: cancelling.stagesLocked,
        refundTablesBuilt: cancelling.refundTablesBuilt,
      };
    },
  };
  const automation = new AutomationService(
    db,
    reads,
    disputes,
    settlement,
    payouts,
    timeoutsStep,
    settings,
    clock,
    logger,
  );
  const tasks: TournamentTask[] = [
    { name: 'tournament-results', everyMs: settings.resultsIntervalMs, run: () => results.sweep() },
    {
      name: 'tournament-releases',
      everyMs: 30_000,
      run: async () => ({ refunds: await withdrawals.retryRefunds(), bonds: await bonds.retryWithdrawals() }),
    },
    { name: 'tournament-automation', everyMs: settings.automationIntervalMs, run: () => automation.run('schedule') },
    { name: 'tournament-timeouts', everyMs: settings.timeoutsIntervalMs, run: () => timeouts.runNow() },
  ];
  return {
    create: new CreateTournamentService(db, vault, deps.fixtures, bonds, standings, settings, clock),
    entries,
    withdrawals,
    picks: new PicksService(db, clock),
    reads,
    views: new TournamentViewsService(db, reads, stats, vault, clock),
    bonds,
    standings,
    results,
    disputes,
    settlement,
    payouts,
    automation,
    cancellations,
    refunds,
    timeouts,
    tasks,
    async attach(jobs) {
      results.attach(jobs);
      const byName = new Map(tasks.map((t) => [t.name, t]));
      for (const task of tasks) await jobs.every(TOURNAMENTS_QUEUE, task.name, task.everyMs, {});
      // One worker for the area: each worker holds a connection, and the embedded database has few.
      jobs.work<FixtureFinishedJob | Record<string, never>>({
        queue: TOURNAMENTS_QUEUE,
        concurrency: 2,
        handler: async (data, job) => {
          if (job.name === FIXTURE_FINISHED) await results.settle(data as FixtureFinishedJob);
          else await byName.get(job.name)?.run();
        },
      });
    },
  };
}
