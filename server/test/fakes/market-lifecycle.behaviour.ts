import { describe, expect, it } from 'vitest';
import { fund, mined, newDuelId, openMarket, UNIT, type ChainHarness } from './chain-harness.js';

/** What every `MarketLifecyclePort` does: run against the fake and the viem adapter (see market-trading.behaviour.ts). */
export function describeMarketLifecycle(name: string, harness: () => ChainHarness): void {
  describe(`MarketLifecyclePort: ${name}`, () => {
    it('opens a market with equal pool balances, funded from the creator', async () => {
      const h = harness();
      const { duelId, creator } = await openMarket(h, { options: 3, funding: 12n * UNIT });
      expect(await h.lifecycle.marketStatus(duelId)).toBe('open');
      expect(await h.trading.poolBalances(duelId)).toEqual([12n * UNIT, 12n * UNIT, 12n * UNIT]);
      expect(await h.collateral.collateralBalance('credits', creator.address)).toBe(0n);
    });

    it('creates a market once: the same duelId again returns the first hash', async () => {
      const h = harness();
      const creator = h.newAccount();
      await fund(h, creator.address, 20n * UNIT);
      const now = h.chainTime();
      const input = {
        duelId: newDuelId(),
        collateral: 'credits' as const,
        options: 2,
        startTime: now + 600,
        endTime: now + 3_600,
        feeBps: 100,
        isPrivate: false,
        funding: 10n * UNIT,
        minLeadSeconds: 0,
        contestPeriodSeconds: 0,
      };
      const first = await h.lifecycle.createMarket(creator, input);
      await mined(h, first);
      expect(await h.lifecycle.createMarket(creator, input)).toBe(first);
      expect(await h.collateral.collateralBalance('credits', creator.address)).toBe(10n * UNIT);
    });

    it('refuses a start inside the chain lead with START_TIME_TOO_SOON', async () => {
      const h = harness();
      const creator = h.newAccount();
      await fund(h, creator.address, 10n * UNIT);
      const now = h.chainTime();
      await expect(
        h.lifecycle.createMarket(creator, {
          duelId: newDuelId(),
          collateral: 'credits',
          options: 2,
          startTime: now + 60,
          endTime: now + 3_600,
          feeBps: 100,
          isPrivate: false,
          funding: 10n * UNIT,
          minLeadSeconds: 3_600,
          contestPeriodSeconds: 0,
        }),
      ).rejects.toMatchObject({ code: 'START_TIME_TOO_SOON' });
    });

    it('refuses to resolve a market before its end time with INVALID_STATE', async () => {
      const h = harness();
      const { duelId, creator } = await openMarket(h);
      await expect(h.lifecycle.resolve(creator, duelId, 0)).rejects.toMatchObject({ code: 'INVALID_STATE' });
      expect(await h.lifecycle.marketStatus(duelId)).toBe('open');
    });

    it('refunds a cancelled market: each holder its net deposit, the creator its funding, once', async () => {
      const h = harness();
      const { duelId, creator, funding } = await openMarket(h);
      const trader = h.newAccount();
      await fund(h, trader.address, 25n * UNIT);
      await mined(h, await h.trading.buy(trader, duelId, 0, 25n * UNIT, 0n));
      await mined(h, await h.lifecycle.cancel(duelId));
      expect(await h.lifecycle.marketStatus(duelId)).toBe('cancelled');
      expect(await h.lifecycle.owed(duelId, trader.address)).toEqual({ amount: 25n * UNIT, refund: true, paid: false });
      const paid = await h.lifecycle.payout(duelId, trader.address);
      await mined(h, paid);
      expect(await h.collateral.collateralBalance('credits', trader.address)).toBe(25n * UNIT);
      expect((await h.lifecycle.owed(duelId, trader.address)).paid).toBe(true);
      // Keyed by (duelId, holder): asking again finds the first payment.
      expect(await h.lifecycle.payout(duelId, trader.address)).toBe(paid);
      expect((await h.lifecycle.owed(duelId, creator.address)).amount).toBe(funding);
      expect(await h.lifecycle.feesOwed(duelId)).toEqual({ amount: 0n, claimed: false });
    });
  });
}
