/** The kinds of session of a Grand Prix weekend that can be predicted. */
export type RaceEventType = 'QUALIFYING' | 'SPRINT_QUALIFYING' | 'SPRINT' | 'RACE';

export interface MotorsportTeam {
  readonly id: number;
  readonly name: string;
}

export interface MotorsportDriver {
  readonly id: number;
  readonly code: string;
  readonly name: string;
  readonly number: number;
  readonly teamId: number;
  readonly teamName: string;
}

/** One session of a weekend; predictions on it lock at `startsAt`, results are in after `endsAt`. */
export interface MotorsportEvent {
  readonly id: number;
  readonly roundId: number;
  readonly eventType: RaceEventType;
  readonly startsAt: Date;
  readonly endsAt: Date;
}

/** A Grand Prix weekend. */
export interface MotorsportRound {
  readonly id: number;
  readonly roundNumber: number;
  readonly gpName: string;
  readonly circuitName: string;
  readonly country: string;
  readonly sprint: boolean;
  readonly events: readonly MotorsportEvent[];
}

export interface MotorsportSeason {
  readonly id: number;
  readonly name: string;
  readonly rounds: readonly MotorsportRound[];
  readonly drivers: readonly MotorsportDriver[];
  readonly teams: readonly MotorsportTeam[];
}

/** The official classification of a finished session. */
export interface EventClassification {
  /** Every classified driver id, winner first; the DNFs follow in the order they retired (last retired first). */
  readonly order: readonly number[];
  readonly fastestLapDriverId: number | null;
  readonly dnfDriverIds: readonly number[];
  readonly safetyCar: boolean;
}

/** Where a session stands at the provider. */
export type EventState =
  | { readonly state: 'scheduled' | 'running' }
  | ({ readonly state: 'finished' } & EventClassification)
  | { readonly state: 'cancelled'; readonly reason: string };

/**
 * Motorsport seasons and results in domain terms, above the provider's HTTP API: the racing area
 * speaks seasons, rounds, sessions and classifications, never URLs. Failures are DomainErrors
 * (UPSTREAM_*); an unknown season answers null.
 */
export interface MotorsportPort {
  /** The season that is running or comes next at `at` (the default of a new racing tournament). */
  currentSeasonId(at: Date): Promise<number | null>;
  season(seasonId: number): Promise<MotorsportSeason | null>;
  eventState(eventId: number): Promise<EventState>;
}
