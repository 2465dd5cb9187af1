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
