import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { initOrm } from '../../platform/db/orm.js';
import { entities } from '../../entities.js';
import { chainConfig, chainStores } from '../../../test/support/chain.js';
import { createTestDatabase } from '../../../test/support/database.js';
import { ViemChainAdapter } from './viem-chain.adapter.js';

describe('ViemChainAdapter on the embedded EVM', () => {
  it('deploys the contracts at boot, mints credits and funds gas', async () => {
    const db = await createTestDatabase();
    const orm = await initOrm(entities, db.url, 3, false);
    const chain = await ViemChainAdapter.connect(
      chainConfig({ confirmations: 2 }),
      createLogger('silent'),
      chainStores(orm),
    );
    expect(chain.chainId).toBe(31337);
    expect(new Set(Object.values(chain.addresses)).size).toBe(5);
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
    await orm.close(true);
    await db.drop();
  }, 60_000);
});
