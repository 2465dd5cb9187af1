import type {
  FixtureMarketsPort,
  FixtureOdds,
  FixturesPort,
  GoalsLine,
  PlayerProp,
  ProviderFixture,
} from '../../adapters/sports-provider/fixtures.port.js';
import type { ExposureSnapshot, QuoteLegRow, ReserveDecision, StoredQuote } from './parlay.repository.js';
import { outcomeKey } from './parlay.repository.js';
import type { QuoteStore } from './parlay-quote.service.js';
import type { ParlaySettings } from './parlay.types.js';

export const UNIT = 10n ** 18n;
/** Saturday 5 December 2026, 08:00 UTC. */
export const T0 = Date.UTC(2026, 11, 5, 8);
export const HOUR = 3_600_000;

export const SETTINGS: ParlaySettings = {
  leagues: [8],
  windowHours: 24,
  minLeadSeconds: 600,
  marginBps: 500,
  feeBps: 100,
  quoteTtlSeconds: 120,
  maxDriftBps: 300,
  signerKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  bookAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  minStake: 5n * UNIT,
  minLegs: 2,
  maxLegs: 4,
  maxSameGameLegs: 3,
  maxOddsX100: 50_000,
  maxPayout: 10_000n * UNIT,
  capPerOutcome: 2_000n * UNIT,
  capPerGame: 5_000n * UNIT,
  poolPayoutShareBps: 1_000,
  lpLockupSeconds: 7 * 86_400,
};

/** Games every two hours from T0 (ids 1..), league 8, 1X2 at 2.00 / 3.40 / 3.80, a goals line and two scorers each. */
export class FakeFixtures implements FixturesPort, FixtureMarketsPort {
  readonly games: ProviderFixture[] = Array.from({ length: 12 }, (_, i) => ({
    id: i + 1,
    leagueId: 8,
    name: `Team ${i * 2} vs Team ${i * 2 + 1}`,
    homeTeam: `Team ${i * 2}`,
    awayTeam: `Team ${i * 2 + 1}`,
    startsAt: new Date(T0 + (i + 1) * 2 * HOUR),
  }));
  /** Odds of the home side, by fixture id, when a test moves them. */
  readonly homeOdds = new Map<number, number>();

  async fixturesBetween(leagueId: number, from: Date, to: Date) {
    return this.games.filter((g) => g.leagueId === leagueId && g.startsAt >= from && g.startsAt < to);
  }
  async odds(id: number): Promise<FixtureOdds | null> {
    return { home: this.homeOdds.get(id) ?? 200, draw: 340, away: 380 };
  }
  async state() {
    return { state: 'scheduled' as const };
  }
  async fixture(id: number) {
    return this.games.find((g) => g.id === id) ?? null;
  }
  async goalsLine(): Promise<GoalsLine | null> {
    return { lineX10: 25, over: 190, under: 195 };
  }
  async playerProps(id: number): Promise<PlayerProp[]> {
    return [
      { playerId: id * 100 + 9, playerName: `Striker ${id}`, team: null, odds: 300 },
      { playerId: id * 100 + 10, playerName: `Winger ${id}`, team: null, odds: 450 },
    ];
  }
}

/** Quotes in memory, reservations serialised like the pool's row lock. */
export class MemoryQuoteStore implements QuoteStore {
  readonly quotes: StoredQuote[] = [];
  readonly legs = new Map<string, readonly QuoteLegRow[]>();
  cash = 1_000_000n * UNIT;
  private lock: Promise<unknown> = Promise.resolve();

  reserve<R>(legs: readonly QuoteLegRow[], now: Date, decide: (s: ExposureSnapshot) => ReserveDecision<R>) {
    const run = this.lock.then(async () => {
      const live = this.quotes.filter((q) => q.status === 'placed' || q.expiresAt > now);
      const byOutcome = new Map<string, bigint>();
      const byGame = new Map<number, bigint>();
      for (const q of live) {
        const ls = this.legs.get(q.id) ?? [];
        for (const l of new Map(ls.map((x) => [outcomeKey(x.conditionId, x.outcomeId), x])).keys()) {
          byOutcome.set(l, (byOutcome.get(l) ?? 0n) + q.exposure);
        }
        for (const f of new Set(ls.map((x) => x.fixtureId))) byGame.set(f, (byGame.get(f) ?? 0n) + q.exposure);
      }
      const total = live.reduce((a, q) => a + q.exposure, 0n);
      const d = decide({ byOutcome, byGame, total, cash: this.cash });
      if (!d.ok) return { ok: false as const, refusal: d.refusal };
      const nonce = BigInt(this.quotes.filter((q) => q.bettor === d.quote.bettor).length);
      const signed = await d.sign(nonce);
      const stored: StoredQuote = {
        ...d.quote,
        nonce,
        typedData: JSON.parse(JSON.stringify(signed.typedData)),
        signature: signed.signature,
      };
      this.quotes.push(stored);
      this.legs.set(stored.id, legs);
      return { ok: true as const, quote: stored };
    });
    this.lock = run.catch(() => undefined);
    return run;
  }
  async quote(id: string) {
    return this.quotes.find((q) => q.id === id) ?? null;
  }
  async quoteByNonce(bettor: string, nonce: bigint) {
    return this.quotes.find((q) => q.bettor === bettor.toLowerCase() && q.nonce === nonce) ?? null;
  }
  async nextNonce(bettor: string) {
    return BigInt(this.quotes.filter((q) => q.bettor === bettor.toLowerCase()).length);
  }
}
