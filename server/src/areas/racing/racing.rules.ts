import type {
  MotorsportEvent,
  MotorsportRound,
  MotorsportSeason,
} from '../../adapters/sports-provider/motorsport.port.js';
import { DomainError } from '../../errors.js';
import { POSITIONS, type SideBetPick, type SideBetProp } from './racing-scoring.math.js';

export type EventStatus = 'OPEN' | 'LIVE' | 'FINISHED' | 'CANCELLED';
export type RoundStatus = 'UPCOMING' | 'LIVE' | 'COMPLETED';

/** Events settled in a tournament: finished with a classification, or cancelled. */
export type SettledState = ReadonlyMap<number, 'finished' | 'cancelled'>;

/** An event's status at `now`: open until its lock (the session's start), live until settled. */
export function eventStatus(event: MotorsportEvent, now: Date, settled: SettledState): EventStatus {
  const s = settled.get(event.id);
  if (s === 'finished') return 'FINISHED';
  if (s === 'cancelled') return 'CANCELLED';
  return now < event.startsAt ? 'OPEN' : 'LIVE';
}

export function roundStatus(round: MotorsportRound, now: Date, settled: SettledState): RoundStatus {
  if (round.events.every((e) => settled.has(e.id))) return 'COMPLETED';
  const first = round.events[0];
  return first && now < first.startsAt ? 'UPCOMING' : 'LIVE';
}

export const allEvents = (season: MotorsportSeason): MotorsportEvent[] => season.rounds.flatMap((r) => r.events);

export function findRound(season: MotorsportSeason, roundId: number): MotorsportRound {
  const round = season.rounds.find((r) => r.id === roundId);
  if (!round) throw new DomainError('NOT_FOUND', `No round ${roundId} in this season`, { details: { roundId } });
  return round;
}

export function findEvent(season: MotorsportSeason, eventId: number): MotorsportEvent {
  const event = allEvents(season).find((e) => e.id === eventId);
  if (!event) throw new DomainError('NOT_FOUND', `No event ${eventId} in this season`, { details: { eventId } });
  return event;
}

/** The race of a weekend: its side bets settle on it and lock at its start. */
export function raceOf(round: MotorsportRound): MotorsportEvent {
  const race = round.events.find((e) => e.eventType === 'RACE') ?? round.events[round.events.length - 1];
  if (!race)
    throw new DomainError('NOT_FOUND', `Round ${round.id} has no sessions`, { details: { roundId: round.id } });
  return race;
}

/** Refuses a change to an event's prediction at or after its lock time (409 with the lock time). */
export function assertOpen(event: MotorsportEvent, now: Date): void {
  if (now >= event.startsAt) {
    throw new DomainError(
      'PREDICTION_LOCKED',
      `Predictions for event ${event.id} locked at ${event.startsAt.toISOString()}`,
      {
        details: { eventId: event.id, lockTime: event.startsAt.toISOString() },
      },
    );
  }
}

/**
 * Checks a predicted order: exactly the event type's number of places (POSITIONS), distinct
 * drivers, every one on the season's grid. Each failure has its own code.
 */
export function assertPrediction(
  event: MotorsportEvent,
  driverIds: readonly number[],
  grid: ReadonlySet<number>,
): void {
  const n = POSITIONS[event.eventType];
  if (driverIds.length !== n) {
    throw new DomainError('PREDICTION_WRONG_LENGTH', `A ${event.eventType} prediction lists exactly ${n} drivers`, {
      details: { expected: n, got: driverIds.length },
      fieldErrors: { 'body.driverIds': [`must list exactly ${n} drivers`] },
    });
  }
  const seen = new Set<number>();
  const duplicates = driverIds.filter((d) => (seen.has(d) ? true : (seen.add(d), false)));
  if (duplicates.length) {
    throw new DomainError('PREDICTION_DUPLICATE_DRIVER', 'A driver can hold one place only', {
      details: { duplicates: [...new Set(duplicates)] },
      fieldErrors: { 'body.driverIds': ['lists a driver more than once'] },
    });
  }
  const unknown = driverIds.filter((d) => !grid.has(d));
  if (unknown.length) {
    throw new DomainError('PREDICTION_UNKNOWN_DRIVER', 'Some drivers are not on this season’s grid', {
      details: { unknown },
      fieldErrors: { 'body.driverIds': ['lists drivers not on the grid'] },
    });
  }
}

export interface SideBetInput {
  readonly prop: SideBetProp;
  readonly driverId?: number | undefined;
  readonly value?: boolean | undefined;
  readonly count?: number | undefined;
}

/** A side bet as stored (`value` is a string) from its input, checked against the grid. */
export function sideBetValue(input: SideBetInput, grid: ReadonlySet<number>): string {
  const bad = (message: string) =>
    new DomainError('VALIDATION_FAILED', message, { fieldErrors: { 'body.sideBets': [message] } });
  switch (input.prop) {
    case 'FASTEST_LAP':
      if (input.driverId === undefined) throw bad('FASTEST_LAP needs driverId');
      if (!grid.has(input.driverId)) {
        throw new DomainError('PREDICTION_UNKNOWN_DRIVER', `Driver ${input.driverId} is not on the grid`, {
          details: { unknown: [input.driverId] },
        });
      }
      return String(input.driverId);
    case 'SAFETY_CAR':
      if (input.value === undefined) throw bad('SAFETY_CAR needs value (true or false)');
      return String(input.value);
    case 'DNF_COUNT':
      if (input.count === undefined) throw bad('DNF_COUNT needs count');
      return String(input.count);
  }
}

/** A stored side bet back in domain terms. */
export function sideBetPick(prop: string, value: string): SideBetPick {
  if (prop === 'FASTEST_LAP') return { prop, driverId: Number(value) };
  if (prop === 'SAFETY_CAR') return { prop, value: value === 'true' };
  return { prop: 'DNF_COUNT', count: Number(value) };
}

/**
 * Whether an entrant may re-enter now: a re-entry buys a fresh card for a new period, so it needs
 * a weekend finished since the current period began (a period with nothing played is not
 * replaced) and a weekend still to come (the new period must have something to score).
 */
export function reentryProblem(season: MotorsportSeason, periodStart: Date, now: Date): string | null {
  const played = season.rounds.some((r) => {
    const last = r.events[r.events.length - 1];
    const first = r.events[0];
    return first && last && first.startsAt >= periodStart && last.endsAt <= now;
  });
  if (!played) return 'No weekend has finished since your current entry began';
  const ahead = season.rounds.some((r) => r.events[0] && r.events[0].startsAt > now);
  if (!ahead) return 'No weekend is left to play: the last one has started';
  return null;
}

/** Whether an event scores for an entrant whose current period began at `periodStart`. */
export const countsForPeriod = (event: MotorsportEvent, periodStart: Date | undefined) =>
  !periodStart || event.startsAt >= periodStart;
