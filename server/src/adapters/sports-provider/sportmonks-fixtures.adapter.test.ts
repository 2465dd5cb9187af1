import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { isDomainError } from '../../errors.js';
import {
  CALENDAR_LEAGUE_ID,
  FULL_TIME_MS,
  calendarFixtureIds,
  calendarOdds,
  calendarPlayers,
  calendarPropRows,
  calendarResult,
  kickoffOf,
} from './fake-sportmonks.calendar.js';
import { startFakeSportsProvider, type FakeSportmonks } from './fake-sportmonks.server.js';
import { SportmonksFixturesAdapter, oddsX100 } from './sportmonks-fixtures.adapter.js';

const clock = new ManualClock(Date.UTC(2026, 11, 1, 9));
let fake: FakeSportmonks;
let close: () => Promise<void>;
let fixtures: SportmonksFixturesAdapter;

beforeAll(async () => {
  const started = await startFakeSportsProvider({ timeoutMs: 2_000, clock });
  fake = started.fake;
  close = started.close;
  fixtures = new SportmonksFixturesAdapter(started.provider);
});
afterAll(() => close());
beforeEach(() => fake.setMode(null));

const at = (h: number, day = 1) => new Date(Date.UTC(2026, 11, day, h));

describe('fixtures from the provider (fake league calendar)', () => {
  it('lists a league’s fixtures kicking off in a window, earliest first, across pages', async () => {
    const window = await fixtures.fixturesBetween(CALENDAR_LEAGUE_ID, at(10), at(16));
    expect(window.map((f) => f.startsAt.toISOString())).toEqual([
      '2026-12-01T10:00:00.000Z',
      '2026-12-01T12:00:00.000Z',
      '2026-12-01T14:00:00.000Z',
    ]);
    expect(window[0]).toMatchObject({
      leagueId: CALENDAR_LEAGUE_ID,
      name: `${window[0]?.homeTeam} vs ${window[0]?.awayTeam}`,
    });
    expect(window[0]?.homeTeam).not.toBe(window[0]?.awayTeam);

    const fiveDays = await fixtures.fixturesBetween(CALENDAR_LEAGUE_ID, at(0, 2), at(0, 7));
    expect(fiveDays.map((f) => f.id)).toEqual(calendarFixtureIds(at(0, 2).getTime(), at(0, 7).getTime()));
    expect(fiveDays).toHaveLength(60);
    expect(await fixtures.fixturesBetween(501, at(10), at(16))).toEqual([]);
  });

  it('takes one bookmaker’s complete full-time line', async () => {
    const [first] = calendarFixtureIds(at(10).getTime(), at(11).getTime());
    const expected = calendarOdds(first as number);
    expect(await fixtures.odds(first as number)).toEqual({
      home: oddsX100(expected.home),
      draw: oddsX100(expected.draw),
      away: oddsX100(expected.away),
    });
  });

  it('knows a result only once the clock passes full time, and reports cancellations as void', async () => {
    const ids = calendarFixtureIds(at(0, 3).getTime(), at(0, 20).getTime());
    const played = ids.find((id) => calendarResult(id).state === 'finished') as number;
    const cancelled = ids.find((id) => calendarResult(id).state === 'cancelled') as number;
    clock.advance(kickoffOf(played) - clock.now() - 1);
    expect(await fixtures.state(played)).toEqual({ state: 'scheduled' });
    clock.advance(2);
    expect(await fixtures.state(played)).toEqual({ state: 'in_play' });
    clock.advance(FULL_TIME_MS);
    const result = calendarResult(played);
    if (result.state !== 'finished') throw new Error('unreachable');
    const outcome =
      result.homeGoals > result.awayGoals ? 'HOME' : result.homeGoals < result.awayGoals ? 'AWAY' : 'DRAW';
    expect(await fixtures.state(played)).toEqual({
      state: 'finished',
      outcome,
      homeScore: result.homeGoals,
      awayScore: result.awayGoals,
    });
    clock.advance(kickoffOf(cancelled) - clock.now() + 1);
    expect(await fixtures.state(cancelled)).toMatchObject({ state: 'void' });
  });

  it('turns provider refusals into outage codes', async () => {
    fake.setMode({ status: 429, times: 1 });
    const busy = await fixtures
      .odds(calendarFixtureIds(at(10).getTime(), at(11).getTime())[0] as number)
      .catch((e: unknown) => e);
    expect(isDomainError(busy) && busy.code).toBe('UPSTREAM_UNAVAILABLE');
    fake.setMode({ status: 500, times: 1 });
    const broken = await fixtures.state(50_000_001).catch((e: unknown) => e);
    expect(isDomainError(broken) && broken.code).toBe('UPSTREAM_ERROR');
  });

  it('reads decimal odds without floating point', () => {
    expect([oddsX100('2.10'), oddsX100('3'), oddsX100('1.005'), oddsX100('1.00'), oddsX100('abc')]).toEqual([
      210,
      300,
      101,
      null,
      null,
    ]);
  });
});

describe('parlay markets from the provider (fake league calendar)', () => {
  it('maps the goals line and the goalscorer props of a fixture, and the fixture itself', async () => {
    const [first] = calendarFixtureIds(at(10).getTime(), at(12).getTime());
    const id = first as number;
    const rows = calendarPropRows(id);
    const over = rows.find((r) => r.label === 'Over')?.value as string;
    const under = rows.find((r) => r.label === 'Under')?.value as string;
    expect(await fixtures.goalsLine(id)).toEqual({ lineX10: 25, over: oddsX100(over), under: oddsX100(under) });
    const props = await fixtures.playerProps(id);
    expect(props.map((p) => p.playerId)).toEqual(
      calendarPlayers(id)
        .map((p) => p.id)
        .sort((a, b) => a - b),
    );
    expect(props.every((p) => p.odds >= 101)).toBe(true);
    expect(await fixtures.fixture(id)).toMatchObject({ id, leagueId: CALENDAR_LEAGUE_ID, startsAt: at(10) });
    // The full-time result is still read from market 1 alone, whatever other markets the rows carry.
    const odds = calendarOdds(id);
    expect(await fixtures.odds(id)).toEqual({
      home: oddsX100(odds.home),
      draw: oddsX100(odds.draw),
      away: oddsX100(odds.away),
    });
  });
});
