/** Deterministic, plausible provider payloads for the fake (v3 and cricket v2 shapes). */

const TEAMS = ['Arsenal', 'Chelsea', 'Liverpool', 'Everton', 'Brighton', 'Fulham', 'Brentford', 'Wolves'];
const DRIVERS = ['Verstappen', 'Norris', 'Leclerc', 'Piastri', 'Hamilton', 'Russell', 'Sainz', 'Alonso'];
const CRICKET = ['India', 'Australia', 'England', 'New Zealand', 'Pakistan', 'South Africa'];

const pick = <T>(list: readonly T[], n: number): T => list[Math.abs(n) % list.length] as T;

export function footballTeam(id: number) {
  return {
    id,
    sport_id: 1,
    country_id: 462,
    venue_id: 200 + (id % 50),
    name: pick(TEAMS, id),
    short_code: pick(TEAMS, id).slice(0, 3).toUpperCase(),
    image_path: `https://cdn.example.invalid/teams/${id}.png`,
    founded: 1880 + (id % 100),
    type: 'domestic',
  };
}

export function footballFixture(id: number, state: 'NS' | 'INPLAY_1ST_HALF' | 'FT' = 'NS') {
  const home = (id % 40) + 1;
  const away = home + 1;
  const startingAt = new Date(Date.UTC(2026, 10, 22, 15) + (id % 30) * 3_600_000).toISOString();
  return {
    id,
    sport_id: 1,
    league_id: 8,
    season_id: 23614,
    name: `${pick(TEAMS, home)} vs ${pick(TEAMS, away)}`,
    starting_at: startingAt.replace('T', ' ').slice(0, 19),
    result_info: state === 'FT' ? `${pick(TEAMS, home)} won after full-time.` : null,
    state_id: state === 'FT' ? 5 : state === 'NS' ? 1 : 2,
    length: 90,
    has_odds: true,
    participants: [
      { ...footballTeam(home), meta: { location: 'home', winner: state === 'FT' ? true : null, position: 1 } },
      { ...footballTeam(away), meta: { location: 'away', winner: state === 'FT' ? false : null, position: 2 } },
    ],
    scores:
      state === 'NS'
        ? []
        : [
            {
              id: id * 10 + 1,
              fixture_id: id,
              type_id: 1525,
              participant_id: home,
              score: { goals: 1, participant: 'home' },
              description: 'CURRENT',
            },
            {
              id: id * 10 + 2,
              fixture_id: id,
              type_id: 1525,
              participant_id: away,
              score: { goals: 0, participant: 'away' },
              description: 'CURRENT',
            },
          ],
    state: {
      id: state === 'FT' ? 5 : state === 'NS' ? 1 : 2,
      state,
      name: state === 'FT' ? 'Full Time' : state === 'NS' ? 'Not Started' : '1st Half',
      short_name: state === 'INPLAY_1ST_HALF' ? '1st' : state,
      developer_name: state,
    },
    events:
      state === 'NS'
        ? []
        : [
            {
              id: id * 100 + 1,
              fixture_id: id,
              participant_id: home,
              type_id: 14,
              player_name: 'B. Saka',
              minute: 23,
              result: '1-0',
            },
          ],
    lineups: [],
  };
}

export function squad(teamId: number) {
  return Array.from({ length: 18 }, (_, i) => ({
    id: teamId * 100 + i,
    transfer_id: null,
    player_id: teamId * 1000 + i,
    team_id: teamId,
    position_id: 24 + (i % 4),
    jersey_number: i + 1,
    start: '2025-07-01',
    end: '2027-06-30',
    player: {
      id: teamId * 1000 + i,
      display_name: `Player ${teamId}-${i + 1}`,
      date_of_birth: `199${i % 10}-0${(i % 9) + 1}-15`,
    },
  }));
}

/** The team with statistics for the given seasons (`statistics.details` include). */
export function teamSeasonStatistics(teamId: number, seasonIds: readonly number[]) {
  return {
    ...footballTeam(teamId),
    statistics: seasonIds.map((seasonId) => ({
      id: teamId * 7 + seasonId,
      team_id: teamId,
      season_id: seasonId,
      has_values: true,
      details: [
        { id: 1, type_id: 52, value: { all: { count: 30 + ((teamId + seasonId) % 20), average: 1.6 } } },
        { id: 2, type_id: 88, value: { all: { count: 20 + ((teamId + seasonId) % 10), average: 1.1 } } },
        { id: 3, type_id: 214, value: { all: { count: 12 + ((teamId + seasonId) % 8) } } },
      ],
    })),
  };
}

export function newsItem(id: number) {
  return {
    id,
    fixture_id: 18_000_000 + id,
    league_id: 8,
    title: `Preview: ${pick(TEAMS, id)} vs ${pick(TEAMS, id + 1)}`,
    type: 'prematch',
  };
}

export function odds(fixtureId: number) {
  return [1, 2, 3].map((label, i) => ({
    id: fixtureId * 10 + i,
    fixture_id: fixtureId,
    market_id: 1,
    bookmaker_id: 2,
    label: ['Home', 'Draw', 'Away'][i],
    value: ['2.10', '3.40', '3.60'][i],
    probability: ['47.62%', '29.41%', '27.78%'][i],
    sort_order: label,
  }));
}

export function race(id: number) {
  return {
    id,
    sport_id: 2,
    league_id: 1,
    season_id: 2026,
    name: `Grand Prix ${id}`,
    starting_at: '2026-11-29 13:00:00',
    state_id: 1,
    length: 57,
  };
}

export function driver(id: number, rank?: number) {
  return {
    id,
    name: pick(DRIVERS, id),
    display_name: pick(DRIVERS, id),
    country_id: 10 + (id % 20),
    ...(rank ? { position: rank, points: 400 - rank * 23 } : {}),
  };
}

export function cricketFixture(id: number) {
  return {
    resource: 'fixtures',
    id,
    league_id: 3,
    season_id: 1689,
    stage_id: 10,
    round: '1st ODI',
    localteam_id: (id % 6) + 1,
    visitorteam_id: ((id + 1) % 6) + 1,
    starting_at: '2026-11-23T09:30:00.000000Z',
    type: 'ODI',
    live: false,
    status: 'NS',
    note: '',
    venue_id: 5,
  };
}

export function cricketTeam(id: number) {
  return {
    resource: 'teams',
    id,
    name: pick(CRICKET, id),
    code: pick(CRICKET, id).slice(0, 3).toUpperCase(),
    image_path: `https://cdn.example.invalid/cricket/${id}.png`,
    country_id: id,
    national_team: true,
  };
}

export function cricketPlayer(id: number) {
  return {
    resource: 'players',
    id,
    firstname: 'Player',
    lastname: String(id),
    fullname: `Player ${id}`,
    position: { resource: 'positions', id: 1 + (id % 4), name: 'Batsman' },
  };
}
