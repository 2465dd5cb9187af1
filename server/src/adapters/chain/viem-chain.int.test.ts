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
        embeddedRpcPort: 0,
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
    // The embedded chain is reachable over JSON-RPC on loopback, with its contract addresses.
    const contracts = (await (await fetch(`${chain.embeddedRpcUrl}/duelkit/contracts`)).json()) as Record<
      string,
      unknown
    >;
    expect(contracts).toMatchObject({ chainId: 31337, credits: chain.addresses.credits });
    const rpc = await fetch(chain.embeddedRpcUrl as string, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    expect(await rpc.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
    await chain.close();
  }, 60_000);
});
