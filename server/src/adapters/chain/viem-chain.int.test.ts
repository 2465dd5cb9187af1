import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { ViemChainAdapter } from './viem-chain.adapter.js';

describe('ViemChainAdapter on the embedded EVM', () => {
  it('deploys the contracts at boot, mints credits and funds gas', async () => {
    const chain = await ViemChainAdapter.connect(
      {
        rpcUrl: undefined,
        chainId: 31337,
        operatorKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
        addresses: undefined,
        confirmations: 2,
      },
      createLogger('silent'),
    );
    expect(chain.chainId).toBe(31337);
    expect(new Set(Object.values(chain.addresses)).size).toBe(3);
    const user = privateKeyToAccount(generatePrivateKey()).address;
    expect(await chain.collateralBalance('credits', user)).toBe(0n);
    await chain.mint('credits', user, 1_000n * 10n ** 18n);
    expect(await chain.collateralBalance('credits', user)).toBe(1_000n * 10n ** 18n);
    expect(await chain.collateralBalance('usdc', user)).toBe(0n);
    expect(await chain.blockNumber()).toBeGreaterThan(0n);
    await chain.fundGas(user, 10n ** 18n);
    await chain.close();
  }, 60_000);
});
