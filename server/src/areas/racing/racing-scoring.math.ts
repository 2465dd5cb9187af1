import type { EventClassification, RaceEventType } from '../../adapters/sports-provider/motorsport.port.js';

/** How many places a prediction of each kind of session lists, in order. */
export const POSITIONS: Record<RaceEventType, number> = {
  QUALIFYING: 5,
  SPRINT_QUALIFYING: 5,
  SPRINT: 8,
  RACE: 10,
};

/** The scoring table (docs/racing.md). Points are whole numbers. */
export const POINTS = {
  /** The right driver in the exact place. */
  exact: 3,
  /** A driver predicted in the top N who finished in the top N, in another place. */
  inTopN: 1,
  /** Added for each driver predicted on the podium (places 1–3) who finished on the podium. */
  podium: 1,
  /** Percent added (rounded down) to an event's points when the prediction was locked early. */
  earlyLockBonusPct: 20,
} as const;

/** Side-bet props of a weekend, settled on its race, and what a right answer scores. */
export const SIDE_BET_POINTS = {
  FASTEST_LAP: 5,
  SAFETY_CAR: 2,
  DNF_COUNT: 4,
} as const;

export type SideBetProp = keyof typeof SIDE_BET_POINTS;

export interface EventScore {
  readonly exact: number;
  readonly inTopN: number;
  readonly podium: number;
  readonly base: number;
  readonly bonus: number;
  readonly total: number;
}

/**
 * The points of a prediction (distinct driver ids, predicted winner first) against the official
 * classification: `exact` per driver in the right place, `inTopN` per driver in the top N in
 * another place, `podium` per predicted podium driver on the actual podium, then the early-lock
 * bonus. Never negative; the maximum for an event is reached by the true top N and nothing else.
 */
export function scoreEvent(
  eventType: RaceEventType,
  predicted: readonly number[],
  result: Pick<EventClassification, 'order'>,
  lockedEarly: boolean,
): EventScore {
  const n = POSITIONS[eventType];
  const actualTop = result.order.slice(0, n);
  const placeOf = new Map(actualTop.map((id, i) => [id, i]));
  let exact = 0;
  let inTopN = 0;
  let podium = 0;
  predicted.slice(0, n).forEach((driver, i) => {
    const place = placeOf.get(driver);
    if (place === undefined) return;
    if (place === i) exact++;
    else inTopN++;
    if (i < 3 && place < 3) podium++;
  });
  const base = exact * POINTS.exact + inTopN * POINTS.inTopN + podium * POINTS.podium;
  const bonus = lockedEarly ? Math.floor((base * POINTS.earlyLockBonusPct) / 100) : 0;
  return { exact, inTopN, podium, base, bonus, total: base + bonus };
}

/** The most an event's prediction can score (the true order, locked early or not). */
export function maxEventScore(eventType: RaceEventType, lockedEarly: boolean): number {
  const n = POSITIONS[eventType];
  const base = n * POINTS.exact + 3 * POINTS.podium;
  return base + (lockedEarly ? Math.floor((base * POINTS.earlyLockBonusPct) / 100) : 0);
}

export type SideBetPick =
  | { readonly prop: 'FASTEST_LAP'; readonly driverId: number }
  | { readonly prop: 'SAFETY_CAR'; readonly value: boolean }
  | { readonly prop: 'DNF_COUNT'; readonly count: number };

/** The points of one side bet against the race's classification: the prop's points when right, else 0. */
export function scoreSideBet(pick: SideBetPick, race: EventClassification): number {
  switch (pick.prop) {
    case 'FASTEST_LAP':
      return race.fastestLapDriverId === pick.driverId ? SIDE_BET_POINTS.FASTEST_LAP : 0;
    case 'SAFETY_CAR':
      return race.safetyCar === pick.value ? SIDE_BET_POINTS.SAFETY_CAR : 0;
    case 'DNF_COUNT':
      return race.dnfDriverIds.length === pick.count ? SIDE_BET_POINTS.DNF_COUNT : 0;
  }
}

/** A weekend's total: its events' points plus its side bets' points. */
export function weekendTotal(eventPoints: readonly number[], sideBetPoints: readonly number[]): number {
  return [...eventPoints, ...sideBetPoints].reduce((a, b) => a + b, 0);
}

/** Elo: every entrant starts at this rating. */
export const ELO_START = 1500;
/** Elo: the K factor of one event, spread over an entrant's pairwise games. */
export const ELO_K = 32;

/**
 * One event's Elo update: every pair of entrants who predicted it plays a game won by the higher
 * event score (a tie is half a point each). An entrant's change is K / (n − 1) times the sum over
 * their games of (result − expected), so the changes of an event sum to zero.
 */
export function eloStep(
  ratings: ReadonlyMap<string, number>,
  scores: readonly { readonly wallet: string; readonly points: number }[],
): Map<string, number> {
  const next = new Map(ratings);
  if (scores.length < 2) {
    for (const s of scores) if (!next.has(s.wallet)) next.set(s.wallet, ELO_START);
    return next;
  }
  const rating = (w: string) => ratings.get(w) ?? ELO_START;
  const k = ELO_K / (scores.length - 1);
  for (const a of scores) {
    let delta = 0;
    for (const b of scores) {
      if (a === b) continue;
      const expected = 1 / (1 + 10 ** ((rating(b.wallet) - rating(a.wallet)) / 400));
      const result = a.points > b.points ? 1 : a.points === b.points ? 0.5 : 0;
      delta += result - expected;
    }
    next.set(a.wallet, rating(a.wallet) + k * delta);
  }
  return next;
}

/** The ratings after a sequence of events, from scratch: the fold of {@link eloStep}. */
export function eloFromScratch(
  events: readonly (readonly { readonly wallet: string; readonly points: number }[])[],
): Map<string, number> {
  return events.reduce<Map<string, number>>((r, e) => eloStep(r, e), new Map());
}

/** Elo ratings on the wire: two decimals. */
export const roundRating = (r: number) => Math.round(r * 100) / 100;

/**
 * The payout split of a finished season: the distributable amount shared by `payoutBps` over the
 * final places (1st, 2nd, …); shares of places nobody holds and the rounding dust go to the first
 * placed. Pure, in base units.
 */
export function seasonPayouts(
  distributable: bigint,
  payoutBps: readonly number[],
  ranked: readonly string[],
): { wallet: string; placement: number; amount: bigint }[] {
  if (ranked.length === 0) return [];
  const lines = ranked.slice(0, payoutBps.length).map((wallet, i) => ({
    wallet,
    placement: i + 1,
    amount: (distributable * BigInt(payoutBps[i] ?? 0)) / 10_000n,
  }));
  const dust = distributable - lines.reduce((s, l) => s + l.amount, 0n);
  const head = lines[0];
  if (head) lines[0] = { ...head, amount: head.amount + dust };
  return lines.filter((l) => l.amount > 0n);
}
