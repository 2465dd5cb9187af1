import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buy, maxReturnForShares, ONE, prices, sellForReturn } from './fpmm.math.js';

const UNIT = 10n ** 18n;
const balance = fc.bigInt({ min: 10n * UNIT, max: 10n ** 30n });
const market = fc.integer({ min: 2, max: 5 }).chain((n) => fc.array(balance, { minLength: n, maxLength: n }));
const fee = fc.bigInt({ min: 0n, max: 500n });

describe('FPMM math', () => {
  it('buying then selling the same shares never returns more than was paid', () => {
    fc.assert(
      fc.property(
        market,
        fee,
        fc.bigInt({ min: 5n * UNIT, max: 10n ** 29n }),
        fc.nat(),
        (balances, feeBps, investment, k) => {
          const i = k % balances.length;
          const bought = buy(balances, i, investment, feeBps);
          const back = maxReturnForShares(bought.balancesAfter, i, bought.sharesOut, feeBps);
          expect(back).toBeLessThanOrEqual(investment);
          if (back > 0n)
            expect(sellForReturn(bought.balancesAfter, i, back, feeBps).sharesIn).toBeLessThanOrEqual(bought.sharesOut);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps prices in (0, 1) summing to 1 within rounding, and moves the bought option up', () => {
    fc.assert(
      fc.property(
        market,
        fee,
        fc.bigInt({ min: 5n * UNIT, max: 10n ** 29n }),
        fc.nat(),
        (balances, feeBps, investment, k) => {
          const i = k % balances.length;
          for (const bs of [balances, buy(balances, i, investment, feeBps).balancesAfter]) {
            // Exactly: p_i = P_i / ΣP with every P_i > 0, so 0 < p_i < 1.
            const products = bs.map((_, k2) => bs.reduce((acc, b, j) => (j === k2 ? acc : acc * b), 1n));
            const total = products.reduce((a, b) => a + b, 0n);
            products.forEach((p) => {
              expect(p).toBeGreaterThan(0n);
              expect(p).toBeLessThan(total);
            });
            // Scaled by 1e18 and rounded down, they sum to 1 within one base unit per option.
            const ps = prices(bs);
            ps.forEach((p) => expect(p).toBeLessThan(ONE));
            const sum = ps.reduce((a, b) => a + b, 0n);
            expect(sum).toBeLessThanOrEqual(ONE);
            expect(sum).toBeGreaterThan(ONE - BigInt(ps.length));
          }
          expect(prices(buy(balances, i, investment, feeBps).balancesAfter)[i]).toBeGreaterThanOrEqual(
            prices(balances)[i] as bigint,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps the product of the pool from falling (the pool stays solvent)', () => {
    fc.assert(
      fc.property(
        market,
        fee,
        fc.bigInt({ min: 5n * UNIT, max: 10n ** 29n }),
        fc.nat(),
        (balances, feeBps, investment, k) => {
          const i = k % balances.length;
          const product = (bs: readonly bigint[]) => bs.reduce((a, b) => a * b, 1n);
          const after = buy(balances, i, investment, feeBps).balancesAfter;
          expect(product(after)).toBeGreaterThanOrEqual(product(balances));
          expect(after.every((b) => b > 0n)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('handles 10^30 base units without throwing', () => {
    const big = [10n ** 30n, 10n ** 30n, 10n ** 30n];
    const r = buy(big, 1, 10n ** 30n, 200n);
    expect(r.sharesOut).toBeGreaterThan(10n ** 30n);
    expect(maxReturnForShares(r.balancesAfter, 1, r.sharesOut, 200n)).toBeLessThanOrEqual(10n ** 30n);
  });

  it('prices an even two-option pool at 50%', () => {
    expect(prices([100n * UNIT, 100n * UNIT])).toEqual([ONE / 2n, ONE / 2n]);
  });
});
