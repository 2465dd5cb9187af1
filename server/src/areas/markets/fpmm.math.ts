/**
 * Fixed-product market maker (the Gnosis FPMM family) in exact integer arithmetic. The Solidity
 * market reproduces these functions line for line, so an estimate made here equals the on-chain
 * result of the same trade on the same state, to the base unit. Formulas: docs/amm.md.
 */

/** Fixed-point unit used inside the product so intermediate ceilings stay precise. */
export const ONE = 10n ** 18n;
export const BPS = 10_000n;
/** The platform minimum per bet and per market funding: 5 collateral units. */
export const MIN_STAKE = 5n * ONE;

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

export interface BuyResult {
  /** Fee taken from the investment (platform + creator), rounded down. */
  readonly fee: bigint;
  /** Investment after fees: the complete sets minted into the pool. */
  readonly net: bigint;
  readonly sharesOut: bigint;
  readonly balancesAfter: bigint[];
}

/** Buying `investment` of option `i`: fees off the top, the rest mints sets, the pool keeps its product. */
export function buy(balances: readonly bigint[], i: number, investment: bigint, feeBps: bigint): BuyResult {
  assertMarket(balances, i);
  if (investment <= 0n) throw new RangeError('investment must be positive');
  const fee = (investment * feeBps) / BPS;
  const net = investment - fee;
  let ending = (balances[i] as bigint) * ONE;
  balances.forEach((b, j) => {
    if (j !== i) ending = ceilDiv(ending * b, b + net);
  });
  const sharesOut = (balances[i] as bigint) + net - ceilDiv(ending, ONE);
  const balancesAfter = balances.map((b, j) => (j === i ? b + net - sharesOut : b + net));
  return { fee, net, sharesOut, balancesAfter };
}

export interface SellResult {
  /** Collateral the pool releases, fees included; the seller receives `returnAmount`. */
  readonly returnPlusFees: bigint;
  readonly fee: bigint;
  /** Shares of option `i` the seller gives up. */
  readonly sharesIn: bigint;
  readonly balancesAfter: bigint[];
}

/** Selling option `i` for exactly `returnAmount` of collateral (after fees). */
export function sellForReturn(
  balances: readonly bigint[],
  i: number,
  returnAmount: bigint,
  feeBps: bigint,
): SellResult {
  assertMarket(balances, i);
  if (returnAmount <= 0n) throw new RangeError('returnAmount must be positive');
  const returnPlusFees = ceilDiv(returnAmount * BPS, BPS - feeBps);
  let ending = (balances[i] as bigint) * ONE;
  balances.forEach((b, j) => {
    if (j === i) return;
    if (returnPlusFees >= b) throw new RangeError('the pool cannot release that much');
    ending = ceilDiv(ending * b, b - returnPlusFees);
  });
  const sharesIn = returnPlusFees + ceilDiv(ending, ONE) - (balances[i] as bigint);
  const balancesAfter = balances.map((b, j) => (j === i ? b + sharesIn - returnPlusFees : b - returnPlusFees));
  return { returnPlusFees, fee: returnPlusFees - returnAmount, sharesIn, balancesAfter };
}

/** The most collateral `shares` of option `i` can be sold for now (0 when none). */
export function maxReturnForShares(balances: readonly bigint[], i: number, shares: bigint, feeBps: bigint): bigint {
  if (shares <= 0n) return 0n;
  const others = balances.filter((_, j) => j !== i);
  // returnPlusFees must stay below every other balance; search the return amount in [0, hi].
  let hi = ((others.reduce((m, b) => (b < m ? b : m)) - 1n) * (BPS - feeBps)) / BPS;
  let lo = 0n;
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n;
    if (sellsWithin(balances, i, mid, feeBps, shares)) lo = mid;
    else hi = mid - 1n;
  }
  return lo;
}

function sellsWithin(balances: readonly bigint[], i: number, amount: bigint, feeBps: bigint, shares: bigint): boolean {
  try {
    return sellForReturn(balances, i, amount, feeBps).sharesIn <= shares;
  } catch {
    return false; // more than the pool can release
  }
}

/**
 * Marginal price of each option, scaled by 1e18 and rounded down:
 * p_i = Π_{j≠i} b_j / Σ_k Π_{j≠k} b_j. For two options p_0 = b_1 / (b_0 + b_1).
 */
export function prices(balances: readonly bigint[]): bigint[] {
  const products = balances.map((_, i) => balances.reduce((acc, b, j) => (j === i ? acc : acc * b), 1n));
  const total = products.reduce((a, b) => a + b, 0n);
  return products.map((p) => (p * ONE) / total);
}

/** Display percentage (0..100, two decimals) of a 1e18-scaled price. Never used for money. */
export function percentage(price: bigint): number {
  return Number((price * 10_000n) / ONE) / 100;
}

function assertMarket(balances: readonly bigint[], i: number): void {
  if (balances.length < 2) throw new RangeError('a market has at least two options');
  if (!Number.isInteger(i) || i < 0 || i >= balances.length) throw new RangeError('option index out of range');
  if (balances.some((b) => b <= 0n)) throw new RangeError('pool balances must be positive');
}
