/**
 * Parlay pricing in fixed point, the arithmetic a ticket contract repeats step for step: odds are
 * decimal odds scaled by 1e18 (2.10 → 2_100_000_000_000_000_000n), every product is floored.
 * The formulas are in docs/parlays.md.
 */

export const ODDS_SCALE = 10n ** 18n;
export const BPS = 10_000n;

/** Decimal odds × 100 as the provider gives them (210 for 2.10) → 1e18 fixed point. */
export function oddsFromX100(x100: number): bigint {
  return BigInt(x100) * (ODDS_SCALE / 100n);
}

/** 1e18 fixed-point odds as a decimal string with two to 18 decimals ("2.1" → "2.10"). */
export function formatOdds(odds: bigint): string {
  const whole = odds / ODDS_SCALE;
  const frac = (odds % ODDS_SCALE).toString().padStart(18, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${frac}`;
}

/** The product of the legs' odds, floored after each step. */
export function productOfOdds(legOdds: readonly bigint[]): bigint {
  return legOdds.reduce((acc, o) => (acc * o) / ODDS_SCALE, ODDS_SCALE);
}

/**
 * The ticket's odds: the product of the legs' odds with the house margin taken once from the
 * product (never per leg, so it does not compound with the number of legs), and never below 1.
 */
export function combinedOdds(legOdds: readonly bigint[], marginBps: number): bigint {
  const priced = (productOfOdds(legOdds) * (BPS - BigInt(marginBps))) / BPS;
  return priced < ODDS_SCALE ? ODDS_SCALE : priced;
}

/** The protocol fee on a stake, floored: what the contract keeps before the stake meets the pool. */
export function feeOf(stake: bigint, feeBps: number): bigint {
  return (stake * BigInt(feeBps)) / BPS;
}

export interface TicketPrice {
  readonly stake: bigint;
  readonly fee: bigint;
  /** The stake after the fee: what is at risk and what the odds multiply. */
  readonly netStake: bigint;
  readonly odds: bigint;
  readonly payout: bigint;
  /** What the pool can lose on the ticket: payout − net stake. */
  readonly exposure: bigint;
}

/** Fee, payout and exposure of a stake at the ticket's odds. */
export function priceTicket(stake: bigint, odds: bigint, feeBps: number): TicketPrice {
  const fee = feeOf(stake, feeBps);
  const netStake = stake - fee;
  const payout = (netStake * odds) / ODDS_SCALE;
  return { stake, fee, netStake, odds, payout, exposure: payout - netStake };
}

/** Odds the quote would still accept after a drift of `slippageBps` (the ticket's minimum odds). */
export function minimumOdds(odds: bigint, slippageBps: number): bigint {
  const edge = odds - ODDS_SCALE;
  return ODDS_SCALE + (edge * (BPS - BigInt(slippageBps))) / BPS;
}
