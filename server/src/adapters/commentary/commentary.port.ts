/** What happened in a fixture, as the sports provider reports it: the commentary's input. */
export interface MatchFacts {
  readonly fixtureId: number;
  readonly name: string;
  readonly homeTeam: string;
  readonly awayTeam: string;
  readonly startsAt: Date;
  /** `scheduled`, `in_play`, `finished`, `void`. */
  readonly state: 'scheduled' | 'in_play' | 'finished' | 'void';
  readonly score: { readonly home: number; readonly away: number } | null;
  readonly events: readonly MatchEvent[];
}

export interface MatchEvent {
  readonly minute: number;
  readonly kind: 'goal' | 'yellow_card' | 'red_card' | 'substitution';
  readonly side: 'home' | 'away';
  readonly player: string;
  /** The score after a goal, as `home-away`. */
  readonly result: string | null;
}

export interface CommentaryLine {
  readonly minute: number | null;
  readonly kind: 'preview' | 'goal' | 'card' | 'substitution' | 'result' | 'status';
  readonly text: string;
}

/**
 * Turns a fixture's facts into commentary lines. The default is a deterministic template
 * generator; an external (AI) generator plugs in behind the same port.
 */
export interface CommentaryGeneratorPort {
  readonly name: string;
  generate(facts: MatchFacts): Promise<CommentaryLine[]>;
}

/** A fixture's facts from the sports provider; null when the provider does not have it. */
export interface MatchFactsPort {
  facts(fixtureId: number): Promise<MatchFacts | null>;
}
