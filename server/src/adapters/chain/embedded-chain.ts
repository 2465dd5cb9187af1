import { fileURLToPath } from 'node:url';
import {
  createPublicClient,
  createWalletClient,
  custom,
  keccak256,
  toHex,
  type EIP1193Provider,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import type { Logger } from '../../logger.js';
import {
  ChainIdentityError,
  type ChainIdentity,
  type JournalEntry,
} from '../../platform/chain-tx/chain-state.repository.js';
import { SerialQueue } from '../../platform/chain-tx/serial-queue.js';
import { CollateralTokenAbi, CollateralTokenBytecode } from './artifacts/CollateralToken.js';
import { DuelMarketsAbi, DuelMarketsBytecode } from './artifacts/DuelMarkets.js';
import { ParlayBookAbi, ParlayBookBytecode } from './artifacts/ParlayBook.js';
import { PrizeVaultAbi, PrizeVaultBytecode } from './artifacts/PrizeVault.js';
import type { ChainAddresses } from './chain.port.js';
import { describeIdentity } from './chain-identity.js';

/** Where the embedded chain keeps its identity and history; absent for a throwaway chain. */
export interface EmbeddedChainStore {
  identity(): Promise<ChainIdentity | null>;
  recordIdentity(identity: ChainIdentity): Promise<ChainIdentity>;
  recordContracts(contracts: ChainIdentity['contracts']): Promise<void>;
  hasChainState(): Promise<boolean>;
  append(entries: readonly JournalEntry[]): Promise<void>;
  journal(): AsyncIterable<JournalEntry>;
}

export interface EmbeddedChainOptions {
  readonly chainId: number;
  readonly operator: PrivateKeyAccount;
  readonly store?: EmbeddedChainStore | undefined;
  readonly logger: Logger;
  readonly now?: () => number;
  /** What ParlayBook is deployed with: the quote signer and the pricing quotes are signed at. */
  readonly parlayBook?: ParlayBookDeployment | undefined;
}

export interface ParlayBookDeployment {
  readonly quoteSigner: Hex;
  readonly feeBps: number;
  readonly marginBps: number;
}

export interface EmbeddedChain {
  /** The chain's provider; every state change through it is journaled. */
  readonly provider: EIP1193Provider;
  readonly chainId: number;
  readonly addresses: ChainAddresses;
  /** True when the chain was rebuilt from the journal rather than started fresh. */
  readonly replayed: boolean;
  /** The newest block in the journal: nothing above it survives a restart, so nothing above it is final. */
  journaledHead(): bigint;
  /** Writes what is not journaled yet; call before the process exits. */
  flush(): Promise<void>;
  /**
   * How far the chain's time runs ahead of the wall clock, in milliseconds: 0 on a fresh chain, and
   * what earlier `advanceTime` calls added once a chain that was moved forward is rebuilt.
   */
  aheadMs(): number;
  /**
   * Moves the chain's time forward by `seconds` and mines a block at the new time (journaled like
   * any block, so a rebuilt chain keeps it). Deadlines the contracts check (a market's end, a
   * contest period) pass at once instead of being waited for.
   */
  advanceTime(seconds: number): Promise<void>;
}

/** The operator's native balance on a fresh embedded chain. */
const OPERATOR_BALANCE = 10n ** 24n;

type Request = { method: string; params?: unknown };
type RawProvider = { request(args: Request): Promise<unknown> };

interface RpcBlock {
  number: Hex;
  hash: Hex;
  timestamp: Hex;
  transactions: Hex[];
}

/**
 * The in-process EVM (hardhat 3's EDR), loaded only here and only when no CHAIN_RPC_URL is set.
 *
 * Time: blocks take the wall-clock time, several blocks may share a second, so chain time never
 * runs ahead of the clock however many transactions are sent (EDR's default moves each block at
 * least one second forward).
 *
 * Continuity: EDR has no state dump to rely on, so the chain is rebuilt instead. Every block
 * (its raw transactions and timestamp) and every state change outside transactions
 * (`hardhat_setBalance`) is journaled in PostgreSQL as it happens. At boot, a database that
 * recorded an embedded chain gets it back: the same genesis (chain id and genesis time), every
 * journal entry replayed in order with each block at its recorded timestamp, and the head hash
 * checked against the journal. Any mismatch refuses to start. An in-memory database starts a
 * fresh chain with it.
 */
export async function startEmbeddedChain(options: EmbeddedChainOptions): Promise<EmbeddedChain> {
  const { chainId, operator, store, logger } = options;
  const now = options.now ?? Date.now;
  const recorded = (await store?.identity()) ?? null;
  if (recorded && recorded.mode !== 'embedded') {
    throw new ChainIdentityError(
      `Refusing to start: this database belongs to ${describeIdentity(recorded)}, but no CHAIN_RPC_URL is set, ` +
        'so the server would start a fresh embedded chain. Set CHAIN_RPC_URL and CHAIN_CONTRACTS to that chain, or use a fresh database.',
    );
  }
  if (recorded && recorded.chainId !== chainId) {
    throw new ChainIdentityError(
      `Refusing to start: this database belongs to ${describeIdentity(recorded)}, but CHAIN_ID is ${chainId}. ` +
        `Set CHAIN_ID=${recorded.chainId}, or use a fresh database.`,
    );
  }
  if (!recorded && store && (await store.hasChainState())) {
    throw new ChainIdentityError(
      'Refusing to start: this database holds chain state (indexed blocks or recorded chain writes) but no record of ' +
        'the chain it came from, and a fresh embedded chain would not have it. Point CHAIN_RPC_URL at that chain, or use a fresh database.',
    );
  }
  const genesisTime = recorded?.genesisTime ?? Math.floor(now() / 1000);
  // Loaded on demand: a production server with CHAIN_RPC_URL never loads hardhat.
  const { createHardhatRuntimeEnvironment } = await import('hardhat/hre');
  const hre = await createHardhatRuntimeEnvironment(
    {
      networks: {
        embedded: {
          type: 'edr-simulated',
          chainId,
          allowBlocksWithSameTimestamp: true,
          // A reverting transaction is mined (its nonce and gas are spent) and its send answers the
          // hash, as a standard node does; the revert shows in the receipt's status. Hardhat's default
          // answers such a send with an error although the transaction is on chain, which a sender
          // can only read as "not sent" and sign the same write again.
          throwOnTransactionFailures: false,
          // eth_call and gas estimates still report a revert as an error: simulation relies on it.
          throwOnCallFailures: true,
          initialDate: new Date(genesisTime * 1000),
          mining: { auto: true, mempool: { order: 'fifo' } },
        },
      },
    },
    {},
    // The npm project around this file (the server package), not the one around the working
    // directory: a server started from a folder with no package.json must still start.
    fileURLToPath(new URL('.', import.meta.url)),
  );
  const raw = (await hre.network.connect('embedded')).provider as unknown as RawProvider;
  const genesis = (await raw.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })) as RpcBlock;
  if (recorded && genesis.hash.toLowerCase() !== recorded.genesisHash.toLowerCase()) {
    throw new ChainIdentityError(
      `Refusing to start: the embedded chain's genesis came out as ${genesis.hash}, but this database recorded ` +
        `${describeIdentity(recorded)}. The chain cannot be rebuilt; use a fresh database.`,
    );
  }
  const journal = new JournaledProvider(raw, store, logger);
  let addresses: ChainAddresses;
  if (recorded) {
    const head = await replay(raw, store as EmbeddedChainStore);
    journal.resumeAt(head);
    const { creditsVault, usdcVault } = recorded.contracts;
    if (creditsVault && usdcVault) {
      addresses = { ...recorded.contracts, creditsVault, usdcVault };
    } else {
      // A data directory from before the prize vaults: deployed now, journaled like any transaction.
      const vaults = await deployVaults(journal as unknown as EIP1193Provider, operator, recorded.contracts);
      addresses = { ...recorded.contracts, ...vaults };
      await store?.recordContracts(addresses);
    }
    if (!addresses.parlayBook && options.parlayBook) {
      // A data directory from before the parlay book: deployed now, journaled like any transaction.
      const parlayBook = await deployParlayBook(
        journal as unknown as EIP1193Provider,
        operator,
        addresses.credits,
        options.parlayBook,
      );
      addresses = { ...addresses, parlayBook };
      await store?.recordContracts(addresses);
    }
    logger.info({ chainId, head: head.toString() }, 'embedded EVM rebuilt from its journal');
  } else {
    await journal.request({ method: 'hardhat_setBalance', params: [operator.address, toHex(OPERATOR_BALANCE)] });
    const provider = journal as unknown as EIP1193Provider;
    const deployed = await deployAll(provider, operator, options.parlayBook);
    addresses = deployed.addresses;
    await store?.recordIdentity({
      mode: 'embedded',
      chainId,
      genesisHash: genesis.hash,
      genesisTime,
      contracts: addresses,
      deploymentBlock: deployed.block,
      anchor: { block: deployed.block, hash: deployed.blockHash },
    });
    logger.info({ chainId, ...addresses }, 'embedded EVM started; contracts deployed');
  }
  let ahead = await alignClock(raw, now());
  return {
    provider: journal as unknown as EIP1193Provider,
    chainId,
    addresses,
    replayed: recorded !== null,
    journaledHead: () => journal.head,
    flush: () => journal.flush(),
    aheadMs: () => ahead,
    async advanceTime(seconds) {
      if (!Number.isSafeInteger(seconds) || seconds <= 0)
        throw new RangeError('advanceTime takes a positive whole number of seconds');
      await raw.request({ method: 'evm_increaseTime', params: [seconds] });
      await journal.request({ method: 'evm_mine', params: [] });
      ahead += seconds * 1000;
    },
  };
}

/**
 * Chain time = wall-clock time, or the time of the newest block when the chain is ahead of the
 * wall clock (moved by `advanceTime` before a restart, or a genesis dated after this machine's
 * clock: a clock set back, a data directory from another machine): removes whatever offset
 * behind the wall clock the genesis date or a replay left, then keeps the chain where its history
 * reached. Returns how far ahead it runs (ms). An offset ahead is kept, never undone: EDR refuses
 * a negative increase, and block times never go back.
 */
async function alignClock(raw: RawProvider, wallMs: number): Promise<number> {
  const offset = Number(await raw.request({ method: 'evm_increaseTime', params: [0] }));
  if (offset < 0) await raw.request({ method: 'evm_increaseTime', params: [-offset] });
  const kept = Math.max(offset, 0);
  const latest = (await raw.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as RpcBlock;
  const aheadSeconds = Number(BigInt(latest.timestamp)) - Math.floor(wallMs / 1000);
  if (aheadSeconds - kept <= 1) return kept * 1000;
  await raw.request({ method: 'evm_increaseTime', params: [aheadSeconds - kept] });
  return aheadSeconds * 1000;
}

/**
 * Rebuilds the journaled history block by block; returns the head. Every replayed block's hash is
 * checked against the journal as it is mined, so a journal that cannot be replayed names the first
 * block that came out differently instead of a mismatch somewhere at the head.
 */
async function replay(raw: RawProvider, store: EmbeddedChainStore): Promise<bigint> {
  await raw.request({ method: 'evm_setAutomine', params: [false] });
  let head = 0n;
  try {
    for await (const entry of store.journal()) {
      if (entry.kind === 'set_balance') {
        await raw.request({ method: 'hardhat_setBalance', params: [entry.address, entry.balance] });
        continue;
      }
      await raw.request({ method: 'evm_setNextBlockTimestamp', params: [toHex(entry.timestamp)] });
      for (const tx of entry.txs) await raw.request({ method: 'eth_sendRawTransaction', params: [tx] });
      await raw.request({ method: 'evm_mine', params: [] });
      const block = (await raw.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as RpcBlock;
      if (BigInt(block.number) !== entry.number || block.hash.toLowerCase() !== entry.hash.toLowerCase()) {
        throw new ChainIdentityError(
          `Refusing to start: replaying the embedded chain's journal could not rebuild block ${entry.number} ` +
            `(journaled as ${entry.hash} with ${entry.txs.length} transaction(s)); it came out as block ` +
            `${BigInt(block.number)} (${block.hash}). The chain cannot be rebuilt; use a fresh database.`,
        );
      }
      head = entry.number;
    }
  } finally {
    await raw.request({ method: 'evm_setAutomine', params: [true] });
  }
  const block = (await raw.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as RpcBlock;
  if (BigInt(block.number) !== head) {
    throw new ChainIdentityError(
      `Refusing to start: replaying the embedded chain's journal ended at block ${BigInt(block.number)} (${block.hash}), ` +
        `but the journal's last block is ${head}. The chain cannot be rebuilt; use a fresh database.`,
    );
  }
  return head;
}

/** Methods that change the chain and are journaled; any other method that changes it is refused. */
const JOURNALED = new Set(['eth_sendRawTransaction', 'hardhat_setBalance', 'evm_mine']);
const REFUSED = /^(evm_|hardhat_|anvil_|personal_|eth_sendTransaction$|eth_signTransaction$)/;

/**
 * The EDR provider with every state change journaled. Changes are serialised (the change, then
 * the blocks it mined, in order); the journal is written in batches behind them, and a change
 * answers its caller only once its entries are written (group commit): nothing a caller saw can
 * be missing after a restart, while the chain does not wait for the database between changes.
 * Only journaled blocks count as final (`head`): the indexer and the pipeline's receipts stop
 * there.
 */
class JournaledProvider {
  private readonly serial = new SerialQueue();
  private readonly raws = new Map<string, Hex>();
  private readonly unwritten: JournalEntry[] = [];
  private readonly waiting: { upTo: number; resolve: () => void }[] = [];
  private writing: Promise<void> | undefined;
  /** Entries journaled so far in this process, and entries queued so far. */
  private written = 0;
  private queued = 0;
  /** The newest block known to the provider, journaled or not. */
  private mined = 0n;
  /** The newest journaled block. */
  head = 0n;
  /** Set once a mined transaction's bytes turned out unknown: the journal cannot follow the chain any more. */
  private broken: Error | undefined;

  constructor(
    private readonly raw: RawProvider,
    private readonly store: EmbeddedChainStore | undefined,
    private readonly logger: Logger,
  ) {}

  resumeAt(head: bigint): void {
    this.head = head;
    this.mined = head;
  }

  async request(args: Request): Promise<unknown> {
    if (JOURNALED.has(args.method)) {
      const { result, upTo } = await this.serial.run('chain', () => this.change(args));
      await this.journaled(upTo);
      return result;
    }
    if (REFUSED.test(args.method)) {
      throw Object.assign(
        new Error(`${args.method} is not available on the embedded chain: its history is journaled`),
        {
          code: -32601,
        },
      );
    }
    return this.raw.request(args);
  }

  /** Writes everything journaled so far (a clean shutdown waits for it). */
  flush(): Promise<void> {
    return this.journaled(this.queued);
  }

  private journaled(upTo: number): Promise<void> {
    if (this.written >= upTo) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ upTo, resolve }));
  }

  /**
   * Makes one change and queues what it mined. The journal follows the chain, not the answer: a
   * send's bytes are remembered before the node sees them, and the new blocks are scanned whether
   * the call resolved or threw, since a node may mine a transaction and still answer with an error.
   */
  private async change(args: Request): Promise<{ result: unknown; upTo: number }> {
    if (this.broken) throw this.broken;
    const params = (args.params ?? []) as unknown[];
    let sent: string | undefined;
    if (args.method === 'eth_sendRawTransaction') {
      const raw = params[0] as Hex;
      sent = keccak256(raw);
      this.raws.set(sent, raw);
    }
    let result: unknown;
    let failure: { error: unknown } | undefined;
    try {
      result = await this.raw.request(args);
    } catch (error) {
      failure = { error };
    }
    if (!failure && args.method === 'hardhat_setBalance') {
      this.queue({ kind: 'set_balance', address: params[0] as Hex, balance: params[1] as Hex });
    }
    await this.scan();
    if (failure) {
      // Bytes the node refused outright are forgotten; bytes it holds (pending) are kept for the block that mines them.
      if (sent && this.raws.has(sent)) {
        const known = await this.raw.request({ method: 'eth_getTransactionByHash', params: [sent] });
        if (!known) this.raws.delete(sent);
      }
      throw failure.error;
    }
    return { result, upTo: this.queued };
  }

  /** Queues every block mined since the last scan, each with the raw bytes of its transactions. */
  private async scan(): Promise<void> {
    // Automining makes one block per transaction: the latest block is usually the only new one.
    const latest = (await this.raw.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as RpcBlock;
    const top = BigInt(latest.number);
    for (let n = this.mined + 1n; n <= top; n++) {
      const block =
        n === top
          ? latest
          : ((await this.raw.request({ method: 'eth_getBlockByNumber', params: [toHex(n), false] })) as RpcBlock);
      const missing = block.transactions.filter((hash) => !this.raws.has(hash.toLowerCase()));
      if (missing.length) {
        // Only journaled methods reach the chain, so this is a defect, and a journal with a hole
        // could never be replayed: every later change is refused rather than acknowledged and lost.
        this.broken = new Error(
          `embedded chain: block ${n} holds transaction(s) ${missing.join(', ')} whose raw bytes were never seen; ` +
            'the chain can no longer be journaled, so it accepts no more changes. Restart the server to rebuild it from its journal.',
        );
        this.logger.error({ block: n.toString(), missing }, this.broken.message);
        throw this.broken;
      }
      const txs = block.transactions.map((hash) => {
        const bytes = this.raws.get(hash.toLowerCase()) as Hex;
        this.raws.delete(hash.toLowerCase());
        return bytes;
      });
      this.queue({ kind: 'block', number: n, hash: block.hash, timestamp: Number(BigInt(block.timestamp)), txs });
      this.mined = n;
    }
  }

  private queue(entry: JournalEntry): void {
    this.unwritten.push(entry);
    this.queued++;
    this.writing ??= this.write();
  }

  private async write(): Promise<void> {
    let delay = 50;
    while (this.unwritten.length) {
      const batch = this.unwritten.slice(0, 500);
      try {
        await this.store?.append(batch);
      } catch (err) {
        // Kept in order and tried again: a journal with a hole could never be replayed.
        this.logger.warn({ err }, 'could not write the embedded chain journal; retrying');
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 2_000);
        continue;
      }
      this.unwritten.splice(0, batch.length);
      this.written += batch.length;
      for (const entry of batch) if (entry.kind === 'block') this.head = entry.number;
      for (let i = this.waiting.length - 1; i >= 0; i--) {
        const w = this.waiting[i];
        if (w && w.upTo <= this.written) {
          this.waiting.splice(i, 1);
          w.resolve();
        }
      }
    }
    this.writing = undefined;
  }
}

async function deployAll(
  provider: EIP1193Provider,
  account: PrivateKeyAccount,
  parlay: ParlayBookDeployment | undefined,
): Promise<{ addresses: ChainAddresses; block: bigint; blockHash: Hex }> {
  const transport = custom(provider);
  const pub = createPublicClient({ transport });
  const wallet = createWalletClient({ transport, account });
  let block = 0n;
  let blockHash: Hex = '0x';
  const deploy = async (abi: readonly unknown[], bytecode: Hex, args: readonly unknown[]) => {
    const hash = await wallet.deployContract({ abi, bytecode, args, account, chain: null });
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (!receipt.contractAddress) throw new Error('contract deployment failed');
    block = receipt.blockNumber;
    blockHash = receipt.blockHash;
    return receipt.contractAddress;
  };
  const credits = await deploy(CollateralTokenAbi, CollateralTokenBytecode, [
    'Duelkit Credits',
    'CRD',
    account.address,
  ]);
  const usdc = await deploy(CollateralTokenAbi, CollateralTokenBytecode, ['Test USD Coin', 'USDC', account.address]);
  const markets = await deploy(DuelMarketsAbi, DuelMarketsBytecode, []);
  const creditsVault = await deploy(PrizeVaultAbi, PrizeVaultBytecode, [credits, account.address]);
  const usdcVault = await deploy(PrizeVaultAbi, PrizeVaultBytecode, [usdc, account.address]);
  const parlayBook = parlay
    ? await deploy(ParlayBookAbi, ParlayBookBytecode, [
        credits,
        account.address,
        parlay.quoteSigner,
        parlay.feeBps,
        parlay.marginBps,
      ])
    : undefined;
  return {
    addresses: { credits, usdc, markets, creditsVault, usdcVault, ...(parlayBook ? { parlayBook } : {}) },
    block,
    blockHash,
  };
}

async function deployParlayBook(
  provider: EIP1193Provider,
  account: PrivateKeyAccount,
  credits: Hex,
  parlay: ParlayBookDeployment,
): Promise<Hex> {
  const transport = custom(provider);
  const pub = createPublicClient({ transport });
  const wallet = createWalletClient({ transport, account });
  const hash = await wallet.deployContract({
    abi: ParlayBookAbi,
    bytecode: ParlayBookBytecode,
    args: [credits, account.address, parlay.quoteSigner, parlay.feeBps, parlay.marginBps],
    account,
    chain: null,
  });
  const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (!receipt.contractAddress) throw new Error('parlay book deployment failed');
  return receipt.contractAddress;
}

async function deployVaults(
  provider: EIP1193Provider,
  account: PrivateKeyAccount,
  tokens: { readonly credits: Hex; readonly usdc: Hex },
): Promise<{ creditsVault: Hex; usdcVault: Hex }> {
  const transport = custom(provider);
  const pub = createPublicClient({ transport });
  const wallet = createWalletClient({ transport, account });
  const deploy = async (token: Hex) => {
    const hash = await wallet.deployContract({
      abi: PrizeVaultAbi,
      bytecode: PrizeVaultBytecode,
      args: [token, account.address],
      account,
      chain: null,
    });
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (!receipt.contractAddress) throw new Error('prize vault deployment failed');
    return receipt.contractAddress;
  };
  return { creditsVault: await deploy(tokens.credits), usdcVault: await deploy(tokens.usdc) };
}
