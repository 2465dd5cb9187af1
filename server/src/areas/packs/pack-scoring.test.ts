import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pickPoints, pickResult, pointsIfCorrect, rankEntrants, splitPrizes } from './pack-scoring.js';

const UNIT = 10n ** 18n;

describe('pack scoring', () => {
  it('scores a correct pick by the probability against it at pick time', () => {
    expect(pointsIfCorrect(UNIT / 2n)).toBe(5_000);
    expect(pointsIfCorrect((UNIT * 3n) / 10n)).toBe(7_000);
    expect(pointsIfCorrect((UNIT * 9n) / 10n)).toBe(1_000);
    // Floored: 1 − 0.33333… is 6666.67 basis points.
    expect(pointsIfCorrect(UNIT / 3n)).toBe(6_666);
    expect(pointsIfCorrect(UNIT)).toBe(0);
    expect(pointsIfCorrect(0n)).toBe(10_000);
  });

  it('counts won picks, and lost or voided ones as zero', () => {
    expect(pickResult({ kind: 'resolved', winningOptionIndex: 1 }, 1)).toBe('won');
    expect(pickResult({ kind: 'resolved', winningOptionIndex: 1 }, 0)).toBe('lost');
    expect(pickResult({ kind: 'voided' }, 0)).toBe('void');
    expect(pickResult({ kind: 'pending' }, 0)).toBe('pending');
    expect(pickPoints('won', 4_200)).toBe(4_200);
    expect(pickPoints('lost', 4_200)).toBe(0);
    expect(pickPoints('void', 4_200)).toBe(0);
    expect(pickPoints('pending', 4_200)).toBeNull();
  });

  it('ranks ties together and skips the ranks they cover', () => {
    const ranked = rankEntrants([
      { account: '0xb', points: 500 },
      { account: '0xa', points: 900 },
      { account: '0xd', points: 500 },
      { account: '0xc', points: 100 },
    ]);
    expect(ranked.map((e) => [e.account, e.rank])).toEqual([
      ['0xa', 1],
      ['0xb', 2],
      ['0xd', 2],
      ['0xc', 4],
    ]);
  });

  it('splits the prize pool by linearly decreasing weights over the entrants with points', () => {
    const ranked = rankEntrants([
      { account: '0xa', points: 10_000 },
      { account: '0xb', points: 5_000 },
      { account: '0xc', points: 0 },
    ]);
    const split = splitPrizes(ranked, 30n * UNIT, 500);
    expect(split.fee).toBe((30n * UNIT * 5n) / 100n);
    expect(split.prizePool).toBe(30n * UNIT - split.fee);
    // Two paid places: 2/3 and 1/3.
    expect(split.payouts.get('0xa')).toBe((split.prizePool * 2n) / 3n);
    expect(split.payouts.get('0xb')).toBe(split.prizePool / 3n);
    expect(split.payouts.get('0xc')).toBe(0n);
    expect(split.dust).toBe(split.prizePool - (split.prizePool * 2n) / 3n - split.prizePool / 3n);
  });

  it('shares the places a tie covers equally, and the whole pool when nobody scored', () => {
    const tie = splitPrizes(
      rankEntrants([
        { account: '0xa', points: 7 },
        { account: '0xb', points: 7 },
        { account: '0xc', points: 3 },
      ]),
      60n,
      0,
    );
    // Three places weigh 3, 2, 1 of 6: the tie covers 3 + 2 = 50 of 60, 25 each.
    expect([tie.payouts.get('0xa'), tie.payouts.get('0xb'), tie.payouts.get('0xc')]).toEqual([25n, 25n, 10n]);
    const nobody = splitPrizes(
      rankEntrants([
        { account: '0xa', points: 0 },
        { account: '0xb', points: 0 },
      ]),
      11n,
      0,
    );
    expect([nobody.payouts.get('0xa'), nobody.payouts.get('0xb'), nobody.dust]).toEqual([5n, 5n, 1n]);
  });

  it('never pays out more than the prize pool, and a better rank never earns less', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 30 }),
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.integer({ min: 0, max: 2_000 }),
        (points, pool, feeBps) => {
          const ranked = rankEntrants(
            points.map((p, i) => ({ account: `0x${i.toString(16).padStart(4, '0')}`, points: p })),
          );
          const split = splitPrizes(ranked, pool, feeBps);
          const total = [...split.payouts.values()].reduce((a, b) => a + b, 0n);
          expect(total + split.dust).toBe(split.prizePool);
          expect(split.dust).toBeGreaterThanOrEqual(0n);
          expect(split.dust).toBeLessThan(BigInt(ranked.length) + 1n);
          for (let i = 1; i < ranked.length; i++) {
            const better = split.payouts.get(ranked[i - 1]!.account)!;
            const worse = split.payouts.get(ranked[i]!.account)!;
            expect(better).toBeGreaterThanOrEqual(worse);
          }
        },
      ),
    );
  });
});
