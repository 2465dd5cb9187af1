import type { SportsProxyRequest, SportsResponse, SportsTtl } from '@duelkit/contract';
import { UpstreamCallError, type SportsUpstreamClient } from './sports-upstream.client.js';
import {
  cacheKeyOf,
  effectiveTtl,
  sanitiseParams,
  validateMethod,
  validatePath,
  type SportsApi,
  type UpstreamRequest,
} from './sports-request.js';
import type { SwrCache } from './swr.cache.js';

/** Fixture states (Sportmonks v3 `state.developer_name`) after which nothing changes. */
const ENDED_STATES = new Set(['FT', 'AET', 'FT_PEN', 'AWARDED', 'CANCELLED', 'ABANDONED', 'WO', 'DELETED']);
const LIVE_STATES = new Set(['HT', 'BREAK', 'EXTRA_TIME_BREAK', 'PEN_BREAK']);

/**
 * The §4.18 sports-data proxies: request rules (path, method, parameters, ttl), then the cache
 * (SwrCache) in front of the upstream client (breaker, bulkhead, provider). One method per route.
 */
export class SportsService {
  /** Both built by the container with the configured limits (sports-limits.ts). */
  constructor(
    private readonly cache: SwrCache,
    private readonly upstream: SportsUpstreamClient,
  ) {}

  /** POST /svc/sports/proxy: a GET on the v3 API (football/, cricket/, motorsport/). */
  proxy(body: SportsProxyRequest): Promise<SportsResponse> {
    return this.forward('v3', body);
  }

  /** POST /svc/sports/cricket-v2/proxy: a GET on the older cricket v2 API. */
  cricketV2Proxy(body: SportsProxyRequest): Promise<SportsResponse> {
    return this.forward('cricket-v2', body);
  }

  /**
   * GET /svc/sports/football/fixture/{id}/snapshot: the fixture with participants, scores,
   * state, events, lineups and venue, plus its pre-match odds, as `{ fixture, odds }`. Cached
   * with the live windows while the fixture is in play, the ended windows once it is over.
   */
  fixtureSnapshot(fixtureId: string): Promise<SportsResponse> {
    const fixture = request('football/fixtures/' + fixtureId, {
      include: 'participants;scores;state;events;lineups;venue',
    });
    const odds = request(`football/odds/pre-match/fixtures/${fixtureId}`, {});
    return this.cache.read({
      key: `sports:snapshot:football/fixtures/${fixtureId}`,
      ttl: (body) => snapshotTtl((body as { fixture?: unknown }).fixture),
      load: async () => {
        const [f, o] = await Promise.all([this.upstream.get(fixture), this.upstream.get(odds).catch(noOdds)]);
        return { fixture: dataOf(f), odds: dataOf(o) };
      },
    });
  }

  /** GET /svc/sports/football/team/{id}/squad: the current squad with player details. */
  teamSquad(teamId: string): Promise<SportsResponse> {
    return this.single(request(`football/squads/teams/${teamId}`, { include: 'player' }), 'default');
  }

  /**
   * GET /svc/sports/football/team/{id}/season-stats: the team with its statistics and their
   * values — for `seasonId` only when given, else for every season the provider holds.
   */
  teamSeasonStats(teamId: string, seasonId?: string): Promise<SportsResponse> {
    const params: Record<string, string> = { include: 'statistics.details' };
    if (seasonId) params['filters'] = `teamStatisticSeasons:${seasonId}`;
    return this.single(request(`football/teams/${teamId}`, params), 'default');
  }

  // Async so that a refused request rejects like every other failure instead of throwing.
  private async forward(api: SportsApi, body: SportsProxyRequest): Promise<SportsResponse> {
    validateMethod(body.method);
    const path = validatePath(api, body.path);
    const req: UpstreamRequest = { api, path, params: sanitiseParams(body.params) };
    return this.single(req, effectiveTtl(api, path, body.ttl));
  }

  private single(req: UpstreamRequest, ttl: SportsTtl): Promise<SportsResponse> {
    return this.cache.read({ key: cacheKeyOf(req), ttl, load: () => this.upstream.get(req) });
  }
}

function request(path: string, params: Record<string, string>): UpstreamRequest {
  return { api: 'v3', path, params: sanitiseParams(params) };
}

/** A fixture without odds — none published, or odds not in the plan — is still a snapshot. */
function noOdds(err: unknown): { data: [] } {
  if (err instanceof UpstreamCallError && (err.kind === 'not_found' || err.kind === 'upstream_refused')) {
    return { data: [] };
  }
  throw err;
}

function dataOf(body: unknown): unknown {
  return body && typeof body === 'object' && 'data' in body ? body.data : body;
}

function snapshotTtl(fixture: unknown): SportsTtl {
  const state = (fixture as { state?: { developer_name?: unknown; state?: unknown } } | null)?.state;
  const raw = state?.developer_name ?? state?.state;
  const name = typeof raw === 'string' ? raw : '';
  if (ENDED_STATES.has(name)) return 'ended';
  if (name.startsWith('INPLAY') || LIVE_STATES.has(name)) return 'live';
  return 'default';
}
