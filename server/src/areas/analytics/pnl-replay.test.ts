import { describe, expect, it } from 'vitest';
import { cumulativeAt, realizedEvents, type ReplayTrade } from './pnl-replay.js';

const U = 10n ** 18n;
const at = (hour: number) => new Date(Date.UTC(2026, 10, 23, hour));
const trade = (t: Partial<ReplayTrade> & Pick<ReplayTrade, 'side' | 'collateral' | 'shares'>): ReplayTrade => ({
  duelId: 'd1',
  optionIndex: 0,
  at: at(1),
  ...t,
});

describe('realizedEvents', () => {
  it('realizes a sale against the average cost of the sold fraction', () => {
    const events = realizedEvents(
      [
        trade({ side: 'buy', collateral: 10n * U, shares: 14n * U, at: at(1) }),
        trade({ side: 'buy', collateral: 4n * U, shares: 6n * U, at: at(2) }),
        trade({ side: 'sell', collateral: 6n * U, shares: 5n * U, at: at(3) }),
      ],
      [],
    );
    // basis 14 for 20 shares; selling 5 removes 3.5
    expect(events).toEqual([{ at: at(3), amount: 6n * U - (14n * U * 5n) / 20n }]);
  });

  it('books a settled market at winning shares minus the basis held, and a cancelled one at zero', () => {
    const trades = [
      trade({ side: 'buy', collateral: 20n * U, shares: 30n * U }),
      trade({ side: 'buy', optionIndex: 1, collateral: 5n * U, shares: 9n * U }),
      trade({ duelId: 'd2', side: 'buy', collateral: 3n * U, shares: 4n * U }),
    ];
    const events = realizedEvents(trades, [
      { duelId: 'd1', status: 'settled', winningOptionIndex: 0, at: at(5) },
      { duelId: 'd2', status: 'cancelled', winningOptionIndex: null, at: at(6) },
    ]);
    expect(events).toEqual([{ at: at(5), amount: 30n * U - 25n * U }]);
  });
});

describe('cumulativeAt', () => {
  it('sums every event before the end of each bucket, including those before the first', () => {
    const events = [
      { at: at(0), amount: 5n },
      { at: at(2), amount: -2n },
      { at: at(4), amount: 1n },
    ];
    expect(cumulativeAt(events, [at(1), at(2), at(3)], 3_600)).toEqual([5n, 3n, 3n]);
  });
});
