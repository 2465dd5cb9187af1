import type { Hex } from 'viem';
import type {
  FixtureMarketsPort,
  FixturesPort,
  ProviderFixture,
} from '../../adapters/sports-provider/fixtures.port.js';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import { loadGame, parseConditionId, type Condition, type ConditionKind } from './parlay-conditions.mapper.js';
import { combinedOdds, formatOdds, oddsFromX100 } from './parlay-pricing.math.js';
import type { LegInput, ParlaySettings } from './parlay.types.js';

const DAY_MS = 86_400_000;
/** How far ahead the builders look for games. */
const BUILDER_HORIZON_MS = 7 * DAY_MS;
const SATURDAY_LEGS = 4;
const TEAM_RUN_LEGS = 3;

export interface CatalogueDeps {
  readonly fixtures: FixturesPort & FixtureMarketsPort;
  readonly clock: Clock;
  readonly settings: ParlaySettings;
}

export type OpenState = 'open' | 'closed';

export interface MarketView {
  marketId: string;
  fixtureId: number;
  leagueId: number;
  name: string;
  homeTeam: string;
  awayTeam: string;
  startsAt: string;
  closesAt: string;
  status: OpenState;
}

export interface OutcomeView {
  outcomeId: number;
  label: string;
  odds: string;
}

export interface ConditionView {
  conditionId: Hex;
  marketId: string;
  kind: ConditionKind;
  label: string;
  playerId: number | null;
  status: OpenState;
  closesAt: string;
  outcomes: OutcomeView[];
}

export interface LegView {
  conditionId: Hex;
  outcomeId: number;
  marketId: string;
  kind: ConditionKind;
  label: string;
  outcomeLabel: string;
  odds: string;
}

/** A leg resolved against the catalogue: everything pricing and risk need. */
export interface ResolvedLeg {
  readonly conditionId: Hex;
  readonly outcomeId: number;
  readonly fixtureId: number;
  readonly kind: ConditionKind;
  readonly playerId: number;
  readonly odds: bigint;
  readonly view: LegView;
}

export type LegCheck =
  | { readonly valid: true; readonly legs: readonly ResolvedLeg[] }
  | { readonly valid: false; readonly fieldErrors: Record<string, string[]>; readonly legs: readonly ResolvedLeg[] };

interface Game {
  readonly fixture: ProviderFixture;
  readonly conditions: readonly Condition[];
}

/**
 * The parlay catalogue: games of the configured leagues from the sports provider, each a market
 * with its conditions (1X2, goals line, goalscorer props); the same-game menu; the two ready-made
 * builders; and the rules a set of legs must pass (docs/parlays.md, "Legs").
 */
export class ParlayCatalogueService {
  constructor(private readonly deps: CatalogueDeps) {}

  async markets(): Promise<{ markets: MarketView[] }> {
    const now = this.deps.clock.now();
    // Games not yet kicked off: one starting this very instant has closed already.
    const fixtures = await this.fixturesBetween(now + 1, now + this.deps.settings.windowHours * 3_600_000);
    return { markets: fixtures.map((f) => this.marketView(f, now)) };
  }

  async market(marketId: string): Promise<MarketView & { conditions: ConditionView[] }> {
    const game = await this.game(marketId);
    const now = this.deps.clock.now();
    return {
      ...this.marketView(game.fixture, now),
      conditions: game.conditions.map((c) => this.conditionView(c, game, now)),
    };
  }

  async playerProps(marketId: string): Promise<{ marketId: string; props: ConditionView[] }> {
    const game = await this.game(marketId);
    const now = this.deps.clock.now();
    const props = game.conditions.filter((c) => c.kind === 'ANYTIME_GOALSCORER');
    return { marketId, props: props.map((c) => this.conditionView(c, game, now)) };
  }

  /** The legs of one game that may go together on a ticket (the same-game rules in docs/parlays.md). */
  async sgpMenu(marketId: string) {
    const game = await this.game(marketId);
    const now = this.deps.clock.now();
    const legs = game.conditions
      .filter((c) => c.kind !== 'GOALS_OVER_UNDER')
      .flatMap((c) => c.outcomes.map((o) => legView(c, o.outcomeId)));
    return {
      marketId,
      status: this.marketView(game.fixture, now).status,
      maxSameGameLegs: this.deps.settings.maxSameGameLegs,
      rules: SAME_GAME_RULES,
      legs,
    };
  }

  async conditions(marketId?: string): Promise<{ conditions: ConditionView[] }> {
    const now = this.deps.clock.now();
    const fixtures = marketId
      ? [(await this.game(marketId)).fixture]
      : await this.fixturesBetween(now + 1, now + this.deps.settings.windowHours * 3_600_000);
    const games = await Promise.all(fixtures.map((f) => this.loadGame(f)));
    return { conditions: games.flatMap((g) => g.conditions.map((c) => this.conditionView(c, g, now))) };
  }

  /** Current odds of a market's conditions, or of one condition when `marketId` is a condition id. */
  async odds(marketId: string) {
    const now = this.deps.clock.now();
    const key = marketId.startsWith('0x') ? parseConditionId(marketId) : null;
    const game = await this.game(key ? String(key.fixtureId) : marketId);
    const conditions = game.conditions.filter((c) => !key || (c.kind === key.kind && c.playerId === key.playerId));
    if (key && conditions.length === 0) throw new DomainError('NOT_FOUND', 'No such condition');
    return {
      marketId: String(game.fixture.id),
      asOf: new Date(now).toISOString(),
      conditions: conditions.map((c) => ({
        conditionId: c.conditionId,
        status: this.state(game.fixture, now),
        outcomes: c.outcomes.map((o) => ({ outcomeId: o.outcomeId, odds: formatOdds(oddsFromX100(o.oddsX100)) })),
      })),
    };
  }

  /**
   * The next Saturday's (UTC; today when it is Saturday) accumulator: the favourite of the
   * full-time result in each of the first games still open that day, one leg per game, leagues
   * taken in turn so every league is represented before any gives a second game.
   */
  async europeanSaturday() {
    const now = this.deps.clock.now();
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    const saturday = today + ((6 - new Date(today).getUTCDay() + 7) % 7) * DAY_MS;
    const open = (await this.fixturesBetween(Math.max(now, saturday), saturday + DAY_MS)).filter(
      (f) => this.state(f, now) === 'open',
    );
    const byLeague = new Map<number, ProviderFixture[]>();
    for (const f of open) byLeague.set(f.leagueId, [...(byLeague.get(f.leagueId) ?? []), f]);
    const picked: ProviderFixture[] = [];
    for (let round = 0; picked.length < SATURDAY_LEGS && picked.length < open.length; round++) {
      for (const league of [...byLeague.keys()].sort((a, b) => a - b)) {
        const f = byLeague.get(league)?.[round];
        if (f && picked.length < SATURDAY_LEGS) picked.push(f);
      }
    }
    const legs = await this.favourites(picked, () => null);
    return {
      builder: 'european-saturday' as const,
      date: new Date(saturday).toISOString().slice(0, 10),
      ...this.priced(legs),
    };
  }

  /**
   * One team to win each of its next games still open within seven days (up to three). The team
   * is `team` (case-insensitive), or the home side of the next open game when none is named.
   */
  async sameTeamRun(team?: string) {
    const now = this.deps.clock.now();
    const open = (await this.fixturesBetween(now, now + BUILDER_HORIZON_MS)).filter(
      (f) => this.state(f, now) === 'open',
    );
    const name = team ?? open[0]?.homeTeam;
    const sideOf = (f: ProviderFixture) =>
      f.homeTeam.toLowerCase() === name?.toLowerCase()
        ? 0
        : f.awayTeam.toLowerCase() === name?.toLowerCase()
          ? 2
          : null;
    const games = open.filter((f) => sideOf(f) !== null).slice(0, TEAM_RUN_LEGS);
    if (!name || games.length === 0)
      throw new DomainError('NOT_FOUND', `No open games of ${name ?? 'any team'} in the next seven days`);
    const legs = await this.favourites(games, sideOf);
    return {
      builder: 'same-team-run' as const,
      team: games[0] && sideOf(games[0]) === 0 ? games[0].homeTeam : (games[0]?.awayTeam ?? name),
      ...this.priced(legs),
    };
  }

  /**
   * Every problem of a leg set, keyed by field (`legs`, `legs.2.conditionId`, `legs.1`): count,
   * unknown or closed conditions, unknown outcomes, duplicates, two outcomes of one condition and
   * same-game combinations outside the menu.
   */
  async checkLegs(input: readonly LegInput[], at?: Date): Promise<LegCheck> {
    const s = this.deps.settings;
    const now = at?.getTime() ?? this.deps.clock.now();
    const errors: Record<string, string[]> = {};
    const add = (field: string, message: string) => (errors[field] = [...(errors[field] ?? []), message]);
    if (input.length < s.minLegs) add('legs', `a parlay has at least ${s.minLegs} legs`);
    if (input.length > s.maxLegs) add('legs', `a parlay has at most ${s.maxLegs} legs`);
    const keys = input.map((l) => parseConditionId(l.conditionId));
    const games = new Map<number, Game | null>();
    for (const k of keys) if (k && !games.has(k.fixtureId)) games.set(k.fixtureId, null);
    await Promise.all(
      [...games.keys()].map(async (id) => {
        const fixture = await this.deps.fixtures.fixture(id);
        if (fixture && s.leagues.includes(fixture.leagueId)) games.set(id, await this.loadGame(fixture));
      }),
    );
    const legs: ResolvedLeg[] = [];
    const resolvedAt: (ResolvedLeg | null)[] = input.map((leg, i) => {
      const key = keys[i];
      if (!key) return (add(`legs.${i}.conditionId`, 'not a condition id'), null);
      const game = games.get(key.fixtureId);
      const condition = game?.conditions.find((c) => c.kind === key.kind && c.playerId === key.playerId);
      if (!game || !condition) return (add(`legs.${i}.conditionId`, 'no such condition in the catalogue'), null);
      const outcome = condition.outcomes.find((o) => o.outcomeId === leg.outcomeId);
      if (!outcome)
        return (
          add(
            `legs.${i}.outcomeId`,
            `outcomes of this condition: ${condition.outcomes.map((o) => o.outcomeId).join(', ')}`,
          ),
          null
        );
      if (this.state(game.fixture, now) !== 'open')
        add(`legs.${i}.conditionId`, 'closed: the game starts too soon or has started');
      const resolved: ResolvedLeg = {
        conditionId: condition.conditionId,
        outcomeId: outcome.outcomeId,
        fixtureId: key.fixtureId,
        kind: key.kind,
        playerId: key.playerId,
        odds: oddsFromX100(outcome.oddsX100),
        view: legView(condition, outcome.outcomeId),
      };
      legs.push(resolved);
      return resolved;
    });
    resolvedAt.forEach((leg, i) => {
      if (!leg) return;
      for (let j = 0; j < i; j++) {
        const other = resolvedAt[j];
        if (!other) continue;
        if (other.conditionId === leg.conditionId) {
          add(
            `legs.${i}`,
            other.outcomeId === leg.outcomeId
              ? `duplicate of leg ${j}`
              : `another outcome of the condition of leg ${j}`,
          );
        } else if (
          other.fixtureId === leg.fixtureId &&
          (other.kind === 'GOALS_OVER_UNDER' || leg.kind === 'GOALS_OVER_UNDER')
        ) {
          add(`legs.${i}`, `the goals line is not combinable with leg ${j} of the same game`);
        }
      }
      const sameGame = resolvedAt.slice(0, i + 1).filter((l) => l?.fixtureId === leg.fixtureId).length;
      if (sameGame === s.maxSameGameLegs + 1) add(`legs.${i}`, `at most ${s.maxSameGameLegs} legs of one game`);
    });
    return Object.keys(errors).length === 0 ? { valid: true, legs } : { valid: false, fieldErrors: errors, legs };
  }

  private async favourites(
    fixtures: readonly ProviderFixture[],
    sideOf: (f: ProviderFixture) => number | null,
  ): Promise<{ view: LegView; odds: bigint }[]> {
    const games = await Promise.all(fixtures.map((f) => this.loadGame(f)));
    return games.flatMap((g) => {
      const result = g.conditions.find((c) => c.kind === 'FULL_TIME_RESULT');
      if (!result) return [];
      const forced = sideOf(g.fixture);
      const best = [...result.outcomes].sort((a, b) => a.oddsX100 - b.oddsX100 || a.outcomeId - b.outcomeId)[0];
      const outcome = forced === null ? best : result.outcomes.find((o) => o.outcomeId === forced);
      return outcome ? [{ view: legView(result, outcome.outcomeId), odds: oddsFromX100(outcome.oddsX100) }] : [];
    });
  }

  private priced(legs: { view: LegView; odds: bigint }[]) {
    const odds = combinedOdds(
      legs.map((l) => l.odds),
      this.deps.settings.marginBps,
    );
    return { legs: legs.map((l) => l.view), combinedOdds: formatOdds(odds) };
  }

  private async game(marketId: string): Promise<Game> {
    const id = /^[1-9][0-9]{0,15}$/.test(marketId) ? Number(marketId) : null;
    const fixture = id === null ? null : await this.deps.fixtures.fixture(id);
    if (!fixture || !this.deps.settings.leagues.includes(fixture.leagueId)) {
      throw new DomainError('NOT_FOUND', 'No such parlay market');
    }
    return this.loadGame(fixture);
  }

  private async loadGame(fixture: ProviderFixture): Promise<Game> {
    return { fixture, conditions: await loadGame(this.deps.fixtures, fixture) };
  }

  private async fixturesBetween(from: number, to: number): Promise<ProviderFixture[]> {
    if (to <= from) return [];
    const lists = await Promise.all(
      this.deps.settings.leagues.map((l) => this.deps.fixtures.fixturesBetween(l, new Date(from), new Date(to))),
    );
    return lists.flat().sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.id - b.id);
  }

  private closesAt(f: ProviderFixture): number {
    return f.startsAt.getTime() - this.deps.settings.minLeadSeconds * 1000;
  }

  private state(f: ProviderFixture, now: number): OpenState {
    return now < this.closesAt(f) ? 'open' : 'closed';
  }

  private marketView(f: ProviderFixture, now: number): MarketView {
    return {
      marketId: String(f.id),
      fixtureId: f.id,
      leagueId: f.leagueId,
      name: f.name,
      homeTeam: f.homeTeam,
      awayTeam: f.awayTeam,
      startsAt: f.startsAt.toISOString(),
      closesAt: new Date(this.closesAt(f)).toISOString(),
      status: this.state(f, now),
    };
  }

  private conditionView(c: Condition, game: Game, now: number): ConditionView {
    return {
      conditionId: c.conditionId,
      marketId: String(c.fixtureId),
      kind: c.kind,
      label: c.label,
      playerId: c.playerId || null,
      status: this.state(game.fixture, now),
      closesAt: new Date(this.closesAt(game.fixture)).toISOString(),
      outcomes: c.outcomes.map((o) => ({
        outcomeId: o.outcomeId,
        label: o.label,
        odds: formatOdds(oddsFromX100(o.oddsX100)),
      })),
    };
  }
}

/** The same-game rules, as the menu states them. */
export const SAME_GAME_RULES = [
  'never two outcomes of one condition, never the same leg twice',
  'the full-time result combines with goalscorer props of distinct players',
  'the goals line combines only with legs of other games',
];

function legView(c: Condition, outcomeId: number): LegView {
  const o = c.outcomes.find((x) => x.outcomeId === outcomeId);
  return {
    conditionId: c.conditionId,
    outcomeId,
    marketId: String(c.fixtureId),
    kind: c.kind,
    label: c.label,
    outcomeLabel: o?.label ?? '',
    odds: formatOdds(oddsFromX100(o?.oddsX100 ?? 100)),
  };
}
