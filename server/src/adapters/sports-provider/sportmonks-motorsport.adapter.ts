import { DomainError } from '../../errors.js';
import type {
  EventState,
  MotorsportDriver,
  MotorsportEvent,
  MotorsportPort,
  MotorsportRound,
  MotorsportSeason,
  RaceEventType,
} from './motorsport.port.js';
import { UpstreamTransportError, type SportsProviderPort, type UpstreamResponse } from './sports-provider.port.js';

interface V3Session {
  id: number;
  stage_id?: number;
  name?: string;
  starting_at_timestamp?: number;
  /** Minutes the session is scheduled for. */
  length?: number;
  state?: { developer_name?: string };
}
interface V3Stage {
  id: number;
  name?: string;
  sort_order?: number;
  venue?: { name?: string; country?: { name?: string } };
  fixtures?: V3Session[];
}
interface V3Driver {
  id: number;
  display_name?: string;
  name?: string;
  short_code?: string;
  number?: number;
}
interface V3Team {
  id: number;
  name?: string;
  drivers?: V3Driver[];
}
interface V3Result {
  participant_id: number;
  position?: number | null;
  status?: string;
  fastest_lap?: boolean;
}

const FINISHED = new Set(['FT', 'FINISHED', 'ENDED']);
const CANCELLED = new Set(['CANCELLED', 'ABANDONED', 'DELETED']);
const RUNNING = new Set(['INPLAY', 'LIVE', 'RED_FLAG', 'SUSPENDED']);

/** A session's kind from its name; practice sessions are not predicted (null). */
export function sessionType(name: string | undefined): RaceEventType | null {
  const n = (name ?? '').toLowerCase();
  if (n.includes('practice')) return null;
  if (n.includes('sprint') && (n.includes('qualifying') || n.includes('shootout'))) return 'SPRINT_QUALIFYING';
  if (n.includes('sprint')) return 'SPRINT';
  if (n.includes('qualifying')) return 'QUALIFYING';
  if (n.includes('race')) return 'RACE';
  return null;
}

/**
 * Seasons, grids and session results from Sportmonks' motorsport v3 API through the provider
 * port (the same path the local sports fake and the real API take): a season with its stages
 * (Grand Prix weekends) and their fixtures (sessions), the teams of a season with their drivers,
 * and a fixture with its state and results. `leagueId` is the Formula 1 league of the account.
 */
export class SportmonksMotorsportAdapter implements MotorsportPort {
  constructor(
    private readonly provider: SportsProviderPort,
    private readonly leagueId: number,
    private readonly timeoutMs = 8_000,
  ) {}

  async currentSeasonId(): Promise<number | null> {
    const res = await this.get(`motorsport/leagues/${this.leagueId}`, { include: 'currentSeason' });
    if (res.status === 404) return null;
    const data = (res.body as { data?: { currentseason?: { id?: number }; currentSeason?: { id?: number } } }).data;
    return data?.currentseason?.id ?? data?.currentSeason?.id ?? null;
  }

  async season(seasonId: number): Promise<MotorsportSeason | null> {
    const res = await this.get(`motorsport/seasons/${seasonId}`, { include: 'stages.fixtures;stages.venue.country' });
    if (res.status === 404) return null;
    const data = (res.body as { data?: { id: number; name?: string; stages?: V3Stage[] } }).data;
    if (!data) return null;
    const teamsRes = await this.get(`motorsport/teams/seasons/${seasonId}`, { include: 'drivers' });
    const teams = teamsRes.status === 404 ? [] : ((teamsRes.body as { data?: V3Team[] }).data ?? []);
    const drivers: MotorsportDriver[] = teams.flatMap((t) =>
      (t.drivers ?? []).map((d) => ({
        id: d.id,
        code: d.short_code ?? (d.display_name ?? d.name ?? '').slice(0, 3).toUpperCase(),
        name: d.display_name ?? d.name ?? String(d.id),
        number: d.number ?? 0,
        teamId: t.id,
        teamName: t.name ?? '',
      })),
    );
    const stages = [...(data.stages ?? [])].sort((a, b) => (a.sort_order ?? 0) - (b.sort_order ?? 0) || a.id - b.id);
    const rounds: MotorsportRound[] = [];
    for (const stage of stages) {
      const events: MotorsportEvent[] = (stage.fixtures ?? [])
        .map((f) => ({ f, type: sessionType(f.name) }))
        .filter(
          (x): x is { f: V3Session; type: RaceEventType } => x.type !== null && x.f.starting_at_timestamp !== undefined,
        )
        .map(({ f, type }) => {
          const start = (f.starting_at_timestamp ?? 0) * 1000;
          return {
            id: f.id,
            roundId: stage.id,
            eventType: type,
            startsAt: new Date(start),
            endsAt: new Date(start + (f.length ?? (type === 'RACE' ? 120 : 60)) * 60_000),
          };
        })
        .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.id - b.id);
      if (events.length === 0) continue;
      rounds.push({
        id: stage.id,
        roundNumber: rounds.length + 1,
        gpName: stage.name ?? `Round ${rounds.length + 1}`,
        circuitName: stage.venue?.name ?? '',
        country: stage.venue?.country?.name ?? '',
        sprint: events.some((e) => e.eventType === 'SPRINT'),
        events,
      });
    }
    return {
      id: data.id,
      name: data.name ?? `Season ${data.id}`,
      rounds,
      drivers,
      teams: teams.map((t) => ({ id: t.id, name: t.name ?? '' })),
    };
  }

  async eventState(eventId: number): Promise<EventState> {
    const res = await this.get(`motorsport/fixtures/${eventId}`, { include: 'state;results;events' });
    if (res.status === 404) return { state: 'cancelled', reason: 'the provider no longer knows this session' };
    const f = (
      res.body as {
        data?: V3Session & { results?: V3Result[]; events?: { type?: string }[] };
      }
    ).data;
    const code = f?.state?.developer_name ?? '';
    if (CANCELLED.has(code)) return { state: 'cancelled', reason: `the session was ${code.toLowerCase()}` };
    if (RUNNING.has(code)) return { state: 'running' };
    if (!FINISHED.has(code)) return { state: 'scheduled' };
    const results = f?.results ?? [];
    if (results.length === 0) return { state: 'running' };
    const classified = results
      .filter((r) => r.status !== 'DNF' && r.position !== null && r.position !== undefined)
      .sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
    const dnf = results.filter((r) => r.status === 'DNF').map((r) => r.participant_id);
    return {
      state: 'finished',
      order: [...classified.map((r) => r.participant_id), ...dnf],
      fastestLapDriverId: results.find((r) => r.fastest_lap)?.participant_id ?? null,
      dnfDriverIds: dnf,
      safetyCar: (f?.events ?? []).some((e) => (e.type ?? '').toUpperCase() === 'SAFETY_CAR'),
    };
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
        'The motorsport provider could not be reached',
        {
          cause: err,
        },
      );
    }
    if (res.status === 429 || res.status === 503) {
      throw new DomainError('UPSTREAM_UNAVAILABLE', 'The motorsport provider is busy; retry shortly', {
        retryAfterMs: (res.retryAfterSeconds ?? 30) * 1000,
      });
    }
    if (res.status !== 200 && res.status !== 404) {
      throw new DomainError('UPSTREAM_ERROR', `The motorsport provider answered ${res.status}`);
    }
    return res;
  }
}
