import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveOnLoopback } from '../../../test/support/http.js';
import { ManualClock } from '../../platform/clock.js';
import { isDomainError } from '../../errors.js';
import { fakeClassification, fakeEvent, fakeEventState, fakeSeason } from './fake-motorsport.season.js';
import type { RaceEventType } from './motorsport.port.js';
import { SportmonksHttpAdapter } from './sportmonks-http.adapter.js';
import { SportmonksMotorsportAdapter, sessionType } from './sportmonks-motorsport.adapter.js';

const DAY = 86_400_000;
const SEASON = Math.floor(Date.UTC(2026, 11, 1) / DAY);
const LEAGUE = 7;
const TOKEN = 'motorsport-test-token';
const clock = new ManualClock(Date.UTC(2026, 11, 1, 9));
const NAMES: Record<RaceEventType, string> = {
  QUALIFYING: 'Qualifying',
  SPRINT_QUALIFYING: 'Sprint Shootout',
  SPRINT: 'Sprint',
  RACE: 'Race',
};
let mode: 'ok' | 'busy' = 'ok';
const seen: string[] = [];

/** A loopback stand-in for Sportmonks' motorsport v3 API, serving the fake season in the provider's shapes. */
function motorsportApi(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://x');
  seen.push(`${url.pathname}?${url.searchParams.get('include') ?? ''}`);
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (url.searchParams.get('api_token') !== TOKEN) return send(401, { message: 'Unauthenticated.' });
  if (mode === 'busy') return send(429, { message: 'Too Many Attempts.' });
  const season = fakeSeason(SEASON);
  let m = /^\/v3\/motorsport\/leagues\/(\d+)$/.exec(url.pathname);
  if (m)
    return Number(m[1]) === LEAGUE ? send(200, { data: { id: LEAGUE, currentseason: { id: SEASON } } }) : send(404, {});
  m = /^\/v3\/motorsport\/seasons\/(\d+)$/.exec(url.pathname);
  if (m) {
    if (Number(m[1]) !== SEASON) return send(404, { message: 'No result(s) found' });
    return send(200, {
      data: {
        id: SEASON,
        name: season.name,
        stages: [...season.rounds].reverse().map((r) => ({
          id: r.id,
          name: r.gpName,
          sort_order: r.roundNumber,
          venue: { name: r.circuitName, country: { name: r.country } },
          fixtures: [
            {
              id: r.id * 1000,
              stage_id: r.id,
              name: 'Practice 1',
              starting_at_timestamp: r.events[0]!.startsAt.getTime() / 1000 - 7200,
            },
            ...r.events.map((e) => ({
              id: e.id,
              stage_id: r.id,
              name: NAMES[e.eventType],
              starting_at_timestamp: e.startsAt.getTime() / 1000,
              length: (e.endsAt.getTime() - e.startsAt.getTime()) / 60_000,
            })),
          ],
        })),
      },
    });
  }
  m = /^\/v3\/motorsport\/teams\/seasons\/(\d+)$/.exec(url.pathname);
  if (m) {
    return send(200, {
      data: season.teams.map((t) => ({
        id: t.id,
        name: t.name,
        drivers: season.drivers
          .filter((d) => d.teamId === t.id)
          .map((d) => ({ id: d.id, display_name: d.name, short_code: d.code, number: d.number })),
      })),
    });
  }
  m = /^\/v3\/motorsport\/fixtures\/(\d+)$/.exec(url.pathname);
  if (m) {
    const event = fakeEvent(Number(m[1]));
    if (!event) return send(404, { message: 'No result(s) found' });
    const state = fakeEventState(event, clock.now());
    if (state.state !== 'finished') {
      return send(200, {
        data: { id: event.id, state: { developer_name: state.state === 'running' ? 'INPLAY' : 'NS' } },
      });
    }
    const dnf = new Set(state.dnfDriverIds);
    return send(200, {
      data: {
        id: event.id,
        state: { developer_name: 'FINISHED' },
        results: state.order.map((d, i) => ({
          participant_id: d,
          position: dnf.has(d) ? null : i + 1,
          status: dnf.has(d) ? 'DNF' : 'FINISHED',
          fastest_lap: d === state.fastestLapDriverId,
        })),
        events: state.safetyCar ? [{ type: 'SAFETY_CAR' }] : [{ type: 'YELLOW_FLAG' }],
      },
    });
  }
  return send(404, { message: 'Not found' });
}

let close: () => Promise<void>;
let adapter: SportmonksMotorsportAdapter;

beforeAll(async () => {
  const server = await serveOnLoopback(motorsportApi);
  close = () => server.close();
  const http = new SportmonksHttpAdapter({
    token: TOKEN,
    v3BaseUrl: `${server.url}/v3`,
    cricketV2BaseUrl: server.url,
    timeoutMs: 2_000,
  });
  adapter = new SportmonksMotorsportAdapter(http, LEAGUE, 2_000);
});
afterAll(() => close());

describe('the Sportmonks motorsport adapter (against a loopback fake)', () => {
  it('reads the current season of the league', async () => {
    expect(await adapter.currentSeasonId()).toBe(SEASON);
  });

  it('maps stages to weekends in order and sessions to events, skipping practice', async () => {
    const season = await adapter.season(SEASON);
    expect(season).toEqual(fakeSeason(SEASON));
    expect(seen).toContain('/v3/motorsport/seasons/' + SEASON + '?stages.fixtures;stages.venue.country');
    expect(await adapter.season(1)).toBeNull();
  });

  it('follows a session from scheduled to its classification', async () => {
    const race = fakeSeason(SEASON).rounds[0]!.events[1]!;
    clock.advance(race.startsAt.getTime() - clock.now() - 1);
    expect(await adapter.eventState(race.id)).toEqual({ state: 'scheduled' });
    clock.advance(1);
    expect(await adapter.eventState(race.id)).toEqual({ state: 'running' });
    clock.advance(race.endsAt.getTime() - clock.now());
    expect(await adapter.eventState(race.id)).toEqual(fakeClassification(race));
    expect((await adapter.eventState(99)).state).toBe('cancelled');
  });

  it('turns a busy provider into a retryable error', async () => {
    mode = 'busy';
    try {
      const err = await adapter.season(SEASON).catch((e: unknown) => e);
      expect(isDomainError(err) && err.code).toBe('UPSTREAM_UNAVAILABLE');
    } finally {
      mode = 'ok';
    }
  });

  it('names sessions by their kind', () => {
    expect(
      ['Sprint Qualifying', 'Sprint Shootout', 'Sprint', 'Qualifying', 'Race', 'Practice 3'].map(sessionType),
    ).toEqual(['SPRINT_QUALIFYING', 'SPRINT_QUALIFYING', 'SPRINT', 'QUALIFYING', 'RACE', null]);
  });
});
