import { DomainError } from '../../errors.js';
import { UpstreamTransportError, type SportsProviderPort } from '../sports-provider/sports-provider.port.js';
import type { MatchEvent, MatchFacts, MatchFactsPort } from './commentary.port.js';

interface V3Event {
  minute?: number;
  type_id?: number;
  participant_id?: number;
  player_name?: string;
  result?: string | null;
}
interface V3Fixture {
  id: number;
  name?: string;
  starting_at_timestamp?: number;
  participants?: { id?: number; name?: string; meta?: { location?: string } }[];
  scores?: { description?: string; score?: { goals?: number; participant?: string } }[];
  state?: { developer_name?: string };
  events?: V3Event[];
}

const KINDS: Record<number, MatchEvent['kind']> = {
  14: 'goal',
  19: 'yellow_card',
  20: 'red_card',
  21: 'red_card',
  18: 'substitution',
};
const FINISHED = new Set(['FT', 'AET', 'FT_PEN', 'AWARDED']);
const VOID = new Set(['CANCELLED', 'ABANDONED', 'DELETED', 'WO', 'POSTPONED']);
const NOT_STARTED = new Set(['NS', 'TBA']);

/** A fixture with its participants, scores, state and events from Sportmonks' football v3 API. */
export class SportmonksMatchFactsAdapter implements MatchFactsPort {
  constructor(
    private readonly provider: SportsProviderPort,
    private readonly timeoutMs = 8_000,
  ) {}

  async facts(fixtureId: number): Promise<MatchFacts | null> {
    let res;
    try {
      res = await this.provider.fetch(
        {
          api: 'v3',
          path: `football/fixtures/${fixtureId}`,
          params: [['include', 'events;participants;scores;state']],
        },
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
    if (res.status === 404) return null;
    if (res.status !== 200) throw new DomainError('UPSTREAM_ERROR', `The sports-data provider answered ${res.status}`);
    const f = (res.body as { data?: V3Fixture }).data;
    if (!f) return null;
    const side = (location: string) => f.participants?.find((p) => p.meta?.location === location);
    const home = side('home');
    const away = side('away');
    const [nameHome = 'Home', nameAway = 'Away'] = (f.name ?? '').split(' vs ');
    const goals = (s: string) =>
      f.scores?.find((x) => x.description === 'CURRENT' && x.score?.participant === s)?.score?.goals;
    const h = goals('home');
    const a = goals('away');
    const code = f.state?.developer_name ?? '';
    const events: MatchEvent[] = [];
    for (const e of f.events ?? []) {
      const kind = KINDS[e.type_id ?? -1];
      if (!kind || typeof e.minute !== 'number') continue;
      events.push({
        minute: e.minute,
        kind,
        side: e.participant_id !== undefined && e.participant_id === away?.id ? 'away' : 'home',
        player: e.player_name ?? 'unknown player',
        result: e.result ?? null,
      });
    }
    return {
      fixtureId: f.id,
      name: f.name ?? `${home?.name ?? nameHome} vs ${away?.name ?? nameAway}`,
      homeTeam: home?.name ?? nameHome,
      awayTeam: away?.name ?? nameAway,
      startsAt: new Date((f.starting_at_timestamp ?? 0) * 1000),
      state: FINISHED.has(code)
        ? 'finished'
        : VOID.has(code)
          ? 'void'
          : NOT_STARTED.has(code)
            ? 'scheduled'
            : 'in_play',
      score: h === undefined || a === undefined ? null : { home: h, away: a },
      events,
    };
  }
}
