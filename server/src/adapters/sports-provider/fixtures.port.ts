/** The outcomes of a football fixture's full-time result (1X2), as the tournaments area speaks of them. */
export type FixtureOutcome = 'HOME' | 'DRAW' | 'AWAY';

/** A scheduled football fixture of the provider. */
export interface ProviderFixture {
  /** The provider's fixture id. */
  readonly id: number;
  readonly leagueId: number;
  readonly name: string;
  readonly homeTeam: string;
  readonly awayTeam: string;
  readonly startsAt: Date;
}

/** Pre-match decimal odds of the full-time result, × 100 (2.10 → 210). */
export interface FixtureOdds {
  readonly home: number;
  readonly draw: number;
  readonly away: number;
}

/** Where a fixture stands at the provider. */
export type FixtureState =
  | { readonly state: 'scheduled' | 'in_play' | 'delayed' }
  | {
      readonly state: 'finished';
      /** The result after regular time (a match that went to extra time was level after 90 minutes). */
      readonly outcome: FixtureOutcome;
      readonly homeScore: number;
      readonly awayScore: number;
    }
  | { readonly state: 'void'; readonly reason: string };

/**
 * Football fixtures, odds and results in domain terms, above the provider's HTTP API: the
 * tournaments area speaks fixtures, never URLs. Failures are DomainErrors (UPSTREAM_*).
 */
export interface FixturesPort {
  /** Fixtures of a league kicking off in [from, to), earliest first. */
  fixturesBetween(leagueId: number, from: Date, to: Date): Promise<ProviderFixture[]>;
  /** Pre-match odds of the full-time result, or null when the provider has none. */
  odds(fixtureId: number): Promise<FixtureOdds | null>;
  state(fixtureId: number): Promise<FixtureState>;
}

/** Pre-match odds (× 100) of a fixture's goals over/under line. */
export interface GoalsLine {
  /** The line in tenths of a goal: 25 for 2.5. */
  readonly lineX10: number;
  readonly over: number;
  readonly under: number;
}

/** One player's "scores at any time" prop, odds × 100. */
export interface PlayerProp {
  readonly playerId: number;
  readonly playerName: string;
  readonly team: 'home' | 'away' | null;
  readonly odds: number;
}

/** A fixture's markets beyond the full-time result: the goals line and player props. */
export interface FixtureMarketsPort {
  /** One fixture, or null when the provider does not know it. */
  fixture(fixtureId: number): Promise<ProviderFixture | null>;
  /** The goals over/under line, or null when the provider has none. */
  goalsLine(fixtureId: number): Promise<GoalsLine | null>;
  /** Anytime-goalscorer props, by player id. */
  playerProps(fixtureId: number): Promise<PlayerProp[]>;
}
