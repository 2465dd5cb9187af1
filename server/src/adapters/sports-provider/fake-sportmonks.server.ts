import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../../platform/clock.js';
import * as calendar from './fake-sportmonks.calendar.js';
import * as data from './fake-sportmonks.data.js';
import { SportmonksHttpAdapter } from './sportmonks-http.adapter.js';
import type { SportsProviderPort } from './sports-provider.port.js';

/** How the fake answers the next calls. */
export interface FakeMode {
  /** Answer with this status instead of data (401, 403, 429, 500, 503, …). */
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Apply to this many calls, then go back to normal (default: until changed). */
  times?: number;
  /** Only calls whose path (after the API prefix, e.g. `football/teams/1`) starts with this. */
  pathPrefix?: string;
}

export interface FakeSportmonksOptions {
  /** The token the fake requires; random when absent. */
  token?: string;
  /** Loopback port; a free one when absent or 0. */
  port?: number;
  /** Calls per entity per hour before the fake answers 429 for that entity (a plan's limit). */
  hourlyLimit?: number;
  /** The time the league calendar is played at (fixture states, results): tests move it by hand. */
  clock?: Clock;
}

/** A received request (token included: tests check that only the server's token arrives). */
export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
}

export interface FakeSportmonks {
  readonly url: string;
  readonly v3BaseUrl: string;
  readonly cricketV2BaseUrl: string;
  readonly token: string;
  setMode(mode: FakeMode | null): void;
  /** Calls received for a full path (`/v3/football/teams/1`, query ignored), or all calls. */
  callCount(path?: string): number;
  /** The most recent requests, oldest first (at most 200). */
  readonly lastRequests: readonly FakeRequest[];
  close(): Promise<void>;
}

interface Found {
  readonly data: unknown;
  /** The rate-limited entity (Sportmonks counts per entity per hour). */
  readonly entity: string;
  /** A list the provider pages (`page`, `per_page`; motorsport `cursor`). */
  readonly list?: boolean;
}
type Handler = (m: RegExpMatchArray, q: URLSearchParams, now: number) => Found;

const KEPT_REQUESTS = 200;
const HOUR_MS = 3_600_000;
const num = (s: string | undefined) => Number(s ?? 0);
const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

/** Leagues named by a `fixtureLeagues:1,8` filter, or null when the request does not filter. */
function leaguesOf(q: URLSearchParams): number[] | null {
  const m = /fixtureLeagues:([\d,]+)/.exec(q.get('filters') ?? '');
  return m ? (m[1] ?? '').split(',').map(Number) : null;
}

const V3: [RegExp, Handler][] = [
  [
    /^football\/fixtures\/between\/(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/,
    (m, q, now) => {
      const from = Date.parse(`${m[1]}T00:00:00Z`);
      const to = Date.parse(`${m[2]}T00:00:00Z`) + 86_400_000;
      const leagues = leaguesOf(q);
      const ids =
        leagues && !leagues.includes(calendar.CALENDAR_LEAGUE_ID) ? [] : calendar.calendarFixtureIds(from, to);
      return { data: ids.map((id) => calendar.calendarFixture(id, now)), entity: 'fixtures', list: true };
    },
  ],
  [
    /^football\/fixtures\/latest$/,
    () => ({ data: range(3).map((i) => data.footballFixture(19_000_000 + i, 'FT')), entity: 'fixtures' }),
  ],
  [
    /^football\/fixtures\/(\d+)$/,
    (m, _q, now) => ({
      data: calendar.isCalendarFixture(num(m[1]))
        ? calendar.calendarFixture(num(m[1]), now)
        : data.footballFixture(num(m[1]), num(m[1]) % 3 === 0 ? 'FT' : 'INPLAY_1ST_HALF'),
      entity: 'fixtures',
    }),
  ],
  [
    /^football\/fixtures$/,
    () => ({ data: range(60).map((i) => data.footballFixture(18_000_000 + i)), entity: 'fixtures', list: true }),
  ],
  [
    /^football\/livescores(\/inplay|\/latest)?$/,
    () => ({
      data: range(2).map((i) => data.footballFixture(18_500_000 + i, 'INPLAY_1ST_HALF')),
      entity: 'livescores',
    }),
  ],
  [
    /^football\/teams\/(\d+)$/,
    (m, q) => {
      if (!(q.get('include') ?? '').includes('statistics'))
        return { data: data.footballTeam(num(m[1])), entity: 'teams' };
      const season = /teamStatisticSeasons:(\d+)/.exec(q.get('filters') ?? '')?.[1];
      return {
        data: data.teamSeasonStatistics(num(m[1]), season ? [num(season)] : [21646, 23614]),
        entity: 'teams',
      };
    },
  ],
  [/^football\/squads\/teams\/(\d+)$/, (m) => ({ data: data.squad(num(m[1])), entity: 'squads' })],
  [
    /^football\/odds\/pre-match\/fixtures\/(\d+)$/,
    (m) => ({
      data: calendar.isCalendarFixture(num(m[1]))
        ? [...calendar.calendarOddsRows(num(m[1])), ...calendar.calendarPropRows(num(m[1]))]
        : data.odds(num(m[1])),
      entity: 'odds',
    }),
  ],
  [
    /^football\/seasons$/,
    () => ({ data: [{ id: 23614, name: '2026/2027', league_id: 8, is_current: true }], entity: 'seasons', list: true }),
  ],
  [
    /^football\/standings\/seasons\/(\d+)$/,
    (m) => ({
      data: range(4).map((i) => ({ id: i, participant_id: i, season_id: num(m[1]), position: i, points: 40 - i * 3 })),
      entity: 'standings',
    }),
  ],
  [/^football\/news\/pre-match$/, () => ({ data: range(30).map(data.newsItem), entity: 'news', list: true })],
  [/^motorsport\/races$/, () => ({ data: range(24).map(data.race), entity: 'races', list: true })],
  [/^motorsport\/drivers\/standings$/, () => ({ data: range(8).map((i) => data.driver(i, i)), entity: 'standings' })],
  [/^motorsport\/drivers$/, () => ({ data: range(20).map((i) => data.driver(i)), entity: 'drivers', list: true })],
  [/^motorsport\/(fixtures|livescores)$/, (m) => ({ data: [data.race(9)], entity: m[1] ?? 'fixtures' })],
  [/^cricket\/fixtures$/, () => ({ data: range(2).map(data.cricketFixture), entity: 'fixtures', list: true })],
];

const V2: [RegExp, Handler][] = [
  [/^fixtures\/(\d+)$/, (m) => ({ data: data.cricketFixture(num(m[1])), entity: 'fixtures' })],
  [/^fixtures$/, () => ({ data: range(40).map(data.cricketFixture), entity: 'fixtures', list: true })],
  [/^livescores$/, () => ({ data: range(2).map(data.cricketFixture), entity: 'livescores' })],
  [
    /^teams\/(\d+)\/squad\/(\d+)$/,
    (m) => ({
      data: {
        ...data.cricketTeam(num(m[1])),
        squad: range(3).map((i) => ({ ...data.cricketPlayer(num(m[1]) * 100 + i), season_id: num(m[2]) })),
      },
      entity: 'teams',
    }),
  ],
  [/^teams\/(\d+)$/, (m) => ({ data: data.cricketTeam(num(m[1])), entity: 'teams' })],
  [/^teams$/, () => ({ data: range(6).map(data.cricketTeam), entity: 'teams', list: true })],
  [
    /^seasons$/,
    () => ({
      data: [{ resource: 'seasons', id: 1689, league_id: 3, name: '2026', code: '2026' }],
      entity: 'seasons',
      list: true,
    }),
  ],
  [
    /^(leagues|stages|players|venues|standings|team-rankings|officials|countries|continents|scores|positions|squad)(\/\d+)*$/,
    (m) => ({ data: [{ resource: m[1], id: 1 }], entity: m[1] ?? 'other' }),
  ],
];

/** Links repeat the request query, token included, as a paginator appending it would: a worst case to scrub. */
function pageUrl(url: URL, page: number): string {
  const next = new URL(url);
  next.searchParams.set('page', String(page));
  return next.toString();
}

function paginateV3(url: URL, items: unknown[], motorsport: boolean) {
  const perPage = Math.min(50, Math.max(1, Number(url.searchParams.get('per_page') ?? 25) || 25));
  const cursor = url.searchParams.get('cursor');
  const offset = motorsport && cursor ? Number(Buffer.from(cursor, 'base64url').toString()) || 0 : 0;
  const page = motorsport
    ? Math.floor(offset / perPage) + 1
    : Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  const start = motorsport ? offset : (page - 1) * perPage;
  const slice = items.slice(start, start + perPage);
  const hasMore = start + perPage < items.length;
  const base = { count: slice.length, per_page: perPage, current_page: page, has_more: hasMore };
  const pagination = motorsport
    ? { ...base, next_cursor: hasMore ? Buffer.from(String(start + perPage)).toString('base64url') : null }
    : { ...base, next_page: hasMore ? pageUrl(url, page + 1) : null };
  return { data: slice, pagination };
}

function paginateV2(url: URL, items: unknown[]) {
  const perPage = 25;
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const page = Math.min(last, Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const from = slice.length ? (page - 1) * perPage + 1 : null;
  return {
    data: slice,
    links: {
      first: pageUrl(url, 1),
      last: pageUrl(url, last),
      prev: page > 1 ? pageUrl(url, page - 1) : null,
      next: page < last ? pageUrl(url, page + 1) : null,
    },
    meta: {
      current_page: page,
      from,
      last_page: last,
      path: `${url.origin}${url.pathname}`,
      per_page: perPage,
      to: from === null ? null : from + slice.length - 1,
      total: items.length,
    },
  };
}

function subscription(nowMs: number) {
  return [
    {
      meta: { current_timestamp: Math.floor(nowMs / 1000), next_billing_cycle: '2026-12-01 00:00:00' },
      plans: [{ plan: 'Fake Plan', sport: 'Football', category: 'Advanced' }],
      add_ons: [],
      widgets: [],
      bundles: [],
    },
  ];
}

/**
 * A local stand-in for Sportmonks with its wire behaviour: the token is required (401 without),
 * v3 and cricket v2 envelopes with paging, per-entity hourly counters in `rate_limit` (429 for
 * that entity past `hourlyLimit`), and modes for 429, 5xx and slow answers. Serves on loopback.
 */
export async function startFakeSportmonks(options: FakeSportmonksOptions = {}): Promise<FakeSportmonks> {
  const token = options.token ?? randomBytes(16).toString('hex');
  const hourlyLimit = options.hourlyLimit ?? 3_000;
  const clock = options.clock ?? systemClock;
  const lastRequests: FakeRequest[] = [];
  const counts = new Map<string, number>();
  const hourly = new Map<string, { since: number; used: number }>();
  let mode: (FakeMode & { left: number }) | null = null;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const tooMany = (res: ServerResponse, entity: string, resetsIn: number) =>
    send(res, 429, {
      message: 'You have reached the rate limit for this entity.',
      rate_limit: { resets_in_seconds: resetsIn, remaining: 0, requested_entity: entity },
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    lastRequests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams });
    if (lastRequests.length > KEPT_REQUESTS) lastRequests.shift();
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    const supplied = url.searchParams.get('api_token') ?? req.headers.authorization;
    if (supplied !== token) return send(res, 401, { message: 'Unauthenticated.' });
    if (req.method !== 'GET') return send(res, 405, { message: 'The method is not supported for this route.' });

    const isV3 = url.pathname.startsWith('/v3/');
    const path = url.pathname.replace(/^\/v3\/|^\/api\/v2\.0\//, '');
    const active = mode && (!mode.pathPrefix || path.startsWith(mode.pathPrefix)) ? mode : null;
    if (active) {
      if ((active.left -= 1) <= 0) mode = null;
      if (active.delayMs) await new Promise((r) => setTimeout(r, active.delayMs));
      if (active.status === 429) return tooMany(res, path.split('/')[1] ?? path, 1_800);
      if (active.status) return send(res, active.status, { message: 'Server Error' });
    }

    let found: Found | null = null;
    for (const [pattern, handler] of isV3 ? V3 : V2) {
      const m = path.match(pattern);
      if (m) {
        found = handler(m, url.searchParams, clock.now());
        break;
      }
    }
    if (!found) return send(res, 404, { message: 'No result(s) found matching your request.' });

    const now = Date.now();
    const counter = hourly.get(found.entity);
    const window = counter && now - counter.since < HOUR_MS ? counter : { since: now, used: 0 };
    hourly.set(found.entity, window);
    const resetsIn = Math.ceil((window.since + HOUR_MS - now) / 1000);
    if (window.used >= hourlyLimit) return tooMany(res, found.entity, resetsIn);
    window.used += 1;

    if (!isV3) {
      return send(
        res,
        200,
        found.list && Array.isArray(found.data) ? paginateV2(url, found.data) : { data: found.data },
      );
    }
    const paged =
      found.list && Array.isArray(found.data)
        ? paginateV3(url, found.data, path.startsWith('motorsport/'))
        : { data: found.data };
    return send(res, 200, {
      ...paged,
      subscription: subscription(now),
      rate_limit: { resets_in_seconds: resetsIn, remaining: hourlyLimit - window.used, requested_entity: found.entity },
      timezone: 'UTC',
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { message: 'fake failed' }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    v3BaseUrl: `${url}/v3`,
    cricketV2BaseUrl: `${url}/api/v2.0`,
    token,
    lastRequests,
    setMode(next) {
      mode = next ? { ...next, left: next.times ?? Number.POSITIVE_INFINITY } : null;
    },
    callCount(path) {
      if (path === undefined) return [...counts.values()].reduce((a, b) => a + b, 0);
      return counts.get(path) ?? 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The embedded default (`SPORTS_PROVIDER=fake`): the fake on loopback, reached through the real
 * HTTP adapter so development exercises the real path. Call `close` at shutdown.
 */
export async function startFakeSportsProvider(
  options: FakeSportmonksOptions & { timeoutMs: number },
): Promise<{ provider: SportsProviderPort; fake: FakeSportmonks; close: () => Promise<void> }> {
  const { timeoutMs, ...fakeOptions } = options;
  const fake = await startFakeSportmonks(fakeOptions);
  const provider = new SportmonksHttpAdapter({
    token: fake.token,
    v3BaseUrl: fake.v3BaseUrl,
    cricketV2BaseUrl: fake.cricketV2BaseUrl,
    timeoutMs,
  });
  return { provider, fake, close: () => fake.close() };
}
