import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { SETTINGS, T0, UNIT } from '../parlay/parlay.test-kit.js';
import { LpService, type PoolStore } from './lp.service.js';

const LP = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const DAY = 86_400_000;

/** A pool in memory: movements and live quote totals set by the test. */
class MemoryPool implements PoolStore {
  moves: {
    account: string | null;
    kind: 'deposit' | 'withdraw' | 'result';
    assets: bigint;
    shares: bigint;
    at: Date;
  }[] = [];
  live = { exposure: 0n, expectedLiability: 0n, quotes: 0, tickets: 0 };
  async liveExposure() {
    return [];
  }
  async liveExposureByGame() {
    return [];
  }
  async liveTotals() {
    return this.live;
  }
  async cash() {
    return this.moves.reduce((a, m) => (m.kind === 'withdraw' ? a - m.assets : a + m.assets), 0n);
  }
  async totalShares() {
    return this.moves.reduce(
      (a, m) => (m.kind === 'deposit' ? a + m.shares : m.kind === 'withdraw' ? a - m.shares : a),
      0n,
    );
  }
  async position(account: string) {
    const mine = this.moves.filter((m) => m.account === account);
    const deposits = mine.filter((m) => m.kind === 'deposit');
    return {
      shares: mine.reduce((a, m) => (m.kind === 'deposit' ? a + m.shares : a - m.shares), 0n),
      deposited: deposits.reduce((a, m) => a + m.assets, 0n),
      withdrawn: mine.filter((m) => m.kind === 'withdraw').reduce((a, m) => a + m.assets, 0n),
      lastDepositAt: deposits.at(-1)?.at ?? null,
    };
  }
  async resultsBetween(from: Date, to: Date) {
    return this.moves
      .filter((m) => m.kind === 'result' && m.at > from && m.at <= to)
      .reduce((a, m) => a + m.assets, 0n);
  }
}

function setup() {
  const clock = new ManualClock(T0);
  const store = new MemoryPool();
  store.moves.push({ account: LP, kind: 'deposit', assets: 1_000n * UNIT, shares: 1_000n * UNIT, at: new Date(T0) });
  return { clock, store, lp: new LpService({ store, clock, settings: SETTINGS }) };
}

describe('LP service', () => {
  it('takes the expected liability of open tickets out of NAV, not the exposure of quotes', async () => {
    const { lp, store } = setup();
    store.live = { exposure: 300n * UNIT, expectedLiability: 100n * UNIT, quotes: 2, tickets: 1 };
    const pool = await lp.pool();
    expect(pool).toMatchObject({
      nav: (900n * UNIT).toString(),
      freeLiquidity: (700n * UNIT).toString(),
      maxTicketPayout: (70n * UNIT).toString(),
    });
    expect(pool.sharePrice).toBe('0.900000000000000000');
  });

  it('quotes a deposit at the share price with the lockup it starts', async () => {
    const { lp, store } = setup();
    store.moves.push({ account: null, kind: 'result', assets: 1_000n * UNIT, shares: 0n, at: new Date(T0) });
    const q = await lp.addLiquidityQuote((100n * UNIT).toString());
    // NAV 2000 over 1000 shares: 100 buys 50 shares (floored, virtual offset included)
    expect(BigInt(q.shares)).toBe((100n * UNIT * (1_000n * UNIT + 1n)) / (2_000n * UNIT + 1n));
    expect(q.lockedUntil).toBe(new Date(T0 + 7 * DAY).toISOString());
  });

  it('keeps a position locked until the clock passes its lockup', async () => {
    const { lp, clock } = setup();
    await expect(lp.removeLiquidityQuote(LP, (10n * UNIT).toString())).rejects.toMatchObject({
      code: 'LIQUIDITY_LOCKED',
    });
    clock.advance(7 * DAY);
    await expect(lp.removeLiquidityQuote(LP, (10n * UNIT).toString())).resolves.toMatchObject({
      amountOut: (10n * UNIT).toString(),
    });
  });

  it('refuses a removal the live exposure holds', async () => {
    const { lp, clock, store } = setup();
    clock.advance(7 * DAY);
    store.live = { exposure: 950n * UNIT, expectedLiability: 0n, quotes: 5, tickets: 0 };
    await expect(lp.removeLiquidityQuote(LP, (100n * UNIT).toString())).rejects.toMatchObject({
      code: 'LIQUIDITY_LOCKED',
      details: { reason: 'exposure' },
    });
  });

  it('annualises realised results over the trailing thirty days', async () => {
    const { lp, clock, store } = setup();
    store.moves.push({ account: null, kind: 'result', assets: 10n * UNIT, shares: 0n, at: new Date(T0 + DAY) });
    clock.advance(DAY);
    expect((await lp.apy()).apyBps).toBe(((10n * UNIT * 10_000n * 365n) / (1_010n * UNIT * 30n)).toString());
    clock.advance(30 * DAY);
    expect((await lp.apy()).apyBps).toBe('0');
  });
});
