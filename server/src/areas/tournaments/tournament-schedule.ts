import type { FixtureOdds, FixturesPort, ProviderFixture } from '../../adapters/sports-provider/fixtures.port.js';
import { DomainError } from '../../errors.js';
import { FIXTURE_LENGTH_MS } from './tournament.types.js';

export interface StageWindowInput {
  readonly stageIndex: number;
  readonly startTime?: string | undefined;
  readonly endTime?: string | undefined;
}

export interface ScheduledFixture {
  readonly fixture: ProviderFixture;
  readonly odds: FixtureOdds;
}

export interface ScheduledStage {
  readonly stageIndex: number;
  readonly windowStart: Date;
  readonly windowEnd: Date;
  readonly fixtures: readonly ScheduledFixture[];
  readonly startsAt: Date;
  readonly endsAt: Date;
}

export interface ScheduleOptions {
  readonly leagueId: number;
  readonly start: Date;
  readonly stageHours: number;
  readonly fixturesPerStage: number;
  readonly now: Date;
}

const HOUR = 3_600_000;

/**
 * Picks each stage's fixtures from the provider: the first `fixturesPerStage` of the league that
 * kick off inside the stage's window, after now and after the previous stage's last fixture ends,
 * and that have pre-match odds. A stage window defaults to the hours after the stage before it.
 */
export async function scheduleStages(
  fixtures: FixturesPort,
  stages: readonly StageWindowInput[],
  options: ScheduleOptions,
): Promise<ScheduledStage[]> {
  const out: ScheduledStage[] = [];
  let earliest = options.now.getTime();
  let defaultStart = options.start.getTime();
  for (const stage of [...stages].sort((a, b) => a.stageIndex - b.stageIndex)) {
    const windowStart = stage.startTime ? Date.parse(stage.startTime) : defaultStart;
    const windowEnd = stage.endTime ? Date.parse(stage.endTime) : windowStart + options.stageHours * HOUR;
    if (windowEnd <= windowStart) {
      throw new DomainError('VALIDATION_FAILED', `Stage ${stage.stageIndex}'s window ends before it starts`, {
        fieldErrors: { [`body.stages.${stage.stageIndex - 1}.endTime`]: ['must be after startTime'] },
      });
    }
    const candidates = (
      await fixtures.fixturesBetween(options.leagueId, new Date(windowStart), new Date(windowEnd))
    ).filter((f) => f.startsAt.getTime() > earliest);
    const chosen: ScheduledFixture[] = [];
    for (const fixture of candidates) {
      if (chosen.length >= options.fixturesPerStage) break;
      const odds = await fixtures.odds(fixture.id);
      if (odds) chosen.push({ fixture, odds });
    }
    const first = chosen[0];
    const last = chosen[chosen.length - 1];
    if (!first || !last) {
      throw new DomainError('NO_FIXTURES', `No fixture with odds kicks off in stage ${stage.stageIndex}'s window`, {
        details: {
          stageIndex: stage.stageIndex,
          leagueId: options.leagueId,
          window: { start: new Date(windowStart).toISOString(), end: new Date(windowEnd).toISOString() },
          notBefore: new Date(earliest).toISOString(),
        },
      });
    }
    const endsAt = last.fixture.startsAt.getTime() + FIXTURE_LENGTH_MS;
    out.push({
      stageIndex: stage.stageIndex,
      windowStart: new Date(windowStart),
      windowEnd: new Date(windowEnd),
      fixtures: chosen,
      startsAt: first.fixture.startsAt,
      endsAt: new Date(endsAt),
    });
    // The next stage plays once this one's fixtures have ended.
    earliest = endsAt - 1;
    defaultStart = endsAt;
  }
  return out;
}
