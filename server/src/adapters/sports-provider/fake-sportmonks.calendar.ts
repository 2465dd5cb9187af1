/**
 * The fake provider's league calendar: a seeded, endless football season in which a fixture kicks
 * off every two hours, each with pre-match odds and a result that becomes known only once the
 * clock passes its full time. Everything is a function of the fixture id and the time asked
 * about, so every run (and every test that reads these functions) sees the same season.
 */

/** The league the calendar plays (the fake's other football payloads use it too). */
export const CALENDAR_LEAGUE_ID = 8;
/** Calendar fixture ids are this plus the kick-off slot number; ids below it belong to the fake's fixed payloads. */
export const CALENDAR_FIRST_ID = 50_000_000;
export const SLOT_MS = 2 * 3_600_000;
/** From kick-off to the final whistle, half-time and stoppage time included. */
export const FULL_TIME_MS = 110 * 60_000;

const TEAMS = [
  'Arsenal',
  'Chelsea',
  'Liverpool',
  'Everton',
  'Brighton',
  'Fulham',
  'Brentford',
  'Wolves',
  'Newcastle',
  'Burnley',
];

/** What the calendar says a fixture ends as. */
export type CalendarResult =
  | { readonly state: 'finished'; readonly homeGoals: number; readonly awayGoals: number }
  | { readonly state: 'cancelled' };

function mix(n: number): number {
  let x = n | 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

export function isCalendarFixture(id: number): boolean {
  return id >= CALENDAR_FIRST_ID;
}

export function kickoffOf(id: number): number {
  return (id - CALENDAR_FIRST_ID) * SLOT_MS;
}

/** Ids of the calendar's fixtures kicking off in [fromMs, toMs). */
export function calendarFixtureIds(fromMs: number, toMs: number): number[] {
  const first = Math.ceil(fromMs / SLOT_MS);
  const ids: number[] = [];
  for (let slot = first; slot * SLOT_MS < toMs; slot++) ids.push(CALENDAR_FIRST_ID + slot);
  return ids;
}

export function calendarTeams(id: number): { home: string; away: string; homeId: number; awayId: number } {
  const h = mix(id) % TEAMS.length;
  const a = (h + 1 + (mix(id * 7) % (TEAMS.length - 1))) % TEAMS.length;
  return { home: TEAMS[h] as string, away: TEAMS[a] as string, homeId: h + 1, awayId: a + 1 };
}

/** The result the fixture will have; about one fixture in 31 is cancelled. */
export function calendarResult(id: number): CalendarResult {
  if (mix(id ^ 0x5bd1e995) % 31 === 0) return { state: 'cancelled' };
  return { state: 'finished', homeGoals: mix(id + 1) % 4, awayGoals: mix(id + 2) % 3 };
}

/** Decimal odds (two decimals) of home, draw and away, with a 5% margin. */
export function calendarOdds(id: number): { home: string; draw: string; away: string } {
  const pHome = 0.25 + (mix(id * 3) % 36) / 100;
  const pDraw = 0.27;
  const price = (p: number) => (Math.floor(95 / p) / 100).toFixed(2);
  return { home: price(pHome), draw: price(pDraw), away: price(1 - pHome - pDraw) };
}

function sqlTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

const STATES = {
  NS: { id: 1, name: 'Not Started', short_name: 'NS' },
  INPLAY_1ST_HALF: { id: 2, name: '1st Half', short_name: '1st' },
  FT: { id: 5, name: 'Full Time', short_name: 'FT' },
  CANCELLED: { id: 8, name: 'Cancelled', short_name: 'CANC' },
} as const;

/** The v3 fixture as the provider shows it at `nowMs` (participants, scores and state included). */
export function calendarFixture(id: number, nowMs: number) {
  const kickoff = kickoffOf(id);
  const teams = calendarTeams(id);
  const result = calendarResult(id);
  const code: keyof typeof STATES =
    nowMs < kickoff
      ? 'NS'
      : result.state === 'cancelled'
        ? 'CANCELLED'
        : nowMs < kickoff + FULL_TIME_MS
          ? 'INPLAY_1ST_HALF'
          : 'FT';
  const goals =
    result.state === 'finished' && code === 'FT'
      ? { home: result.homeGoals, away: result.awayGoals }
      : code === 'INPLAY_1ST_HALF' && result.state === 'finished'
        ? { home: Math.floor(result.homeGoals / 2), away: Math.floor(result.awayGoals / 2) }
        : null;
  const winner = goals && code === 'FT' ? (goals.home === goals.away ? null : goals.home > goals.away) : null;
  return {
    id,
    sport_id: 1,
    league_id: CALENDAR_LEAGUE_ID,
    season_id: 23614,
    name: `${teams.home} vs ${teams.away}`,
    starting_at: sqlTime(kickoff),
    starting_at_timestamp: kickoff / 1000,
    result_info:
      code === 'FT'
        ? winner === null
          ? 'Game ended in draw.'
          : `${winner ? teams.home : teams.away} won after full-time.`
        : null,
    state_id: STATES[code].id,
    length: 90,
    has_odds: true,
    participants: [
      { id: teams.homeId, name: teams.home, meta: { location: 'home', winner: winner === null ? null : winner } },
      { id: teams.awayId, name: teams.away, meta: { location: 'away', winner: winner === null ? null : !winner } },
    ],
    scores: goals
      ? [
          {
            id: id * 10 + 1,
            fixture_id: id,
            type_id: 1525,
            participant_id: teams.homeId,
            score: { goals: goals.home, participant: 'home' },
            description: 'CURRENT',
          },
          {
            id: id * 10 + 2,
            fixture_id: id,
            type_id: 1525,
            participant_id: teams.awayId,
            score: { goals: goals.away, participant: 'away' },
            description: 'CURRENT',
          },
        ]
      : [],
    state: { ...STATES[code], state: code, developer_name: code },
    events: goals ? calendarEvents(id, teams, goals, nowMs - kickoff) : [],
  };
}

/** Sportmonks' event type ids: goal, yellow card, red card. */
const GOAL = 14;
const YELLOW = 19;

/**
 * The match's events as the provider lists them (`include=events`): one goal event per goal, at
 * minutes derived from the fixture id, the running score in `result`, a yellow card each half;
 * only those that have happened `elapsedMs` into the match.
 */
function calendarEvents(
  id: number,
  teams: { homeId: number; awayId: number; home: string; away: string },
  goals: { home: number; away: number },
  elapsedMs: number,
) {
  const played = Math.min(90, Math.floor(elapsedMs / 60_000));
  const minutes = (n: number, salt: number) =>
    Array.from({ length: n }, (_, i) => 1 + ((id * 7 + salt * 13 + i * 31) % 89)).sort((a, b) => a - b);
  const scorers = [
    ...minutes(goals.home, 1).map((minute) => ({ minute, side: 'home' as const })),
    ...minutes(goals.away, 2).map((minute) => ({ minute, side: 'away' as const })),
  ].sort((a, b) => a.minute - b.minute || (a.side === 'home' ? -1 : 1));
  let home = 0;
  let away = 0;
  const events: Record<string, unknown>[] = scorers.map((g, i) => {
    if (g.side === 'home') home++;
    else away++;
    return {
      id: id * 100 + i + 1,
      fixture_id: id,
      participant_id: g.side === 'home' ? teams.homeId : teams.awayId,
      type_id: GOAL,
      player_name: `Player ${g.side === 'home' ? teams.homeId : teams.awayId}-${1 + ((id + i) % 11)}`,
      minute: g.minute,
      result: `${home}-${away}`,
    };
  });
  for (const [i, minute] of [30 + (id % 14), 60 + (id % 25)].entries()) {
    const side = (id + i) % 2 === 0 ? teams.homeId : teams.awayId;
    events.push({
      id: id * 100 + 50 + i,
      fixture_id: id,
      participant_id: side,
      type_id: YELLOW,
      player_name: `Player ${side}-${2 + i}`,
      minute,
      result: null,
    });
  }
  return events
    .filter((e) => (e['minute'] as number) <= played)
    .sort((a, b) => (a['minute'] as number) - (b['minute'] as number) || (a['id'] as number) - (b['id'] as number));
}

/**
 * Pre-match 1X2 odds rows of two bookmakers: bookmaker 1 quotes home and away only, bookmaker 2
 * the full line (a client must take one bookmaker's complete line, not mix them).
 */
export function calendarOddsRows(id: number) {
  const odds = calendarOdds(id);
  const row = (n: number, bookmaker: number, label: string, value: string) => ({
    id: id * 10 + n,
    fixture_id: id,
    market_id: 1,
    bookmaker_id: bookmaker,
    label,
    value,
    name: label,
    market_description: 'Full Time Result',
    probability: `${(100 / Number(value)).toFixed(2)}%`,
    stopped: false,
  });
  return [
    row(1, 1, 'Home', odds.home),
    row(2, 1, 'Away', odds.away),
    row(3, 2, 'Home', odds.home),
    row(4, 2, 'Draw', odds.draw),
    row(5, 2, 'Away', odds.away),
  ];
}

/** Sportmonks' market ids of the goals over/under line and of the anytime goalscorer props. */
export const GOALS_OVER_UNDER_MARKET = 80;
export const ANYTIME_GOALSCORER_MARKET = 90;

/** Three attacking players per team, with stable ids derived from the team. */
export function calendarPlayers(id: number): { id: number; name: string; team: 'home' | 'away' }[] {
  const teams = calendarTeams(id);
  const of = (teamId: number, team: string, side: 'home' | 'away') =>
    [9, 10, 11].map((shirt) => ({ id: teamId * 100 + shirt, name: `${team} No.${shirt}`, team: side }));
  return [...of(teams.homeId, teams.home, 'home'), ...of(teams.awayId, teams.away, 'away')];
}

/**
 * Pre-match rows of the goals over/under 2.5 line and the anytime goalscorer props (bookmaker 2),
 * each priced with a 5% margin from a seeded probability.
 */
export function calendarPropRows(id: number) {
  const price = (p: number) => (Math.floor(95 / p) / 100).toFixed(2);
  const pOver = 0.4 + (mix(id * 5) % 21) / 100;
  const base = {
    fixture_id: id,
    bookmaker_id: 2,
    stopped: false,
  };
  const totals = [
    { ...base, id: id * 100 + 1, market_id: GOALS_OVER_UNDER_MARKET, label: 'Over', total: '2.5', value: price(pOver) },
    {
      ...base,
      id: id * 100 + 2,
      market_id: GOALS_OVER_UNDER_MARKET,
      label: 'Under',
      total: '2.5',
      value: price(1 - pOver),
    },
  ];
  const scorers = calendarPlayers(id).map((player, i) => ({
    ...base,
    id: id * 100 + 10 + i,
    market_id: ANYTIME_GOALSCORER_MARKET,
    label: player.name,
    name: player.name,
    participant_id: player.id,
    value: price(0.15 + (mix(player.id * 13 + id) % 26) / 100),
  }));
  return [...totals, ...scorers];
}
