import { describe, expect, it } from 'vitest';
import { payoutTable } from './tournament-payout-table.js';

const wallet = (n: number): `0x${string}` => `0x${n.toString(16).padStart(40, '0')}`;
const UNIT = 10n ** 18n;
const rules = (format: 'KNOCKOUT' | 'GROUP_KNOCKOUT', totalStages: number, feeBps = 0) => ({
  format,
  totalStages,
  groupSize: 4,
  advancePerGroup: 2,
  feeBps,
  payoutBps: [6000, 2500, 1500],
});
const sum = (lines: readonly { amount: bigint }[]) => lines.reduce((s, l) => s + l.amount, 0n);

describe('payoutTable', () => {
  it('pays the pool less the fee by tier, the unfilled semi-final seat going to the champion', () => {
    const t = payoutTable(rules('KNOCKOUT', 2, 500), 30n * UNIT, [
      { wallet: wallet(1), placement: 1, champion: true, lastStage: 2 },
      { wallet: wallet(2), placement: 2, champion: false, lastStage: 2 },
      { wallet: wallet(3), placement: 3, champion: false, lastStage: 1 },
    ]);
    expect(t.fee).toBe((30n * UNIT * 500n) / 10_000n);
    expect(t.lines.map((l) => [l.wallet, l.amount, l.tier])).toEqual([
      [wallet(1), (t.distributable * 6750n) / 10_000n, 'Champion'],
      [wallet(2), (t.distributable * 2500n) / 10_000n, 'Runner-up'],
      [wallet(3), (t.distributable * 750n) / 10_000n, 'Semi-final losers'],
    ]);
    expect(sum(t.lines)).toBe(t.distributable);
  });

  it('pays nobody who only played the group stage, and sums to the distributable amount to the base unit', () => {
    const players = Array.from({ length: 9 }, (_, i) => ({
      wallet: wallet(i + 1),
      placement: i + 1,
      champion: i === 0,
      // 2 finalists, 2 semi-final losers, the rest out in the group stage.
      lastStage: i < 2 ? 3 : i < 4 ? 2 : 1,
    }));
    const pool = 10n ** 19n + 7n;
    const t = payoutTable(rules('GROUP_KNOCKOUT', 3), pool, players);
    expect(t.lines.map((l) => l.wallet)).toEqual([wallet(1), wallet(2), wallet(3), wallet(4)]);
    expect(sum(t.lines)).toBe(pool);
    expect(t.lines[2]?.amount).toBe(t.lines[3]?.amount);
  });

  it('without a champion, the finalists share the runner-up tier and the champion’s share goes to the first placed', () => {
    const t = payoutTable(rules('KNOCKOUT', 1), 100n, [
      { wallet: wallet(1), placement: 1, champion: false, lastStage: 1 },
      { wallet: wallet(2), placement: 2, champion: false, lastStage: 1 },
    ]);
    // Tier 1 (25 %) shared: 12.5 % each; the champion's 75 % (60 % + the tier one stage cannot have) and the dust go to the first placed.
    expect(t.lines.map((l) => [l.wallet, l.amount])).toEqual([
      [wallet(1), 88n],
      [wallet(2), 12n],
    ]);
    expect(sum(t.lines)).toBe(100n);
  });

  it('is empty without players', () => {
    expect(payoutTable(rules('KNOCKOUT', 1), 100n, []).lines).toEqual([]);
  });
});
