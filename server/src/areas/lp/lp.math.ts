/**
 * Share accounting of the liquidity pool, ERC-4626 style with OpenZeppelin 5's virtual offset
 * (one virtual share and one virtual base unit, so the first deposit cannot be front-run into a
 * rounding loss). Rounding always favours the pool: shares out and assets out are floored. The
 * formulas are in docs/liquidity-pool.md.
 */

/** 1e18-scaled share price of an empty pool: one base unit per share. */
export const PRICE_SCALE = 10n ** 18n;

export interface PoolState {
  /** Net asset value in base units: cash − expected liability of open tickets (never below 0). */
  readonly nav: bigint;
  readonly totalShares: bigint;
}

/** Shares minted for `assets` deposited (floored). */
export function sharesForDeposit(pool: PoolState, assets: bigint): bigint {
  return (assets * (pool.totalShares + 1n)) / (pool.nav + 1n);
}

/** Base units paid for `shares` redeemed (floored). */
export function assetsForRedeem(pool: PoolState, shares: bigint): bigint {
  return (shares * (pool.nav + 1n)) / (pool.totalShares + 1n);
}

/** Base units per share, scaled by 1e18 (floored). */
export function sharePrice(pool: PoolState): bigint {
  return ((pool.nav + 1n) * PRICE_SCALE) / (pool.totalShares + 1n);
}

/** NAV: cash less the expected liability of open tickets, floored at zero. */
export function netAssetValue(cash: bigint, expectedLiability: bigint): bigint {
  const nav = cash - expectedLiability;
  return nav > 0n ? nav : 0n;
}
