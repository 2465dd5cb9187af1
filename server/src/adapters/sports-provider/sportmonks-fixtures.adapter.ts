import { DomainError } from '../../errors.js';
import type {
  FixtureMarketsPort,
  FixtureOdds,
  FixtureOutcome,
  FixtureState,
  FixturesPort,
  GoalsLine,
  PlayerProp,
  ProviderFixture,
} from './fixtures.port.js';
import { UpstreamTransportError, type SportsProviderPort, type UpstreamResponse } from './sports-provider.port.js';

/** Sportmonks' market id of the full-time result (1X2). */
const FULLTIME_RESULT_MARKET = 1;
/** Sportmonks' market ids of the goals over/under lines and the anytime goalscorer props. */
const GOALS_OVER_UNDER_MARKET = 80;
const ANYTIME_GOALSCORER_MARKET = 90;
const PER_PAGE = 50;
const MAX_PAGES = 40;
const DAY_MS = 86_400_000;

const FINISHED = new Set(['FT', 'AWARDED']);
/** Decided after extra time or on penalties: level after regular time. */
const AFTER_EXTRA_TIME = new Set(['AET', 'FT_PEN']);
const VOID = new Set(['CANCELLED', 'ABANDONED', 'DELETED', 'WO']);
const NOT_STARTED = new Set(['NS', 'TBA']);
const DELAYED = new Set(['POSTPONED', 'SUSPENDED', 'INTERRUPTED', 'DELAYED', 'PENDING']);

interface V3Participant {
  name?: string;
  meta?: { location?: string };
}
interface V3Fixture {
  id: number;
  league_id: number;
  name?: string;
  starting_at?: string;
  starting_at_timestamp?: number;
  participants?: V3Participant[];
  scores?: { description?: string; score?: { goals?: number; participant?: string } }[];
  state?: { developer_name?: string; state?: string };
}
interface V3Odd {
  market_id?: number;
  bookmaker_id?: number;
  label?: string;
  value?: string;
  total?: string;
  name?: string;
  participant_id?: number;
}

/**
 * Fixtures, odds and results from Sportmonks' football v3 API (fixtures between two dates,
 * pre-match odds of a fixture, a fixture with its scores and state), through the provider port,
 * so the local fake and the real API take the same path.
 */
export class SportmonksFixturesAdapter implements FixturesPort, FixtureMarketsPort {
  constructor(
    private readonly provider: SportsProviderPort,
    private readonly timeoutMs = 8_000,
  ) {}

  async fixturesBetween(leagueId: number, from: Date, to: Date): Promise<ProviderFixture[]> {
    const start = day(from);
    const end = day(new Date(to.getTime() - 1));
    const out: ProviderFixture[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const res = await this.get(`football/fixtures/between/${start}/${end}`, {
        filters: `fixtureLeagues:${leagueId}`,
        include: 'participants',
        per_page: String(PER_PAGE),
        page: String(page),
      });
      if (res.status === 404) break;
      const body = res.body as { data?: V3Fixture[]; pagination?: { has_more?: boolean } };
      for (const f of body.data ?? []) {
        const fixture = toFixture(f);
        const t = fixture.startsAt.getTime();
        if (fixture.leagueId === leagueId && t >= from.getTime() && t < to.getTime()) out.push(fixture);
      }
      if (!body.pagination?.has_more) break;
    }
    return out.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.id - b.id);
  }

  async odds(fixtureId: number): Promise<FixtureOdds | null> {
    const res = await this.get(`football/odds/pre-match/fixtures/${fixtureId}`, {
      filters: `markets:${FULLTIME_RESULT_MARKET}`,
    });
    if (res.status === 404) return null;
    const rows = ((res.body as { data?: V3Odd[] }).data ?? []).filter(
      (o) => (o.market_id ?? FULLTIME_RESULT_MARKET) === FULLTIME_RESULT_MARKET,
    );
    // One bookmaker's complete line (the lowest id that has all three), never a mix of bookmakers.
    const byBookmaker = new Map<number, Partial<Record<FixtureOutcome, number>>>();
    for (const o of rows) {
      const outcome = outcomeOfLabel(o.label);
      const value = oddsX100(o.value);
      if (!outcome || value === null) continue;
      const line = byBookmaker.get(o.bookmaker_id ?? 0) ?? {};
      line[outcome] = value;
      byBookmaker.set(o.bookmaker_id ?? 0, line);
    }
    for (const id of [...byBookmaker.keys()].sort((a, b) => a - b)) {
      const line = byBookmaker.get(id);
      if (line?.HOME && line.DRAW && line.AWAY) return { home: line.HOME, draw: line.DRAW, away: line.AWAY };
    }
    return null;
  }

  async fixture(fixtureId: number): Promise<ProviderFixture | null> {
    const res = await this.get(`football/fixtures/${fixtureId}`, { include: 'participants' });
    if (res.status === 404) return null;
    const f = (res.body as { data?: V3Fixture }).data;
    return f ? toFixture(f) : null;
  }

  async goalsLine(fixtureId: number): Promise<GoalsLine | null> {
    const rows = await this.oddsRows(fixtureId, GOALS_OVER_UNDER_MARKET);
    // The 2.5 line of one bookmaker (the lowest id quoting both sides).
    const lines = new Map<number, { over?: number; under?: number }>();
    for (const o of rows) {
      if ((o.total ?? '').trim() !== '2.5') continue;
      const value = oddsX100(o.value);
      const side = (o.label ?? '').toLowerCase();
      if (value === null || (side !== 'over' && side !== 'under')) continue;
      const line = lines.get(o.bookmaker_id ?? 0) ?? {};
      line[side] = value;
      lines.set(o.bookmaker_id ?? 0, line);
    }
    for (const id of [...lines.keys()].sort((a, b) => a - b)) {
      const line = lines.get(id);
      if (line?.over && line.under) return { lineX10: 25, over: line.over, under: line.under };
    }
    return null;
  }

  async playerProps(fixtureId: number): Promise<PlayerProp[]> {
    const rows = await this.oddsRows(fixtureId, ANYTIME_GOALSCORER_MARKET);
    const byPlayer = new Map<number, PlayerProp>();
    for (const o of rows) {
      const value = oddsX100(o.value);
      if (value === null || typeof o.participant_id !== 'number' || byPlayer.has(o.participant_id)) continue;
      byPlayer.set(o.participant_id, {
        playerId: o.participant_id,
        playerName: o.name ?? o.label ?? String(o.participant_id),
        team: null,
        odds: value,
      });
    }
    return [...byPlayer.values()].sort((a, b) => a.playerId - b.playerId);
  }

  private async oddsRows(fixtureId: number, market: number): Promise<V3Odd[]> {
    const res = await this.get(`football/odds/pre-match/fixtures/${fixtureId}`, { filters: `markets:${market}` });
    if (res.status === 404) return [];
    return ((res.body as { data?: V3Odd[] }).data ?? []).filter((o) => o.market_id === market);
  }

  async state(fixtureId: number): Promise<FixtureState> {
    const res = await this.get(`football/fixtures/${fixtureId}`, { include: 'scores;participants;state' });
    if (res.status === 404) return { state: 'void', reason: 'the provider no longer knows this fixture' };
    const f = (res.body as { data?: V3Fixture }).data;
    const code = f?.state?.developer_name ?? f?.state?.state ?? '';
    if (FINISHED.has(code) || AFTER_EXTRA_TIME.has(code)) {
      const goals = (side: string) =>
        f?.scores?.find((s) => s.description === 'CURRENT' && s.score?.participant === side)?.score?.goals;
      const home = goals('home');
      const away = goals('away');
      if (home === undefined || away === undefined) return { state: 'delayed' };
      const outcome: FixtureOutcome = AFTER_EXTRA_TIME.has(code)
        ? 'DRAW'
        : home > away
          ? 'HOME'
          : home < away
            ? 'AWAY'
            : 'DRAW';
      return { state: 'finished', outcome, homeScore: home, awayScore: away };
    }
    if (VOID.has(code)) return { state: 'void', reason: `the fixture was ${code.toLowerCase()}` };
    if (NOT_STARTED.has(code)) return { state: 'scheduled' };
    if (DELAYED.has(code)) return { state: 'delayed' };
    return { state: 'in_play' };
  }

  private async get(path: string, params: Record<string, string>): Promise<UpstreamResponse> {
    let res: UpstreamResponse;
    try {
      res = await this.provider.fetch(
        { api: 'v3', path, params: Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1)) },
        AbortSignal.timeout(this.timeoutMs),
      );
    } catch (err) {
      const timeout = err instanceof UpstreamTransportError && err.timeout;
      throw new DomainError(
        timeout ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR',
        'The sports-data provider could not be reached',
        {
          cause: err,
        },
      );
    }
    if (res.status === 429 || res.status === 503) {
      throw new DomainError('UPSTREAM_UNAVAILABLE', 'The sports-data provider is busy; retry shortly', {
        retryAfterMs: (res.retryAfterSeconds ?? 30) * 1000,
      });
    }
    if (res.status !== 200 && res.status !== 404) {
      throw new DomainError('UPSTREAM_ERROR', `The sports-data provider answered ${res.status}`);
    }
    return res;
  }
}

function day(d: Date): string {
  return new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

function toFixture(f: V3Fixture): ProviderFixture {
  const startsAt =
    typeof f.starting_at_timestamp === 'number'
      ? new Date(f.starting_at_timestamp * 1000)
      : new Date(`${(f.starting_at ?? '').replace(' ', 'T')}Z`);
  const [nameHome, nameAway] = (f.name ?? '').split(' vs ');
  const team = (location: string, fallback: string | undefined) =>
    f.participants?.find((p) => p.meta?.location === location)?.name ?? fallback ?? location;
  return {
    id: f.id,
    leagueId: f.league_id,
    name: f.name ?? `${team('home', nameHome)} vs ${team('away', nameAway)}`,
    homeTeam: team('home', nameHome),
    awayTeam: team('away', nameAway),
    startsAt,
  };
}

function outcomeOfLabel(label: string | undefined): FixtureOutcome | null {
  switch ((label ?? '').toLowerCase()) {
    case 'home':
    case '1':
      return 'HOME';
    case 'draw':
    case 'x':
      return 'DRAW';
    case 'away':
    case '2':
      return 'AWAY';
    default:
      return null;
  }
}

/** "2.10" → 210, without floating point; odds below 1.01 are not odds. */
export function oddsX100(value: string | undefined): number | null {
  const m = /^(\d{1,5})(?:\.(\d+))?$/.exec((value ?? '').trim());
  if (!m) return null;
  const decimals = (m[2] ?? '').padEnd(3, '0');
  const x1000 = Number(m[1]) * 1000 + Number(decimals.slice(0, 3));
  const x100 = Math.round(x1000 / 10);
  return x100 >= 101 ? x100 : null;
}
