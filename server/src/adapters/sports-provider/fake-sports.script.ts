import {
  calendarResult,
  calendarTeams,
  FULL_TIME_MS,
  isCalendarFixture,
  kickoffOf,
} from './fake-sportmonks.calendar.js';
import { fakeClassification, fakeEvent } from './fake-motorsport.season.js';

/** How a fixture of the local simulator's league calendar ends. */
export interface ScriptedFixture {
  readonly id: number;
  readonly home: string;
  readonly away: string;
  readonly kickoffAt: string;
  /** When the result is posted: kick-off plus 110 minutes. */
  readonly fullTimeAt: string;
  readonly state: 'finished' | 'cancelled';
  readonly homeGoals: number | null;
  readonly awayGoals: number | null;
  /** The 1X2 outcome; null for a cancelled fixture (tournament picks on it are void). */
  readonly outcome: 'HOME' | 'DRAW' | 'AWAY' | null;
}

/** How a session of the local simulator's motorsport season ends. */
export interface ScriptedRaceEvent {
  readonly id: number;
  readonly roundId: number;
  readonly eventType: string;
  readonly startsAt: string;
  readonly endsAt: string;
  /** Driver ids, winner first; retirements last. */
  readonly order: readonly number[];
  readonly fastestLapDriverId: number | null;
  readonly dnfDriverIds: readonly number[];
  readonly safetyCar: boolean;
}

/**
 * What the local sports simulator will play, told ahead of time: the results of its football
 * calendar and the classifications of its motorsport sessions. Both are pure functions of the id,
 * so every instance of the server plays the same script. A builder's tests and demos read it
 * through the operator surface (`pnpm sports:script`) to set up a winner and a loser.
 */
export const fakeSportsScript = {
  fixture(id: number): ScriptedFixture | null {
    if (!Number.isSafeInteger(id) || !isCalendarFixture(id)) return null;
    const kickoff = kickoffOf(id);
    const teams = calendarTeams(id);
    const result = calendarResult(id);
    const finished = result.state === 'finished' ? result : null;
    const outcome =
      finished === null
        ? null
        : finished.homeGoals > finished.awayGoals
          ? 'HOME'
          : finished.homeGoals < finished.awayGoals
            ? 'AWAY'
            : 'DRAW';
    return {
      id,
      home: teams.home,
      away: teams.away,
      kickoffAt: new Date(kickoff).toISOString(),
      fullTimeAt: new Date(kickoff + FULL_TIME_MS).toISOString(),
      state: result.state,
      homeGoals: finished?.homeGoals ?? null,
      awayGoals: finished?.awayGoals ?? null,
      outcome,
    };
  },

  raceEvent(id: number): ScriptedRaceEvent | null {
    const event = Number.isSafeInteger(id) ? fakeEvent(id) : null;
    if (!event) return null;
    const result = fakeClassification(event);
    return {
      id,
      roundId: event.roundId,
      eventType: event.eventType,
      startsAt: event.startsAt.toISOString(),
      endsAt: event.endsAt.toISOString(),
      order: result.order,
      fastestLapDriverId: result.fastestLapDriverId,
      dnfDriverIds: result.dnfDriverIds,
      safetyCar: result.safetyCar,
    };
  },
};

export type SportsScript = typeof fakeSportsScript;
