import fc from 'fast-check';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { ParlayCatalogueService } from './parlay-catalogue.service.js';
import { conditionIdOf } from './parlay-conditions.mapper.js';
import { ParlayQuoteService } from './parlay-quote.service.js';
import { ODDS_SCALE, combinedOdds, oddsFromX100, priceTicket } from './parlay-pricing.math.js';
import { FakeFixtures, MemoryQuoteStore, SETTINGS, T0, UNIT } from './parlay.test-kit.js';
import type { ParlaySettings } from './parlay.types.js';

const alice = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcab7d0bb7f6c1d3e1').address;
const bob = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a').address;

let currentClock = new ManualClock(T0);
/** The operation context of a call made now, as a route would build it. */
const at = () => ({ now: new Date(currentClock.now()) });

function setup(settings: Partial<ParlaySettings> = {}) {
  const clock = new ManualClock(T0);
  currentClock = clock;
  const fixtures = new FakeFixtures();
  const s = { ...SETTINGS, ...settings };
  const store = new MemoryQuoteStore();
  const catalogue = new ParlayCatalogueService({ fixtures, clock, settings: s });
  const quotes = new ParlayQuoteService({ catalogue, store, clock, settings: s, chainId: 31337 });
  return { clock, fixtures, store, quotes };
}

const result = (fixtureId: number) => conditionIdOf({ fixtureId, kind: 'FULL_TIME_RESULT', playerId: 0 });
const twoLegs = [
  { conditionId: result(1), outcomeId: 0 },
  { conditionId: result(2), outcomeId: 1 },
];

describe('parlay quotes', () => {
  it('prices two legs with the margin once and the fee on the stake, signed for the bettor', async () => {
    const { quotes } = setup();
    const q = await quotes.quote(at(), [alice], { bettor: alice, legs: twoLegs, stake: (10n * UNIT).toString() });
    // 2.00 × 3.40 = 6.80, less 5% = 6.46; 1% fee leaves 9.9 at risk → 63.954 paid
    expect(q.odds).toBe('6.46');
    expect(q.fee).toBe((UNIT / 10n).toString());
    expect(q.payout).toBe('63954000000000000000');
    expect(q.exposure).toBe((63_954n * 10n ** 15n - 99n * 10n ** 17n).toString());
    expect(q.nonce).toBe('0');
    expect(q.typedData.message.legs[0]?.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(q.typedData.domain).toMatchObject({ chainId: 31337, verifyingContract: SETTINGS.bookAddress });
    const again = await quotes.quote(at(), [alice], { bettor: alice, legs: twoLegs, stake: (10n * UNIT).toString() });
    expect(again.nonce).toBe('1');
    expect((await quotes.nonce(alice)).nonce).toBe('2');
  });

  it('quotes exactly the payout the ticket formula pays, for any legs and stake', async () => {
    const { quotes, store } = setup({ maxPayout: 10n ** 40n, capPerOutcome: 10n ** 40n, capPerGame: 10n ** 40n });
    store.cash = 10n ** 45n;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 11 }), { minLength: 2, maxLength: 4 }),
        fc.bigInt({ min: 5n * UNIT, max: 1_000n * UNIT }),
        async (games, stake) => {
          const legs = games.map((g) => ({ conditionId: result(g), outcomeId: g % 3 }));
          const q = await quotes.quote(at(), [alice], { bettor: alice, legs, stake: stake.toString() });
          const legOdds = games.map((g) => oddsFromX100([200, 340, 380][g % 3] as number));
          const odds = combinedOdds(legOdds, SETTINGS.marginBps);
          expect(q.payout).toBe(priceTicket(stake, odds, SETTINGS.feeBps).payout.toString());
          expect(BigInt(q.payout)).toBeLessThanOrEqual(
            (BigInt(q.netStake) * legOdds.reduce((a, o) => (a * o) / ODDS_SCALE, ODDS_SCALE)) / ODDS_SCALE,
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('refuses a quote for another wallet, the zero address, and ticket limits by name', async () => {
    const { quotes } = setup();
    await expect(
      quotes.quote(at(), [alice], { bettor: bob, legs: twoLegs, stake: (10n * UNIT).toString() }),
    ).rejects.toMatchObject({ code: 'QUOTE_NOT_YOURS' });
    await expect(
      quotes.quote(at(), [alice], { bettor: '0x0000000000000000000000000000000000000000', legs: twoLegs, stake: '1' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(
      quotes.quote(at(), [alice], { bettor: alice, legs: twoLegs, stake: UNIT.toString() }),
    ).rejects.toMatchObject({
      code: 'PARLAY_LIMIT',
      details: { limit: 'minStake' },
    });
    await expect(
      quotes.quote(at(), [alice], { bettor: alice, legs: twoLegs, stake: (2_000n * UNIT).toString() }),
    ).rejects.toMatchObject({
      code: 'PARLAY_LIMIT',
      details: { limit: 'maxPayout' },
    });
  });

  it('holds exposure per outcome until the quote expires', async () => {
    const { quotes, clock } = setup({ capPerOutcome: 100n * UNIT });
    const stake = (10n * UNIT).toString(); // exposure 54.054 each
    await quotes.quote(at(), [alice], { bettor: alice, legs: twoLegs, stake });
    await expect(quotes.quote(at(), [bob], { bettor: bob, legs: twoLegs, stake })).rejects.toMatchObject({
      code: 'EXPOSURE_LIMIT',
      details: { limit: 'perOutcome' },
    });
    clock.advance(SETTINGS.quoteTtlSeconds * 1000);
    await expect(quotes.quote(at(), [bob], { bettor: bob, legs: twoLegs, stake })).resolves.toMatchObject({
      nonce: '0',
    });
  });

  it('never accepts more exposure on one outcome than its cap under concurrent quotes', async () => {
    const { quotes, store } = setup({ capPerOutcome: 500n * UNIT });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        quotes.quote(at(), [alice], { bettor: alice, legs: twoLegs, stake: (10n * UNIT).toString() }),
      ),
    );
    const accepted = results.filter((r) => r.status === 'fulfilled').length;
    expect(accepted).toBe(9); // 9 × 54.054 ≤ 500 < 10 × 54.054
    expect(store.quotes.reduce((a, q) => a + q.exposure, 0n)).toBeLessThanOrEqual(500n * UNIT);
  });

  it('refuses a payout beyond the pool’s share of free liquidity', async () => {
    const { quotes, store } = setup();
    store.cash = 500n * UNIT; // 10% of it: 50
    await expect(
      quotes.quote(at(), [alice], { bettor: alice, legs: twoLegs, stake: (10n * UNIT).toString() }),
    ).rejects.toMatchObject({
      code: 'EXPOSURE_LIMIT',
      details: { limit: 'poolShare' },
    });
  });

  describe('validation before placement', () => {
    async function issued() {
      const ctx = setup();
      const q = await ctx.quotes.quote(at(), [alice], { bettor: alice, legs: twoLegs, stake: (10n * UNIT).toString() });
      return { ...ctx, q, message: q.typedData.message };
    }

    it('accepts the quote as issued', async () => {
      const { quotes, q, message } = await issued();
      await expect(quotes.validate(at(), [alice], message, q.signature)).resolves.toMatchObject({
        valid: true,
        quoteId: q.quoteId,
        currentOdds: '6.46',
      });
    });

    it('refuses a tampered leg, a raised payout, another bettor', async () => {
      const { quotes, q, message } = await issued();
      const tampered = { ...message, legs: [message.legs[0]!, { ...message.legs[1]!, outcomeId: 2 }] };
      await expect(quotes.validate(at(), [alice], tampered, q.signature)).rejects.toMatchObject({
        code: 'QUOTE_INVALID',
      });
      await expect(
        quotes.validate(at(), [alice], { ...message, payout: (BigInt(message.payout) + 1n).toString() }, q.signature),
      ).rejects.toMatchObject({
        code: 'QUOTE_INVALID',
      });
      await expect(quotes.validate(at(), [bob], message, q.signature)).rejects.toMatchObject({
        code: 'QUOTE_NOT_YOURS',
      });
    });

    it('refuses the quote once the clock passes its expiry', async () => {
      const { quotes, q, message, clock } = await issued();
      clock.advance(SETTINGS.quoteTtlSeconds * 1000 - 1000);
      await expect(quotes.validate(at(), [alice], message, q.signature)).resolves.toMatchObject({ secondsLeft: 1 });
      clock.advance(1000);
      await expect(quotes.validate(at(), [alice], message, q.signature)).rejects.toMatchObject({
        code: 'QUOTE_EXPIRED',
      });
      expect((await quotes.get(q.quoteId)).status).toBe('expired');
    });

    it('refuses a placed quote (nonce used) and odds drifted beyond the allowance', async () => {
      const { quotes, q, message, store, fixtures } = await issued();
      fixtures.homeOdds.set(1, 190); // 2.00 → 1.90: 5% down, over the 3% allowed
      await expect(quotes.validate(at(), [alice], message, q.signature)).rejects.toMatchObject({
        code: 'ODDS_DRIFTED',
      });
      fixtures.homeOdds.set(1, 197); // 1.5% down: within
      await expect(quotes.validate(at(), [alice], message, q.signature)).resolves.toMatchObject({
        currentOdds: '6.3631',
      });
      Object.assign(store.quotes[0]!, { status: 'placed' });
      await expect(quotes.validate(at(), [alice], message, q.signature)).rejects.toMatchObject({ code: 'NONCE_USED' });
    });
  });

  it('previews the fee floored to the base unit', () => {
    const { quotes } = setup();
    expect(quotes.feePreview('999')).toEqual({ amount: '999', fee: '9', netStake: '990', feeBps: 100 });
  });
});
