import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ELO_START,
  POSITIONS,
  eloFromScratch,
  eloStep,
  maxEventScore,
  scoreEvent,
  scoreSideBet,
  seasonPayouts,
  weekendTotal,
} from './racing-scoring.math.js';
import type { RaceEventType } from '../../adapters/sports-provider/motorsport.port.js';

const GRID = Array.from({ length: 20 }, (_, i) => 101 + i);
const eventType = fc.constantFrom<RaceEventType>('QUALIFYING', 'SPRINT_QUALIFYING', 'SPRINT', 'RACE');
const order = fc.shuffledSubarray(GRID, { minLength: 20, maxLength: 20 });

describe('event scoring', () => {
  it('scores the table by hand', () => {
    const result = { order: GRID };
    // 101 exact (3 + podium 1), 103 in top 5 wrong place on the podium (1 + 1), 102 exact off podium? no: place 1 → in top, wrong place.
    const s = scoreEvent('QUALIFYING', [101, 103, 102, 120, 105], result, false);
    expect(s).toEqual({ exact: 2, inTopN: 2, podium: 3, base: 2 * 3 + 2 * 1 + 3, bonus: 0, total: 11 });
    expect(scoreEvent('QUALIFYING', [101, 103, 102, 120, 105], result, true).total).toBe(11 + 2);
    expect(scoreEvent('RACE', GRID.slice(0, 10), result, false).total).toBe(maxEventScore('RACE', false));
  });

  it('is never negative and is maximal exactly for the true order', () => {
    fc.assert(
      fc.property(eventType, order, order, fc.boolean(), (type, actual, guess, early) => {
        const predicted = guess.slice(0, POSITIONS[type]);
        const s = scoreEvent(type, predicted, { order: actual }, early);
        expect(s.total).toBeGreaterThanOrEqual(0);
        const isTrue = predicted.every((d, i) => actual[i] === d);
        expect(s.total === maxEventScore(type, early)).toBe(isTrue);
        expect(s.total).toBeLessThanOrEqual(maxEventScore(type, early));
      }),
    );
  });

  it('the true order scores the maximum', () => {
    fc.assert(
      fc.property(eventType, order, fc.boolean(), (type, actual, early) => {
        const s = scoreEvent(type, actual.slice(0, POSITIONS[type]), { order: actual }, early);
        expect(s.total).toBe(maxEventScore(type, early));
      }),
    );
  });

  it('scores side bets only when right, and sums weekends', () => {
    const race = { order: GRID, fastestLapDriverId: 104, dnfDriverIds: [119, 120], safetyCar: true };
    expect(scoreSideBet({ prop: 'FASTEST_LAP', driverId: 104 }, race)).toBe(5);
    expect(scoreSideBet({ prop: 'FASTEST_LAP', driverId: 101 }, race)).toBe(0);
    expect(scoreSideBet({ prop: 'SAFETY_CAR', value: false }, race)).toBe(0);
    expect(scoreSideBet({ prop: 'DNF_COUNT', count: 2 }, race)).toBe(4);
    expect(weekendTotal([11, 20], [5, 0, 4])).toBe(40);
  });
});

describe('Elo', () => {
  const scores = fc.uniqueArray(fc.record({ wallet: fc.string({ minLength: 1, maxLength: 4 }), points: fc.nat(60) }), {
    minLength: 2,
    maxLength: 8,
    selector: (s) => s.wallet,
  });

  it('is zero-sum across the entrants of an event', () => {
    fc.assert(
      fc.property(fc.array(scores, { minLength: 1, maxLength: 6 }), (events) => {
        let ratings = new Map<string, number>();
        for (const e of events) {
          const next = eloStep(ratings, e);
          const delta = e.reduce((sum, s) => sum + (next.get(s.wallet) ?? 0) - (ratings.get(s.wallet) ?? ELO_START), 0);
          expect(Math.abs(delta)).toBeLessThan(1e-9);
          ratings = next;
        }
      }),
    );
  });

  it('from scratch equals the incremental result', () => {
    fc.assert(
      fc.property(fc.array(scores, { minLength: 1, maxLength: 6 }), (events) => {
        let incremental = new Map<string, number>();
        for (const e of events) incremental = eloStep(incremental, e);
        expect(eloFromScratch(events)).toEqual(incremental);
      }),
    );
  });

  it('moves the winner up by K/2 on a first meeting of two', () => {
    const r = eloStep(new Map(), [
      { wallet: 'a', points: 10 },
      { wallet: 'b', points: 3 },
    ]);
    expect(r.get('a')).toBe(1516);
    expect(r.get('b')).toBe(1484);
  });
});

describe('season payouts', () => {
  it('splits by place, gives the dust and unfilled places to the first', () => {
    expect(seasonPayouts(1001n, [6000, 3000, 1000], ['a', 'b'])).toEqual([
      { wallet: 'a', placement: 1, amount: 701n },
      { wallet: 'b', placement: 2, amount: 300n },
    ]);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.integer({ min: 1, max: 5 }), (total, n) => {
        const lines = seasonPayouts(total, [5000, 3000, 2000], ['a', 'b', 'c', 'd', 'e'].slice(0, n));
        expect(lines.reduce((s, l) => s + l.amount, 0n)).toBe(total);
      }),
    );
  });
});
