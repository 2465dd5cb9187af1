import type { Clock } from '../../platform/clock.js';
import type {
  EventState,
  MotorsportDriver,
  MotorsportEvent,
  MotorsportPort,
  MotorsportRound,
  MotorsportSeason,
  MotorsportTeam,
  RaceEventType,
} from './motorsport.port.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The fake's teams, fastest first: a team's place sets its drivers' pace. */
const TEAMS: readonly string[] = [
  'Meridian Racing',
  'Vortex GP',
  'Halcyon Motorsport',
  'Ironbark F1',
  'Solstice Racing',
  'Kestrel Works',
  'Tidewater GP',
  'Argent Motorsport',
  'Nimbus Racing',
  'Basalt F1',
];

const DRIVERS: readonly (readonly [code: string, name: string])[] = [
  ['VAL', 'Leo Valtari'],
  ['OKA', 'Ren Okafor'],
  ['MAR', 'Ines Marchetti'],
  ['BRE', 'Tomas Brenner'],
  ['HAL', 'Aiko Halloran'],
  ['DUP', 'Jules Dupont'],
  ['KOV', 'Mika Kovacs'],
  ['SAN', 'Diego Santoro'],
  ['LIN', 'Freya Lindqvist'],
  ['ABE', 'Kenji Abe'],
  ['ROS', 'Nico Rosewall'],
  ['FER', 'Lucas Ferreira'],
  ['NOV', 'Petra Novak'],
  ['OBR', 'Sean OBrien'],
  ['WEI', 'Chen Wei'],
  ['MOR', 'Rafael Morales'],
  ['PAT', 'Arjun Patel'],
  ['SCH', 'Lena Schulz'],
  ['DAV', 'Owen Davies'],
  ['GRA', 'Sofia Grant'],
];

/** One weekend of the fake's compressed season: sessions as [type, hours after the season's day starts, length in hours]. */
interface WeekendPlan {
  readonly gpName: string;
  readonly circuitName: string;
  readonly country: string;
  readonly sessions: readonly (readonly [RaceEventType, number, number])[];
}

const WEEKENDS: readonly WeekendPlan[] = [
  {
    gpName: 'Aurora Grand Prix',
    circuitName: 'Aurora Street Circuit',
    country: 'Norway',
    sessions: [
      ['QUALIFYING', 10, 1],
      ['RACE', 12, 2],
    ],
  },
  {
    gpName: 'Coastline Grand Prix',
    circuitName: 'Porto Azul Autodromo',
    country: 'Portugal',
    sessions: [
      ['SPRINT_QUALIFYING', 14, 1],
      ['SPRINT', 15, 1],
      ['QUALIFYING', 16, 1],
      ['RACE', 17, 2],
    ],
  },
  {
    gpName: 'Desert Night Grand Prix',
    circuitName: 'Dunes International Circuit',
    country: 'Oman',
    sessions: [
      ['QUALIFYING', 20, 1],
      ['RACE', 21, 2],
    ],
  },
];

/** Seeded, reproducible randomness (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const fakeDrivers = (): MotorsportDriver[] =>
  DRIVERS.map(([code, name], i) => {
    const teamIndex = Math.floor(i / 2);
    return { id: 101 + i, code, name, number: 2 + i * 3, teamId: 11 + teamIndex, teamName: TEAMS[teamIndex] ?? '' };
  });

const fakeTeams = (): MotorsportTeam[] => TEAMS.map((name, i) => ({ id: 11 + i, name }));

/** The fake's season ids are UTC day numbers: season `d` runs on day `d` from 10:00 to 23:00 UTC. */
export const seasonStart = (seasonId: number) => seasonId * DAY;

export function fakeSeason(seasonId: number): MotorsportSeason {
  const dayStart = seasonStart(seasonId);
  const rounds: MotorsportRound[] = WEEKENDS.map((w, r) => {
    const roundId = seasonId * 10 + r + 1;
    const events: MotorsportEvent[] = w.sessions.map(([eventType, at, hours], i) => ({
      id: roundId * 10 + i + 1,
      roundId,
      eventType,
      startsAt: new Date(dayStart + at * HOUR),
      endsAt: new Date(dayStart + (at + hours) * HOUR),
    }));
    return {
      id: roundId,
      roundNumber: r + 1,
      gpName: w.gpName,
      circuitName: w.circuitName,
      country: w.country,
      sprint: w.sessions.some(([t]) => t === 'SPRINT'),
      events,
    };
  });
  return { id: seasonId, name: `Fake season ${seasonId}`, rounds, drivers: fakeDrivers(), teams: fakeTeams() };
}

/** Where an event of the fake lives: its season, round and session, or null for an id it never issued. */
export function fakeEvent(eventId: number): MotorsportEvent | null {
  const seasonId = Math.floor(eventId / 100);
  if (seasonId <= 0) return null;
  for (const round of fakeSeason(seasonId).rounds) {
    const event = round.events.find((e) => e.id === eventId);
    if (event) return event;
  }
  return null;
}

/**
 * The classification the fake posts for an event: the drivers ordered by their team's pace plus
 * seeded noise (more in races than in qualifying), with 0–3 retirements in sprints and races, a
 * fastest lap among the top ten and a safety car in about half the races. Pure: the same event id
 * always finishes the same way.
 */
export function fakeClassification(event: MotorsportEvent): Extract<EventState, { state: 'finished' }> {
  const rnd = random(event.id * 7919 + 17);
  const racing = event.eventType === 'RACE' || event.eventType === 'SPRINT';
  const noise = racing ? 9 : 5;
  const drivers = fakeDrivers();
  const paced = drivers
    .map((d, i) => ({ id: d.id, pace: i / 2 + rnd() * noise }))
    .sort((a, b) => a.pace - b.pace || a.id - b.id)
    .map((d) => d.id);
  const dnfCount = racing ? Math.floor(rnd() * 4) : 0;
  const dnf: number[] = [];
  while (dnf.length < dnfCount) {
    // Retirements come from the back half more often than from the front.
    const pick = paced[Math.floor(Math.sqrt(rnd()) * paced.length)];
    if (pick !== undefined && !dnf.includes(pick)) dnf.push(pick);
  }
  const finishers = paced.filter((id) => !dnf.includes(id));
  const order = [...finishers, ...dnf];
  const fastest = racing ? (finishers[Math.floor(rnd() * Math.min(10, finishers.length))] ?? null) : null;
  return {
    state: 'finished',
    order,
    fastestLapDriverId: fastest,
    dnfDriverIds: dnf,
    safetyCar: racing && rnd() < 0.5,
  };
}

/** The state of a fake event at `now`: scheduled before its start, running until its end, then finished. */
export function fakeEventState(event: MotorsportEvent, now: number): EventState {
  if (now < event.startsAt.getTime()) return { state: 'scheduled' };
  if (now < event.endsAt.getTime()) return { state: 'running' };
  return fakeClassification(event);
}

/**
 * A deterministic, clock-driven motorsport season for the embedded default and the tests: one
 * compressed season per UTC day (three weekends, one of them a sprint weekend, ten sessions from
 * 10:00 to 23:00), the same twenty drivers and ten teams, and results that post as the injected
 * clock passes each session's end. Nothing is random between runs.
 */
export class FakeMotorsportSeason implements MotorsportPort {
  constructor(private readonly clock: Clock) {}

  currentSeasonId(at: Date): Promise<number | null> {
    const day = Math.floor(at.getTime() / DAY);
    const first = fakeSeason(day).rounds[0]?.events[0];
    // Once today's first session has started, the next season is tomorrow's.
    return Promise.resolve(first && at < first.startsAt ? day : day + 1);
  }

  season(seasonId: number): Promise<MotorsportSeason | null> {
    return Promise.resolve(Number.isSafeInteger(seasonId) && seasonId > 0 ? fakeSeason(seasonId) : null);
  }

  eventState(eventId: number): Promise<EventState> {
    const event = fakeEvent(eventId);
    if (!event) return Promise.resolve({ state: 'cancelled', reason: 'the provider does not know this event' });
    return Promise.resolve(fakeEventState(event, this.clock.now()));
  }
}
