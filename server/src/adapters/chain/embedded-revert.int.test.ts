import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { systemClock } from '../../platform/clock.js';
import { chainConfig, chainStores } from '../../../test/support/chain.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { initOrm, type Orm } from '../../platform/db/orm.js';
import { entities } from '../../entities.js';
import { ChainTxReconciler } from '../../platform/chain-tx/chain-tx.reconciler.js';
import { ChainTxRepository } from '../../platform/chain-tx/chain-tx.repository.js';
import { CollateralTokenAbi } from './artifacts/CollateralToken.js';
import { ViemChainAdapter } from './viem-chain.adapter.js';

const logger = createLogger('silent');
const UNIT = 10n ** 18n;

let db: TestDatabase;
let orm: Orm;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(entities, db.url, 4, false);
});

afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

const rows = <T>(sql: string, params: unknown[] = []) => orm.em.fork().getConnection().execute<T[]>(sql, params);

async function connect() {
  const chain = await ViemChainAdapter.connect(chainConfig({ embeddedRpcPort: 0 }), logger, chainStores(orm));
  const client = createPublicClient({ transport: http(chain.embeddedRpcUrl ?? '') }) as PublicClient;
  const reconciler = new ChainTxReconciler(
    new ChainTxRepository(orm),
    chain.pipeline,
    logger,
    { rebroadcastAfterMs: 0, batch: 500 },
    systemClock,
  );
  return { chain, client, reconciler };
}

/** A collateral transfer above the sender's balance, signed and sent as raw bytes: no simulation stops it. */
async function sendRevertingTransfer(rpcUrl: string, client: PublicClient, credits: Address): Promise<Hex> {
  const sender = privateKeyToAccount(generatePrivateKey());
  await client.request({ method: 'hardhat_setBalance' as never, params: [sender.address, toHex(UNIT)] as never });
  const wallet = createWalletClient({ transport: http(rpcUrl), account: sender });
  const fees = await client.estimateFeesPerGas();
  const raw = await wallet.signTransaction({
    to: credits,
    data: encodeFunctionData({ abi: CollateralTokenAbi, functionName: 'transfer', args: [sender.address, 1n] }),
    gas: 100_000n,
    nonce: 0,
    chainId: 31337,
    maxFeePerGas: fees.maxFeePerGas * 2n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    chain: null,
  });
  return client.request({ method: 'eth_sendRawTransaction', params: [raw] });
}

describe('the embedded chain after a reverting transaction', () => {
  it('answers the revert with its hash, credits a later mint of 500 exactly once, and replays it all after a restart', async () => {
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    let { chain, client, reconciler } = await connect();
    const balance = () =>
      client.readContract({
        address: chain.addresses.credits,
        abi: CollateralTokenAbi,
        functionName: 'balanceOf',
        args: [holder],
      });

    const reverted = await sendRevertingTransfer(chain.embeddedRpcUrl ?? '', client, chain.addresses.credits);
    const revertReceipt = await client.waitForTransactionReceipt({ hash: reverted, pollingInterval: 20 });
    expect(revertReceipt.status).toBe('reverted');

    const minted = await chain.mint('credits', holder, 500n * UNIT);
    expect((await client.waitForTransactionReceipt({ hash: minted, pollingInterval: 20 })).status).toBe('success');
    // Whatever the reconciler finds later, it sends nothing more.
    for (let i = 0; i < 3; i++) await reconciler.runOnce();
    expect(await balance()).toBe(500n * UNIT);
    const mints = await rows<{ status: string; n: string }>(
      `select status, count(*)::text as n from chain_txs where kind like '%mint%' group by status`,
    );
    expect(mints).toEqual([{ status: 'mined', n: '1' }]);

    const before = await client.getBlock({ blockTag: 'latest' });
    await chain.close();

    ({ chain, client, reconciler } = await connect());
    const after = await client.getBlock({ blockTag: 'latest' });
    expect({ number: after.number, hash: after.hash }).toEqual({ number: before.number, hash: before.hash });
    expect(await balance()).toBe(500n * UNIT);
    expect((await client.getTransactionReceipt({ hash: reverted })).status).toBe('reverted');
    expect((await client.getTransactionReceipt({ hash: minted })).status).toBe('success');

    // And it carries on: a new write confirms and the journal keeps up.
    const next = await chain.mint('credits', holder, 7n * UNIT);
    expect((await client.waitForTransactionReceipt({ hash: next, pollingInterval: 20 })).status).toBe('success');
    for (let i = 0; i < 2; i++) await reconciler.runOnce();
    expect(await balance()).toBe(507n * UNIT);
    await chain.close();
  }, 120_000);
});
