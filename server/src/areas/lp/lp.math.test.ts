import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRICE_SCALE, assetsForRedeem, netAssetValue, sharePrice, sharesForDeposit } from './lp.math.js';

const amount = fc.bigInt({ min: 0n, max: 10n ** 30n });
const pool = fc
  .record({ nav: amount, totalShares: amount })
  .filter((p) => (p.totalShares === 0n) === (p.nav === 0n) || p.totalShares > 0n);

describe('LP share math', () => {
  it('mints one share per base unit into an empty pool', () => {
    expect(sharesForDeposit({ nav: 0n, totalShares: 0n }, 1_000n)).toBe(1_000n);
    expect(sharePrice({ nav: 0n, totalShares: 0n })).toBe(PRICE_SCALE);
  });

  it('never gives back more than was deposited on an immediate round trip', () => {
    fc.assert(
      fc.property(pool, amount, (p, assets) => {
        const shares = sharesForDeposit(p, assets);
        const after = { nav: p.nav + assets, totalShares: p.totalShares + shares };
        expect(assetsForRedeem(after, shares)).toBeLessThanOrEqual(assets);
      }),
    );
  });

  it('never lowers the share price of those already in by a deposit or a withdrawal', () => {
    fc.assert(
      fc.property(pool, amount, (p, assets) => {
        const shares = sharesForDeposit(p, assets);
        const afterIn = { nav: p.nav + assets, totalShares: p.totalShares + shares };
        // price per share compared by cross-multiplication, exact in bigint
        expect((afterIn.nav + 1n) * (p.totalShares + 1n)).toBeGreaterThanOrEqual(
          (p.nav + 1n) * (afterIn.totalShares + 1n),
        );
        const out = assetsForRedeem(afterIn, shares);
        const afterOut = { nav: afterIn.nav - out, totalShares: afterIn.totalShares - shares };
        expect((afterOut.nav + 1n) * (afterIn.totalShares + 1n)).toBeGreaterThanOrEqual(
          (afterIn.nav + 1n) * (afterOut.totalShares + 1n),
        );
      }),
    );
  });

  it('moves the value of a position by exactly its share of a pool result', () => {
    // 1,000 in, alone: a ticket lost to the pool adds its net stake to the LP's redeemable value.
    const p = { nav: 0n, totalShares: 0n };
    const shares = sharesForDeposit(p, 1_000n * 10n ** 18n);
    const won = { nav: 1_000n * 10n ** 18n + 9n * 10n ** 18n, totalShares: shares };
    // The virtual share owns 1/(shares + 1) of the pool: one base unit here, floored away.
    expect(assetsForRedeem(won, shares)).toBe(1_009n * 10n ** 18n - 1n);
  });

  it('floors NAV at zero', () => {
    expect(netAssetValue(5n, 7n)).toBe(0n);
    expect(netAssetValue(7n, 5n)).toBe(2n);
  });
});
