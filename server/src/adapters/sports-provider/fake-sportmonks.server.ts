import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as data from './fake-sportmonks.data.js';

/** How the fake answers the next calls. */
export interface FakeMode {
  /** Answer with this status instead of data (429, 500, 503, …). */
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Apply to this many calls, then go back to normal (default: until changed). */
  times?: number;
  /** Only calls whose path starts with this. */
  pathPrefix?: string;
}

export interface FakeSportmonks {
  readonly url: string;
  readonly v3BaseUrl: string;
  readonly cricketV2BaseUrl: string;
  readonly token: string;
  setMode(mode: FakeMode | null): void;
  /** Calls answered for a path (query ignored), or all calls. */
  callCount(path?: string): number;
  /** Every request's path and query as received, token included (for token-stripping tests). */
  readonly requests: ReadonlyArray<{ path: string; query: URLSearchParams }>;
  close(): Promise<void>;
}

type Handler = (m: RegExpMatchArray, q: URLSearchParams) => { data: unknown; entity: string; paged?: boolean } | null;

const num = (s: string | undefined) => Number(s ?? 0);
const V3: [RegExp, Handler][] = [
  [
    /^football\/fixtures\/latest$/,
    () => ({ data: [1, 2, 3].map((i) => data.footballFixture(19_000_000 + i, 'FT')), entity: 'fixtures' }),
  ],
  [
    /^football\/fixtures\/(\d+)$/,
    (m) => ({
      data: data.footballFixture(num(m[1]), num(m[1]) % 3 === 0 ? 'FT' : 'INPLAY_1ST_HALF'),
      entity: 'fixtures',
    }),
  ],
  [
    /^football\/fixtures$/,
    () => ({ data: [1, 2, 3, 4].map((i) => data.footballFixture(18_000_000 + i)), entity: 'fixtures', paged: true }),
  ],
  [
    /^football\/livescores(\/inplay)?$/,
    () => ({ data: [1, 2].map((i) => data.footballFixture(18_500_000 + i, 'INPLAY_1ST_HALF')), entity: 'livescores' }),
  ],
  [
    /^football\/teams\/(\d+)$/,
    (m, q) => ({
      data: (q.get('include') ?? '').includes('statistics')
        ? data.teamSeasonStatistics(num(m[1]), 23614)
        : data.footballTeam(num(m[1])),
      entity: 'teams',
    }),
  ],
  [/^football\/squads\/teams\/(\d+)$/, (m) => ({ data: data.squad(num(m[1])), entity: 'squads' })],
  [/^football\/odds\/pre-match\/fixtures\/(\d+)$/, (m) => ({ data: data.odds(num(m[1])), entity: 'odds' })],
  [
    /^football\/seasons$/,
    () => ({
      data: [{ id: 23614, name: '2026/2027', league_id: 8, is_current: true }],
      entity: 'seasons',
      paged: true,
    }),
  ],
  [
    /^football\/standings\/seasons\/(\d+)$/,
    (m) => ({
      data: [1, 2, 3, 4].map((i) => ({
        id: i,
        participant_id: i,
        season_id: num(m[1]),
        position: i,
        points: 40 - i * 3,
      })),
      entity: 'standings',
    }),
  ],
  [
    /^football\/news\/pre-match$/,
    () => ({ data: [{ id: 1, fixture_id: 18_000_001, title: 'Preview', type: 'prematch' }], entity: 'news' }),
  ],
  [/^motorsport\/races$/, () => ({ data: [1, 2, 3].map(data.race), entity: 'races', paged: true })],
  [
    /^motorsport\/drivers\/standings$/,
    () => ({ data: [1, 2, 3, 4].map((i) => data.driver(i, i)), entity: 'standings' }),
  ],
  [/^motorsport\/drivers$/, () => ({ data: [1, 2, 3, 4].map((i) => data.driver(i)), entity: 'drivers', paged: true })],
  [/^motorsport\/(fixtures|livescores)$/, () => ({ data: [data.race(9)], entity: 'fixtures' })],
  [/^cricket\/fixtures$/, () => ({ data: [1, 2].map(data.cricketFixture), entity: 'fixtures' })],
];
const V2: [RegExp, Handler][] = [
  [/^fixtures\/(\d+)$/, (m) => ({ data: data.cricketFixture(num(m[1])), entity: 'fixtures' })],
  [/^(fixtures|livescores)$/, () => ({ data: [1, 2, 3].map(data.cricketFixture), entity: 'fixtures', paged: true })],
  [
    /^teams\/(\d+)\/squad\/(\d+)$/,
    (m) => ({
      data: {
        ...data.cricketTeam(num(m[1])),
        squad: { data: [1, 2, 3].map((i) => data.cricketPlayer(num(m[1]) * 100 + i)) },
      },
      entity: 'teams',
    }),
  ],
  [/^teams\/(\d+)$/, (m) => ({ data: data.cricketTeam(num(m[1])), entity: 'teams' })],
  [/^teams$/, () => ({ data: [1, 2, 3].map(data.cricketTeam), entity: 'teams', paged: true })],
  [
    /^seasons$/,
    () => ({
      data: [{ resource: 'seasons', id: 1689, league_id: 3, name: '2026', code: '2026' }],
      entity: 'seasons',
      paged: true,
    }),
  ],
  [
    /^(leagues|stages|players|venues|standings|team-rankings|officials|countries|continents|scores|positions|squad)(\/\d+)?$/,
    (m) => ({ data: [{ resource: m[1], id: 1 }], entity: m[1] ?? 'other' }),
  ],
];

/**
 * A local stand-in for Sportmonks with the real wire behaviour: token required, v3 and cricket v2
 * envelopes, per-entity hourly counters in `rate_limit`, and modes for 429, 5xx and slow answers.
 */
export async function startFakeSportmonks(options: { token?: string; port?: number } = {}): Promise<FakeSportmonks> {
  const token = options.token ?? randomBytes(16).toString('hex');
  const requests: { path: string; query: URLSearchParams }[] = [];
  const counts = new Map<string, number>();
  const hourly = new Map<string, { since: number; used: number }>();
  let mode: (FakeMode & { left: number }) | null = null;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({ path: url.pathname, query: url.searchParams });
    const supplied = url.searchParams.get('api_token') ?? req.headers.authorization;
    if (supplied !== token) return send(res, 401, { message: 'Unauthenticated.' });
    const isV3 = url.pathname.startsWith('/v3/');
    const path = url.pathname.replace(/^\/v3\/|^\/api\/v2\.0\//, '');
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    const active = mode && (!mode.pathPrefix || path.startsWith(mode.pathPrefix)) ? mode : null;
    if (active) {
      if (active.times !== undefined && (active.left -= 1) <= 0) mode = null;
      if (active.delayMs) await new Promise((r) => setTimeout(r, active.delayMs));
      if (active.status) {
        return send(
          res,
          active.status,
          active.status === 429
            ? {
                message: 'Too Many Attempts.',
                rate_limit: { resets_in_seconds: 1800, remaining: 0, requested_entity: 'fixtures' },
              }
            : { message: 'Server Error' },
        );
      }
    }
    const table = isV3 ? V3 : V2;
    for (const [pattern, handler] of table) {
      const m = path.match(pattern);
      const result = m ? handler(m, url.searchParams) : null;
      if (!result) continue;
      const now = Date.now();
      const counter = hourly.get(result.entity);
      const window = counter && now - counter.since < 3_600_000 ? counter : { since: now, used: 0 };
      window.used += 1;
      hourly.set(result.entity, window);
      if (isV3) {
        return send(res, 200, {
          data: result.data,
          ...(result.paged
            ? {
                pagination: {
                  count: Array.isArray(result.data) ? result.data.length : 1,
                  per_page: 25,
                  current_page: 1,
                  next_page: null,
                  has_more: false,
                },
              }
            : {}),
          subscription: [
            {
              meta: { current_timestamp: Math.floor(now / 1000), next_billing_cycle: '2026-12-01 00:00:00' },
              plans: [{ plan: 'Fake Plan', sport: 'Football', category: 'Advanced' }],
              add_ons: [],
              widgets: [],
              bundles: [],
            },
          ],
          rate_limit: {
            resets_in_seconds: Math.ceil((window.since + 3_600_000 - now) / 1000),
            remaining: 3000 - window.used,
            requested_entity: result.entity,
          },
          timezone: 'UTC',
        });
      }
      const items = Array.isArray(result.data) ? result.data.length : 1;
      return send(res, 200, {
        data: result.data,
        ...(result.paged
          ? {
              links: { first: `${url.pathname}?page=1`, last: `${url.pathname}?page=1`, prev: null, next: null },
              meta: {
                current_page: 1,
                from: 1,
                last_page: 1,
                path: url.pathname,
                per_page: 100,
                to: items,
                total: items,
              },
            }
          : {}),
      });
    }
    return send(res, 404, { message: 'No result(s) found matching your request.' });
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
    requests,
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
