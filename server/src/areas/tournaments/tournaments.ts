import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { FixturesPort } from '../../adapters/sports-provider/fixtures.port.js';
import type { Clock } from '../../platform/clock.js';
import type { Orm } from '../../platform/db/orm.js';
import type { JobEngine } from '../../platform/jobs/job-engine.js';
import type { Logger } from '../../logger.js';
import { BondService, type CollateralReader, type SignerLookup } from './tournament-bond.service.js';
import { CreateTournamentService } from './tournament-create.service.js';
import { EntryService } from './tournament-entry.service.js';
import { PicksService } from './tournament-picks.service.js';
import { TournamentReadService } from './tournament-read.service.js';
import { TournamentDb } from './tournament.repository.js';
import { FIXTURE_FINISHED, ResultsService, TOURNAMENTS_QUEUE, type FixtureFinishedJob } from './tournament-results.js';
import { StandingsService } from './tournament-standings.service.js';
import { TournamentStatsQueries } from './tournament-stats.queries.js';
import { TournamentViewsService } from './tournament-views.service.js';
import { WithdrawalService } from './tournament-withdrawal.service.js';
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
  const tasks: TournamentTask[] = [
    { name: 'tournament-results', everyMs: settings.resultsIntervalMs, run: () => results.sweep() },
    {
      name: 'tournament-releases',
      everyMs: 30_000,
      run: async () => ({ refunds: await withdrawals.retryRefunds(), bonds: await bonds.retryWithdrawals() }),
    },
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
