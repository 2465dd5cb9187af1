import type { FixturesPort } from '../../adapters/sports-provider/fixtures.port.js';
import type { Clock } from '../../platform/clock.js';
import type { JobEngine } from '../../platform/jobs/job-engine.js';
import type { Logger } from '../../logger.js';
import type { FixtureResult } from './tournament-format.js';
import type { TournamentDb } from './tournament.repository.js';
import type { StandingsService } from './tournament-standings.service.js';

/** The area's one queue: its periodic tasks and the per-fixture jobs share a worker. */
export const TOURNAMENTS_QUEUE = 'tournaments';
export const FIXTURE_FINISHED = 'fixture-finished';

/** One job per finished fixture: settle its picks and recompute its tournament. */
export interface FixtureFinishedJob {
  readonly fixtureId: string;
}

/**
 * Results from the provider: fixtures past their expected end are looked up; once one is
 * finished (or void: cancelled, or still without a result at its expiry) its result is recorded
 * once and a durable job settles it. Fixtures with a result whose job has not finished are
 * handed to a job again, so a crash between the two loses nothing.
 */
export class ResultsService {
  private jobs: JobEngine | undefined;

  constructor(
    private readonly db: TournamentDb,
    private readonly fixtures: FixturesPort,
    private readonly standings: StandingsService,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Hands settlements to `jobs` (a worker on TOURNAMENTS_QUEUE runs them); without it, `sweep` settles inline. */
  attach(jobs: JobEngine): void {
    this.jobs = jobs;
  }

  /** The job of one finished fixture: settle its picks and recompute its tournament. */
  settle(data: FixtureFinishedJob): Promise<void> {
    return this.standings.settleFixture(data.fixtureId);
  }

  async sweep(): Promise<{ recorded: number; dispatched: number; activated: number }> {
    const now = new Date(this.clock.now());
    let recorded = 0;
    let dispatched = 0;
    for (const f of await this.db.read.tournaments.fixturesDue(now, 50)) {
      if (!f.result) {
        const outcome = await this.lookUp(f.providerFixtureId, now >= new Date(f.expiresAt));
        if (!outcome) continue;
        if (await this.db.read.tournaments.recordResult(f.id, outcome.result, outcome.home, outcome.away)) recorded++;
      }
      await this.dispatch(f.id);
      dispatched++;
    }
    // Tournaments whose first lock passed: the recompute records their activation.
    const due = await this.db.read.tournaments.awaitingActivation(now, 50);
    for (const id of due) await this.standings.recompute(id);
    return { recorded, dispatched, activated: due.length };
  }

  private async lookUp(
    providerFixtureId: number,
    expired: boolean,
  ): Promise<{ result: FixtureResult; home: number | null; away: number | null } | null> {
    try {
      const state = await this.fixtures.state(providerFixtureId);
      if (state.state === 'finished') return { result: state.outcome, home: state.homeScore, away: state.awayScore };
      if (state.state === 'void') return { result: 'VOID', home: null, away: null };
    } catch (err) {
      this.logger.warn({ err, providerFixtureId }, 'fixture result lookup failed; retrying on the next sweep');
      return null;
    }
    return expired ? { result: 'VOID', home: null, away: null } : null;
  }

  private async dispatch(fixtureId: string): Promise<void> {
    if (this.jobs) {
      await this.jobs.add(TOURNAMENTS_QUEUE, FIXTURE_FINISHED, { fixtureId }, { jobId: `fixture_${fixtureId}` });
    } else {
      await this.standings.settleFixture(fixtureId);
    }
  }
}
