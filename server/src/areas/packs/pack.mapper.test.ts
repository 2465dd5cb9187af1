import { describe, expect, it } from 'vitest';
import type { Duel } from '../markets/duel.entity.js';
import type { PackMarketRow } from './pack.entities.js';
import { marketOutcome, marketStatus, type PackMarketState } from './pack.mapper.js';

const T0 = Date.UTC(2026, 10, 25, 12);

function market(duel: Partial<Duel>, row: Partial<PackMarketRow> = {}): PackMarketState {
  return {
    row: {
      packId: 'p',
      duelId: '0x01',
      position: 1,
      addedAt: new Date(T0),
      resolveTxHash: null,
      voidedAt: null,
      voidReason: null,
      voidTxHash: null,
      ...row,
    },
    duel: {
      duelId: '0x01',
      status: 'open',
      chainState: 'confirmed',
      endTime: new Date(T0 + 60_000),
      winningOptionIndex: null,
      ...duel,
    } as Duel,
  };
}

describe('a pack market read from its duel', () => {
  it('follows the duel from creation to settlement', () => {
    expect(marketStatus(market({ chainState: 'pending' }), T0)).toBe('pending');
    expect(marketStatus(market({}), T0)).toBe('open');
    // Past its end the market is closed even before the close job ran.
    expect(marketStatus(market({}), T0 + 60_000)).toBe('closed');
    expect(marketStatus(market({ status: 'pending_contest', winningOptionIndex: 1 }), T0)).toBe('resolving');
    expect(marketStatus(market({ status: 'settled', winningOptionIndex: 1 }), T0)).toBe('resolved');
  });

  it('scores only a settled outcome, and a void (the pack’s or the duel’s cancellation) as neutral', () => {
    expect(marketOutcome(market({ status: 'pending_contest', winningOptionIndex: 1 }), T0)).toEqual({
      kind: 'pending',
    });
    expect(marketOutcome(market({ status: 'settled', winningOptionIndex: 1 }), T0)).toEqual({
      kind: 'resolved',
      winningOptionIndex: 1,
    });
    expect(marketOutcome(market({ status: 'cancelled' }), T0)).toEqual({ kind: 'voided' });
    const voidedAfterSettling = market({ status: 'settled', winningOptionIndex: 0 }, { voidedAt: new Date(T0) });
    expect(marketStatus(voidedAfterSettling, T0)).toBe('voided');
    expect(marketOutcome(voidedAfterSettling, T0)).toEqual({ kind: 'voided' });
  });
});
