import { describe, expect, it } from 'vitest';
import { fund, mined, UNIT, type ChainHarness } from './chain-harness.js';

/** What every `CollateralPort` does: run against the fake and the viem adapter (see market-trading.behaviour.ts). */
export function describeCollateral(name: string, harness: () => ChainHarness): void {
  describe(`CollateralPort: ${name}`, () => {
    it('mints to an account and transfers between accounts, base unit for base unit', async () => {
      const h = harness();
      const alice = h.newAccount();
      const bob = h.newAccount();
      await fund(h, alice.address, 10n * UNIT);
      await mined(h, await h.collateral.transfer(alice, 'credits', bob.address, 3n * UNIT + 1n));
      expect(await h.collateral.collateralBalance('credits', alice.address)).toBe(7n * UNIT - 1n);
      expect(await h.collateral.collateralBalance('credits', bob.address)).toBe(3n * UNIT + 1n);
      expect(await h.collateral.collateralBalance('usdc', bob.address)).toBe(0n);
    });

    it('refuses a transfer beyond the balance with INSUFFICIENT_BALANCE, moving nothing', async () => {
      const h = harness();
      const alice = h.newAccount();
      await fund(h, alice.address, 2n * UNIT);
      await expect(h.collateral.transfer(alice, 'credits', h.newAccount().address, 3n * UNIT)).rejects.toMatchObject({
        code: 'INSUFFICIENT_BALANCE',
      });
      expect(await h.collateral.collateralBalance('credits', alice.address)).toBe(2n * UNIT);
    });

    it('sends a keyed transfer once: the same key again returns the first hash', async () => {
      const h = harness();
      const alice = h.newAccount();
      const bob = h.newAccount();
      await fund(h, alice.address, 10n * UNIT);
      const key = `test.transfer:${alice.address}`;
      const first = await h.collateral.transfer(alice, 'credits', bob.address, 4n * UNIT, { key });
      await mined(h, first);
      expect(await h.collateral.transfer(alice, 'credits', bob.address, 4n * UNIT, { key })).toBe(first);
      expect(await h.collateral.collateralBalance('credits', bob.address)).toBe(4n * UNIT);
    });
  });
}
