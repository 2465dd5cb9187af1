import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ODDS_SCALE,
  combinedOdds,
  feeOf,
  formatOdds,
  minimumOdds,
  oddsFromX100,
  priceTicket,
  productOfOdds,
} from './parlay-pricing.math.js';

const legOdds = fc.array(
  fc.integer({ min: 101, max: 5_000 }).map((x) => oddsFromX100(x)),
  { minLength: 1, maxLength: 8 },
);
const margin = fc.integer({ min: 0, max: 2_000 });
const stake = fc.bigInt({ min: 1n, max: 10n ** 24n });

describe('parlay pricing', () => {
  it('takes the margin once from the product, not once per leg', () => {
    const two = oddsFromX100(200);
    // Three legs at 2.00 with 5%: 8.00 × 0.95 = 7.60, where a per-leg margin would give 6.859.
    expect(formatOdds(combinedOdds([two, two, two], 500))).toBe('7.60');
  });

  it('never prices a ticket above the product of its legs, nor below even money', () => {
    fc.assert(
      fc.property(legOdds, margin, (legs, m) => {
        const odds = combinedOdds(legs, m);
        expect(odds).toBeLessThanOrEqual(productOfOdds(legs));
        expect(odds).toBeGreaterThanOrEqual(ODDS_SCALE);
      }),
    );
  });

  it('splits every stake exactly into fee and net stake, and pays net stake × odds floored', () => {
    fc.assert(
      fc.property(legOdds, margin, stake, fc.integer({ min: 0, max: 1_000 }), (legs, m, s, feeBps) => {
        const odds = combinedOdds(legs, m);
        const t = priceTicket(s, odds, feeBps);
        expect(t.fee + t.netStake).toBe(s);
        expect(t.fee).toBe(feeOf(s, feeBps));
        expect(t.payout).toBe((t.netStake * odds) / ODDS_SCALE);
        expect(t.exposure).toBe(t.payout - t.netStake);
        expect(t.exposure).toBeGreaterThanOrEqual(0n);
      }),
    );
  });

  it('floors the fee to the base unit', () => {
    expect(feeOf(999n, 100)).toBe(9n);
    expect(feeOf(10n ** 18n, 150)).toBe(15n * 10n ** 15n);
  });

  it('keeps minimum odds between even money and the quoted odds', () => {
    fc.assert(
      fc.property(legOdds, fc.integer({ min: 0, max: 10_000 }), (legs, slip) => {
        const odds = combinedOdds(legs, 0);
        const min = minimumOdds(odds, slip);
        expect(min).toBeLessThanOrEqual(odds);
        expect(min).toBeGreaterThanOrEqual(ODDS_SCALE);
      }),
    );
  });

  it('formats odds with at least two decimals', () => {
    expect(formatOdds(oddsFromX100(210))).toBe('2.10');
    expect(formatOdds(ODDS_SCALE + 5n)).toBe('1.000000000000000005');
  });
});
