import { describe, expect, it } from 'vitest';
import { buy, sellForReturn } from '../../src/areas/markets/fpmm.math.js';
import { fund, mined, openMarket, UNIT, type ChainHarness } from './chain-harness.js';

/**
 * What every `MarketTradingPort` does, the in-memory fake and the viem adapter alike: run by
 * `market-trading.fake.test.ts` and by `chain-ports.int.test.ts` on the embedded EVM.
 */
export function describeMarketTrading(name: string, harness: () => ChainHarness): void {
  describe(`MarketTradingPort: ${name}`, () => {
    it('moves the pool, the shares and the collateral of a buy exactly as the FPMM math says', async () => {
      const h = harness();
      const { duelId } = await openMarket(h, { feeBps: 150 });
      const trader = h.newAccount();
      await fund(h, trader.address, 50n * UNIT);
      const before = await h.trading.poolBalances(duelId);
      const expected = buy(before, 0, 20n * UNIT, 150n);
      await mined(h, await h.trading.buy(trader, duelId, 0, 20n * UNIT, expected.sharesOut));
      expect(await h.trading.poolBalances(duelId)).toEqual(expected.balancesAfter);
      expect(await h.trading.sharesOf(duelId, trader.address, 0)).toBe(expected.sharesOut);
      expect(await h.trading.sharesOf(duelId, trader.address, 1)).toBe(0n);
      expect(await h.collateral.collateralBalance('credits', trader.address)).toBe(30n * UNIT);
    });

    it('sells for exactly the return asked, taking the shares the FPMM math says', async () => {
      const h = harness();
      const { duelId } = await openMarket(h);
      const trader = h.newAccount();
      await fund(h, trader.address, 30n * UNIT);
      await mined(h, await h.trading.buy(trader, duelId, 1, 30n * UNIT, 0n));
      const held = await h.trading.sharesOf(duelId, trader.address, 1);
      const pool = await h.trading.poolBalances(duelId);
      const expected = sellForReturn(pool, 1, 10n * UNIT, 100n);
      await mined(h, await h.trading.sellForReturn(trader, duelId, 1, 10n * UNIT, expected.sharesIn));
      expect(await h.trading.sharesOf(duelId, trader.address, 1)).toBe(held - expected.sharesIn);
      expect(await h.trading.poolBalances(duelId)).toEqual(expected.balancesAfter);
      expect(await h.collateral.collateralBalance('credits', trader.address)).toBe(10n * UNIT);
    });

    it('refuses a buy below the 5-unit minimum with BET_BELOW_MINIMUM, moving nothing', async () => {
      const h = harness();
      const { duelId, funding } = await openMarket(h);
      const trader = h.newAccount();
      await fund(h, trader.address, 10n * UNIT);
      await expect(h.trading.buy(trader, duelId, 0, 5n * UNIT - 1n, 0n)).rejects.toMatchObject({
        code: 'BET_BELOW_MINIMUM',
      });
      expect(await h.trading.poolBalances(duelId)).toEqual([funding, funding]);
      expect(await h.collateral.collateralBalance('credits', trader.address)).toBe(10n * UNIT);
    });

    it('refuses a buy whose minSharesOut the pool cannot give with SLIPPAGE_EXCEEDED', async () => {
      const h = harness();
      const { duelId } = await openMarket(h);
      const trader = h.newAccount();
      await fund(h, trader.address, 10n * UNIT);
      const { sharesOut } = buy(await h.trading.poolBalances(duelId), 0, 10n * UNIT, 100n);
      await expect(h.trading.buy(trader, duelId, 0, 10n * UNIT, sharesOut + 1n)).rejects.toMatchObject({
        code: 'SLIPPAGE_EXCEEDED',
      });
      expect(await h.trading.sharesOf(duelId, trader.address, 0)).toBe(0n);
    });

    it('refuses a buy the wallet cannot fund with INSUFFICIENT_CREDITS', async () => {
      const h = harness();
      const { duelId } = await openMarket(h);
      const trader = h.newAccount();
      await fund(h, trader.address, 6n * UNIT);
      await expect(h.trading.buy(trader, duelId, 0, 7n * UNIT, 0n)).rejects.toMatchObject({
        code: 'INSUFFICIENT_CREDITS',
      });
    });

    it('refuses a sale of shares the seller does not hold with INSUFFICIENT_SHARES', async () => {
      const h = harness();
      const { duelId } = await openMarket(h);
      const seller = h.newAccount();
      await expect(h.trading.sellForReturn(seller, duelId, 0, UNIT, 1_000n * UNIT)).rejects.toMatchObject({
        code: 'INSUFFICIENT_SHARES',
      });
    });

    it('refuses a trade on a private market by a non-member with PRIVATE_MARKET', async () => {
      const h = harness();
      const { duelId } = await openMarket(h, { isPrivate: true });
      const trader = h.newAccount();
      await fund(h, trader.address, 10n * UNIT);
      await expect(h.trading.buy(trader, duelId, 0, 10n * UNIT, 0n)).rejects.toMatchObject({
        code: 'PRIVATE_MARKET',
      });
    });

    it('sends a keyed buy once: the same key again returns the first hash and moves nothing', async () => {
      const h = harness();
      const { duelId } = await openMarket(h);
      const trader = h.newAccount();
      await fund(h, trader.address, 40n * UNIT);
      const key = `test.buy:${duelId}`;
      const first = await h.trading.buy(trader, duelId, 0, 10n * UNIT, 0n, { key });
      await mined(h, first);
      const pool = await h.trading.poolBalances(duelId);
      const again = await h.trading.buy(trader, duelId, 0, 10n * UNIT, 0n, { key });
      expect(again).toBe(first);
      expect(await h.trading.poolBalances(duelId)).toEqual(pool);
      expect(await h.collateral.collateralBalance('credits', trader.address)).toBe(30n * UNIT);
    });
  });
}
