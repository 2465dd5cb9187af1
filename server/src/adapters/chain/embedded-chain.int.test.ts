import {
  createPublicClient,
  createWalletClient,
  custom,
  keccak256,
  toHex,
  type Address,
  type EIP1193Provider,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import {
  ChainIdentityError,
  type ChainIdentity,
  type JournalEntry,
} from '../../platform/chain-tx/chain-state.repository.js';
import { OPERATOR_KEY } from '../../../test/support/chain.js';
import { CollateralTokenAbi } from './artifacts/CollateralToken.js';
import { startEmbeddedChain, type EmbeddedChainStore } from './embedded-chain.js';

const operator = privateKeyToAccount(OPERATOR_KEY);
const logger = createLogger('silent');

/** The database's side of the embedded chain, in memory. */
class MemoryStore implements EmbeddedChainStore {
  recorded: ChainIdentity | null = null;
  entries: JournalEntry[] = [];
  chainState = false;

  identity() {
    return Promise.resolve(this.recorded);
  }
  recordIdentity(identity: ChainIdentity) {
    this.recorded ??= identity;
    return Promise.resolve(this.recorded);
  }
  recordContracts(contracts: ChainIdentity['contracts']) {
    if (this.recorded) this.recorded = { ...this.recorded, contracts };
    return Promise.resolve();
  }
  hasChainState() {
    return Promise.resolve(this.chainState || this.entries.length > 0);
  }
  append(entries: readonly JournalEntry[]) {
    this.entries.push(...entries);
    return Promise.resolve();
  }
  async *journal() {
    for (const entry of [...this.entries]) yield await Promise.resolve(entry);
  }
}

const rpc = (provider: EIP1193Provider, method: string, params: unknown[] = []): Promise<unknown> =>
  provider.request({ method: method as never, params: params as never });

async function head(provider: EIP1193Provider) {
  return (await rpc(provider, 'eth_getBlockByNumber', ['latest', false])) as {
    number: string;
    hash: string;
    timestamp: string;
  };
}

describe('the embedded chain', () => {
  it('keeps chain time within seconds of the wall clock over 2,000 transactions', async () => {
    const chain = await startEmbeddedChain({ chainId: 31337, operator, logger });
    const client = createPublicClient({ transport: custom(chain.provider) });
    const wallet = createWalletClient({ transport: custom(chain.provider), account: operator });
    let nonce = await client.getTransactionCount({ address: operator.address });
    const fees = await client.estimateFeesPerGas();
    for (let i = 0; i < 2_000; i++) {
      const raw = await wallet.signTransaction({
        to: operator.address,
        value: 1n,
        gas: 21_000n,
        nonce: nonce++,
        chainId: 31337,
        maxFeePerGas: fees.maxFeePerGas * 2n,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        chain: null,
      });
      await rpc(chain.provider, 'eth_sendRawTransaction', [raw]);
    }
    const latest = await head(chain.provider);
    expect(BigInt(latest.number)).toBeGreaterThanOrEqual(2_000n);
    // EDR's default moves every block at least a second forward: 2,000 blocks would be 2,000 s ahead.
    expect(Math.abs(Number(BigInt(latest.timestamp)) - Date.now() / 1000)).toBeLessThan(5);
  }, 120_000);

  it('rebuilds itself from its journal: the same head, the same state, on wall-clock time', async () => {
    const store = new MemoryStore();
    const first = await startEmbeddedChain({ chainId: 31337, operator, store, logger });
    expect(first.replayed).toBe(false);
    const holder = privateKeyToAccount(generatePrivateKey());
    const wallet = createWalletClient({ transport: custom(first.provider), account: operator });
    const client = createPublicClient({ transport: custom(first.provider) });
    for (let i = 1n; i <= 5n; i++) {
      const hash = await wallet.writeContract({
        address: first.addresses.credits,
        abi: CollateralTokenAbi,
        functionName: 'mint',
        args: [holder.address, i * 10n ** 18n],
        chain: null,
      });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    }
    await rpc(first.provider, 'hardhat_setBalance', [holder.address, toHex(10n ** 18n)]);
    const before = await head(first.provider);
    await first.flush();
    expect(first.journaledHead()).toBe(BigInt(before.number));

    await new Promise((r) => setTimeout(r, 1_100)); // the rebuilt chain starts a second later
    const second = await startEmbeddedChain({ chainId: 31337, operator, store, logger });
    expect(second.replayed).toBe(true);
    expect(second.addresses).toEqual(first.addresses);
    const after = await head(second.provider);
    expect(after).toMatchObject({ number: before.number, hash: before.hash });
    const reader = createPublicClient({ transport: custom(second.provider) });
    const balanceOf = (address: Address) =>
      reader.readContract({
        address: second.addresses.credits,
        abi: CollateralTokenAbi,
        functionName: 'balanceOf',
        args: [address],
      });
    expect(await balanceOf(holder.address)).toBe(15n * 10n ** 18n);
    expect(await reader.getBalance({ address: holder.address })).toBe(10n ** 18n);
    // It carries on from there, at the wall clock's time, and keeps journaling.
    const next = await createWalletClient({ transport: custom(second.provider), account: holder }).sendTransaction({
      to: operator.address,
      value: 1n,
      chain: null,
    });
    const receipt = await reader.waitForTransactionReceipt({ hash: next, pollingInterval: 10 });
    expect(receipt.blockNumber).toBe(BigInt(before.number) + 1n);
    const block = await reader.getBlock({ blockNumber: receipt.blockNumber });
    expect(Math.abs(Number(block.timestamp) - Date.now() / 1000)).toBeLessThan(3);
    await second.flush();
    expect(second.journaledHead()).toBe(receipt.blockNumber);
  }, 60_000);

  it('starts on a genesis dated after the wall clock (a clock set back since) and runs that far ahead', async () => {
    const store = new MemoryStore();
    const hour = 3_600_000;
    const first = await startEmbeddedChain({ chainId: 31337, operator, store, logger, now: () => Date.now() + hour });
    await first.flush();
    // Restarted on this machine's clock, an hour behind the recorded genesis.
    const second = await startEmbeddedChain({ chainId: 31337, operator, store, logger });
    expect(second.replayed).toBe(true);
    expect(Math.abs(second.aheadMs() - hour)).toBeLessThan(5_000);
    const before = await head(second.provider);
    const client = createPublicClient({ transport: custom(second.provider) });
    const hash = await createWalletClient({ transport: custom(second.provider), account: operator }).sendTransaction({
      to: operator.address,
      value: 1n,
      chain: null,
    });
    const block = await client.getBlock({
      blockNumber: (await client.waitForTransactionReceipt({ hash })).blockNumber,
    });
    expect(block.timestamp).toBeGreaterThanOrEqual(BigInt(before.timestamp));
    expect(Math.abs(Number(block.timestamp) * 1000 - (Date.now() + hour))).toBeLessThan(5_000);
  }, 60_000);

  it('gives a data directory recorded before the prize vaults its vaults, once', async () => {
    const store = new MemoryStore();
    const first = await startEmbeddedChain({ chainId: 31337, operator, store, logger });
    await first.flush();
    if (!store.recorded) throw new Error('no identity recorded');
    const { credits, usdc, markets } = store.recorded.contracts;
    store.recorded = { ...store.recorded, contracts: { credits, usdc, markets } };

    const second = await startEmbeddedChain({ chainId: 31337, operator, store, logger });
    await second.flush();
    const reader = createPublicClient({ transport: custom(second.provider) });
    for (const vault of [second.addresses.creditsVault, second.addresses.usdcVault]) {
      expect(await reader.getCode({ address: vault })).toMatch(/^0x[0-9a-f]{10,}/);
    }
    expect(store.recorded.contracts).toEqual(second.addresses);

    const third = await startEmbeddedChain({ chainId: 31337, operator, store, logger });
    expect(third.addresses).toEqual(second.addresses);
  }, 60_000);

  it('refuses to start when the journal does not rebuild the recorded chain', async () => {
    const store = new MemoryStore();
    const first = await startEmbeddedChain({ chainId: 31337, operator, store, logger });
    await rpc(first.provider, 'hardhat_setBalance', [operator.address, toHex(1n)]);
    await first.flush();
    const last = store.entries.findLast((e) => e.kind === 'block');
    if (last?.kind !== 'block') throw new Error('no block journaled');
    store.entries[store.entries.indexOf(last)] = { ...last, hash: keccak256('0x01') };
    await expect(startEmbeddedChain({ chainId: 31337, operator, store, logger })).rejects.toThrow(ChainIdentityError);
  }, 60_000);

  it('names the first journaled block that does not replay, not just the head', async () => {
    const store = new MemoryStore();
    const first = await startEmbeddedChain({ chainId: 31337, operator, store, logger });
    await rpc(first.provider, 'hardhat_setBalance', [operator.address, toHex(10n ** 20n)]);
    await first.flush();
    const blocks = store.entries.filter((e) => e.kind === 'block');
    const second = blocks[1];
    if (second?.kind !== 'block' || blocks.length < 3) throw new Error('too few blocks journaled');
    // A transaction lost from block 2: every block from there on comes out differently.
    store.entries[store.entries.indexOf(second)] = { ...second, txs: [] };
    await expect(startEmbeddedChain({ chainId: 31337, operator, store, logger })).rejects.toThrow(
      new RegExp(`could not rebuild block ${second.number} \\(journaled as ${second.hash}`),
    );
  }, 60_000);

  it('refuses a database that holds chain state but no record of its chain', async () => {
    const store = new MemoryStore();
    store.chainState = true;
    await expect(startEmbeddedChain({ chainId: 31337, operator, store, logger })).rejects.toThrow(
      /holds chain state .* but no record of the chain/,
    );
  });
});
