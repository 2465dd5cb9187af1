import { PACK_POINTS_SCALE } from '@duelkit/contract';

const ONE = 10n ** 18n;
const SCALE = BigInt(PACK_POINTS_SCALE);
const BPS = 10_000n;

/**
 * Points a correct pick scores: the probability against it when it was made, in basis points,
 * floored. A pick at a price of 0.30 scores 7000, one at 0.90 scores 1000: early contrarian picks
 * are worth more than following the crowd.
 */
export function pointsIfCorrect(price: bigint): number {
  const clamped = price < 0n ? 0n : price > ONE ? ONE : price;
  return Number(((ONE - clamped) * SCALE) / ONE);
}

/** What a market means for the picks on it: still open, an outcome, or voided (neutral). */
export type MarketOutcome =
  | { readonly kind: 'pending' }
  | { readonly kind: 'resolved'; readonly winningOptionIndex: number }
  | { readonly kind: 'voided' };

export type PickResult = 'pending' | 'won' | 'lost' | 'void';

export function pickResult(outcome: MarketOutcome, optionIndex: number): PickResult {
  switch (outcome.kind) {
    case 'pending':
      return 'pending';
    case 'voided':
      return 'void';
    case 'resolved':
      return outcome.winningOptionIndex === optionIndex ? 'won' : 'lost';
  }
}

/** Points of one pick: its locked points when won, 0 when lost or voided, null while pending. */
export function pickPoints(result: PickResult, locked: number): number | null {
  if (result === 'pending') return null;
  return result === 'won' ? locked : 0;
}

export interface ScoredEntrant {
  readonly account: string;
  readonly points: number;
}

export type Ranked<T extends ScoredEntrant> = T & { readonly rank: number };

/**
 * Standard competition ranking: more points rank higher, equal points share a rank and the next
 * rank skips (1, 2, 2, 4). Within a rank, entrants are listed by account.
 */
export function rankEntrants<T extends ScoredEntrant>(entrants: readonly T[]): Ranked<T>[] {
  const sorted = [...entrants].sort(
    (a, b) => b.points - a.points || (a.account.toLowerCase() < b.account.toLowerCase() ? -1 : 1),
  );
  let rank = 0;
  return sorted.map((e, i) => {
    if (i === 0 || e.points !== sorted[i - 1]?.points) rank = i + 1;
    return { ...e, rank };
  });
}

export interface PrizeSplit {
  /** Payout per account (every ranked account, 0 for the unpaid). */
  readonly payouts: ReadonlyMap<string, bigint>;
  /** The platform fee: feeBps of the pool, floored. */
  readonly fee: bigint;
  /** What flooring left over; it goes to the treasury with the fee. */
  readonly dust: bigint;
  readonly prizePool: bigint;
}

/**
 * Splits `pool` minus the fee by rank. The paid places are the entrants with points (everyone, when
 * nobody scored); place i of P weighs P − i + 1, so the first takes P/(P(P+1)/2) of the prize pool
 * and the last 1/(P(P+1)/2). Tied entrants share the weights of the places they cover equally.
 * Every amount is floored to a base unit; the remainder is `dust`.
 */
export function splitPrizes(ranked: readonly Ranked<ScoredEntrant>[], pool: bigint, feeBps: number): PrizeSplit {
  const fee = (pool * BigInt(feeBps)) / BPS;
  const prizePool = pool - fee;
  const payouts = new Map<string, bigint>();
  const scoring = ranked.filter((e) => e.points > 0).length;
  const places = BigInt(scoring > 0 ? scoring : ranked.length);
  const totalWeight = (places * (places + 1n)) / 2n;
  let paid = 0n;
  for (let start = 0; start < ranked.length;) {
    const rank = ranked[start]?.rank;
    let end = start;
    while (end + 1 < ranked.length && ranked[end + 1]?.rank === rank) end++;
    // Positions start+1 .. end+1 (1-based); only those within the paid places weigh.
    let weight = 0n;
    for (let position = BigInt(start + 1); position <= BigInt(end + 1) && position <= places; position++) {
      weight += places - position + 1n;
    }
    const size = BigInt(end - start + 1);
    const each = totalWeight === 0n ? 0n : (prizePool * weight) / totalWeight / size;
    for (let i = start; i <= end; i++) {
      const account = ranked[i]?.account as string;
      payouts.set(account, each);
      paid += each;
    }
    start = end + 1;
  }
  return { payouts, fee, dust: prizePool - paid, prizePool };
}
