import { createHardhatRuntimeEnvironment } from 'hardhat/hre';
import {
  createPublicClient,
  createWalletClient,
  custom,
  http,
  maxUint256,
  parseEventLogs,
  toHex,
  TransactionReceiptNotFoundError,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionReturnType,
  type EIP1193Provider,
  type Hash,
  type LocalAccount,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Logger } from '../../logger.js';
import { CollateralTokenAbi, CollateralTokenBytecode } from './artifacts/CollateralToken.js';
import { DuelMarketsAbi, DuelMarketsBytecode } from './artifacts/DuelMarkets.js';
import type {
  Bytes32,
  ChainAddresses,
  ChainInvite,
  ChainMarketStatus,
  ChainPort,
  CollateralKind,
  CreateMarketInput,
  MarketEvent,
  Signer,
} from './chain.port.js';
import { decodeMarketEvent, type DecodedMarketLog } from './market-events.js';
import { serveEmbeddedRpc } from './embedded-rpc.server.js';
import { revertToAppError } from './revert-errors.js';

type MarketRead = ContractFunctionName<typeof DuelMarketsAbi, 'view' | 'pure'>;
type MarketWrite = ContractFunctionName<typeof DuelMarketsAbi, 'nonpayable'>;

const STATUSES: readonly ChainMarketStatus[] = ['none', 'open', 'resolved', 'settled', 'cancelled'];
/** Below this native balance a managed account is topped up with GAS_TOP_UP. */
const GAS_FLOOR = 10n ** 16n;
const GAS_TOP_UP = 10n ** 17n;

export interface ChainConfig {
  /** JSON-RPC URL of a real node; unset → an in-process EVM (hardhat's EDR) with contracts deployed at boot. */
  readonly rpcUrl: string | undefined;
  readonly chainId: number;
  readonly operatorKey: `0x${string}`;
  /** Deployed contracts on a real chain; ignored on the embedded one. */
  readonly addresses: ChainAddresses | undefined;
  readonly confirmations: number;
  /** Loopback port serving the embedded EVM as JSON-RPC (0: any free port; null: not served). */
  readonly embeddedRpcPort: number | null;
}

/**
 * The chain through viem, one code path: only the transport differs — `http()` to a node, or
 * `custom()` over the EIP-1193 provider of an in-process hardhat network. Every write is
 * simulated first; reverts become 4xx AppErrors (revert-errors.ts).
 */
export class ViemChainAdapter implements ChainPort {
  private readonly locks = new Map<string, Promise<void>>();

  private constructor(
    readonly chainId: number,
    readonly addresses: ChainAddresses,
    private readonly account: PrivateKeyAccount,
    private readonly publicClient: PublicClient,
    private readonly walletClient: WalletClient,
    private readonly provider: EIP1193Provider | undefined,
    private readonly confirmations: number,
    /** JSON-RPC URL of the embedded EVM when it is served on loopback. */
    readonly embeddedRpcUrl: string | undefined,
    private readonly stopRpc: () => Promise<void>,
  ) {}

  get operator(): Address {
    return this.account.address;
  }

  static async connect(config: ChainConfig, logger: Logger): Promise<ViemChainAdapter> {
    const account = privateKeyToAccount(config.operatorKey);
    let transport: Transport;
    let provider: EIP1193Provider | undefined;
    if (config.rpcUrl) {
      transport = http(config.rpcUrl);
    } else {
      const hre = await createHardhatRuntimeEnvironment({
        networks: { sim: { type: 'edr-simulated', chainId: config.chainId } },
      });
      provider = (await hre.network.connect('sim')).provider as unknown as EIP1193Provider;
      transport = custom(provider);
      await provider.request({
        method: 'hardhat_setBalance' as never,
        params: [account.address, toHex(10n ** 24n)] as never,
      });
    }
    const publicClient = createPublicClient({ transport });
    const walletClient = createWalletClient({ transport, account });
    const chainId = await publicClient.getChainId();
    let addresses = config.addresses;
    if (!config.rpcUrl) {
      addresses = await deployAll(publicClient, walletClient, account);
      logger.info({ chainId, ...addresses }, 'embedded EVM started; contracts deployed');
    }
    if (!addresses) throw new Error('CHAIN_CONTRACTS must name the deployed contracts when CHAIN_RPC_URL is set');
    let rpc: { url: string; close(): Promise<void> } | undefined;
    if (provider && config.embeddedRpcPort !== null) {
      rpc = await serveEmbeddedRpc(provider, addresses, chainId, config.embeddedRpcPort);
      logger.info({ url: rpc.url }, 'embedded EVM served as JSON-RPC on loopback');
    }
    const served = rpc;
    return new ViemChainAdapter(
      chainId,
      addresses,
      account,
      publicClient,
      walletClient,
      provider,
      config.rpcUrl ? config.confirmations : 0,
      served?.url,
      served ? () => served.close() : () => Promise.resolve(),
    );
  }

  blockNumber(): Promise<bigint> {
    return this.publicClient.getBlockNumber({ cacheTime: 0 });
  }

  collateralBalance(stack: 'usdc' | 'credits', owner: Address): Promise<bigint> {
    return this.publicClient.readContract({
      address: this.addresses[stack],
      abi: CollateralTokenAbi,
      functionName: 'balanceOf',
      args: [owner],
    });
  }

  async mint(stack: 'usdc' | 'credits', to: Address, amount: bigint): Promise<Hash> {
    return this.withLock(this.account.address, () => this.mintUnlocked(stack, to, amount));
  }

  private async mintUnlocked(stack: 'usdc' | 'credits', to: Address, amount: bigint): Promise<Hash> {
    try {
      const { request } = await this.publicClient.simulateContract({
        address: this.addresses[stack],
        abi: CollateralTokenAbi,
        functionName: 'mint',
        args: [to, amount],
        account: this.account,
      });
      const hash = await this.walletClient.writeContract(request);
      await this.publicClient.waitForTransactionReceipt({ hash, confirmations: Math.max(1, this.confirmations) });
      return hash;
    } catch (err) {
      throw revertToAppError(err);
    }
  }

  fundGas(to: Address, amount: bigint): Promise<void> {
    return this.withLock(this.account.address, () => this.fundGasUnlocked(to, amount));
  }

  private async fundGasUnlocked(to: Address, amount: bigint): Promise<void> {
    if (this.provider) {
      const current = await this.publicClient.getBalance({ address: to });
      await this.provider.request({
        method: 'hardhat_setBalance' as never,
        params: [to, toHex(current + amount)] as never,
      });
      return;
    }
    const hash = await this.walletClient.sendTransaction({ to, value: amount, account: this.account, chain: null });
    await this.publicClient.waitForTransactionReceipt({ hash, confirmations: Math.max(1, this.confirmations) });
  }

  async poolBalances(duelId: `0x${string}`): Promise<bigint[]> {
    const balances = await this.publicClient.readContract({
      address: this.addresses.markets,
      abi: DuelMarketsAbi,
      functionName: 'poolBalances',
      args: [duelId],
    });
    return [...balances];
  }

  async safeHead(): Promise<bigint> {
    const head = await this.publicClient.getBlockNumber({ cacheTime: 0 });
    const safe = head - BigInt(this.confirmations);
    return safe < 0n ? 0n : safe;
  }

  async marketEvents(from: bigint, to: bigint): Promise<MarketEvent[]> {
    const logs = await this.publicClient.getContractEvents({
      address: this.addresses.markets,
      abi: DuelMarketsAbi,
      fromBlock: from,
      toBlock: to,
      strict: true,
    });
    return this.toEvents(logs);
  }

  async transactionStatus(hash: Hash): Promise<'pending' | 'success' | 'reverted'> {
    try {
      const receipt = await this.publicClient.getTransactionReceipt({ hash });
      return receipt.status;
    } catch (err) {
      if (err instanceof TransactionReceiptNotFoundError) return 'pending';
      throw err;
    }
  }

  async transactionEvents(hash: Hash): Promise<MarketEvent[]> {
    let receipt;
    try {
      receipt = await this.publicClient.getTransactionReceipt({ hash });
    } catch (err) {
      if (err instanceof TransactionReceiptNotFoundError) return [];
      throw err;
    }
    const logs = parseEventLogs({
      abi: DuelMarketsAbi,
      logs: receipt.logs.filter((l) => l.address.toLowerCase() === this.addresses.markets.toLowerCase()),
    });
    return this.toEvents(logs);
  }

  private async toEvents(logs: readonly DecodedMarketLog[]): Promise<MarketEvent[]> {
    const times = new Map<bigint, number>();
    const timeOf = async (block: bigint) => {
      let t = times.get(block);
      if (t === undefined) {
        t = Number((await this.publicClient.getBlock({ blockNumber: block })).timestamp);
        times.set(block, t);
      }
      return t;
    };
    const events: MarketEvent[] = [];
    for (const log of logs) {
      if (log.blockNumber === null || log.transactionHash === null || log.logIndex === null) continue;
      const event = decodeMarketEvent(log, {
        txHash: log.transactionHash,
        logIndex: log.logIndex,
        blockNumber: log.blockNumber,
        timestamp: await timeOf(log.blockNumber),
      });
      if (event) events.push(event);
    }
    return events;
  }

  // ---- writes ----

  async createMarket(signer: LocalAccount, input: CreateMarketInput): Promise<Hash> {
    return this.withLock(signer.address, async () => {
      await this.ensureGas(signer.address);
      await this.ensureAllowance(signer, input.collateral, input.funding);
      return this.send(signer, 'createMarket', [
        input.duelId,
        this.addresses[input.collateral],
        input.options,
        BigInt(input.startTime),
        BigInt(input.endTime),
        input.feeBps,
        input.isPrivate,
        input.funding,
        BigInt(input.minLeadSeconds),
        BigInt(input.contestPeriodSeconds),
      ]);
    });
  }

  async buy(signer: LocalAccount, duelId: Bytes32, option: number, investment: bigint, minSharesOut: bigint) {
    const [, collateral] = await this.marketInfo(duelId);
    const stack = this.stackOf(collateral);
    return this.withLock(signer.address, async () => {
      await this.ensureGas(signer.address);
      if (stack) await this.ensureAllowance(signer, stack, investment);
      return this.send(signer, 'buy', [duelId, option, investment, minSharesOut]);
    });
  }

  sellForReturn(signer: LocalAccount, duelId: Bytes32, option: number, returnAmount: bigint, maxSharesIn: bigint) {
    return this.write(signer, 'sellForReturn', [duelId, option, returnAmount, maxSharesIn]);
  }

  resolve(signer: Signer, duelId: Bytes32, outcome: number) {
    return this.write(signer, 'resolve', [duelId, outcome]);
  }

  finalize(signer: Signer, duelId: Bytes32, outcome: number) {
    return this.write(signer, 'finalize', [duelId, outcome]);
  }

  cancel(duelId: Bytes32) {
    return this.write('platform', 'cancel', [duelId]);
  }

  payout(duelId: Bytes32, holder: Address) {
    return this.write('platform', 'payout', [duelId, holder]);
  }

  createInvite(signer: Signer, duelId: Bytes32, codeHash: Bytes32, maxUses: number, expiresAt: number) {
    return this.write(signer, 'createInvite', [duelId, codeHash, maxUses, BigInt(expiresAt)]);
  }

  revokeInvite(signer: Signer, duelId: Bytes32, codeHash: Bytes32) {
    return this.write(signer, 'revokeInvite', [duelId, codeHash]);
  }

  join(signer: LocalAccount, duelId: Bytes32, codeHash: Bytes32) {
    return this.write(signer, 'join', [duelId, codeHash]);
  }

  joinFor(duelId: Bytes32, codeHash: Bytes32, member: Address) {
    return this.write('platform', 'joinFor', [duelId, codeHash, member]);
  }

  addMember(signer: Signer, duelId: Bytes32, member: Address) {
    return this.write(signer, 'addMember', [duelId, member]);
  }

  removeMember(signer: Signer, duelId: Bytes32, member: Address) {
    return this.write(signer, 'removeMember', [duelId, member]);
  }

  // ---- reads ----

  async marketStatus(duelId: Bytes32): Promise<ChainMarketStatus> {
    const info = await this.marketInfo(duelId);
    return STATUSES[info[6]] ?? 'none';
  }

  isMember(duelId: Bytes32, member: Address): Promise<boolean> {
    return this.read('members', [duelId, member]);
  }

  async invite(duelId: Bytes32, codeHash: Bytes32): Promise<ChainInvite> {
    const [maxUses, uses, expiresAt, revoked, exists] = await this.read('invites', [duelId, codeHash]);
    return { maxUses, uses, expiresAt: Number(expiresAt), revoked, exists };
  }

  async owed(duelId: Bytes32, holder: Address) {
    const [[amount, refund], paid] = await Promise.all([
      this.read('owed', [duelId, holder]),
      this.read('paid', [duelId, holder]),
    ]);
    return { amount, refund, paid };
  }

  sharesOf(duelId: Bytes32, holder: Address, option: number): Promise<bigint> {
    return this.read('shares', [duelId, holder, BigInt(option)]);
  }

  private marketInfo(duelId: Bytes32) {
    return this.read('marketInfo', [duelId]);
  }

  private stackOf(collateral: Address): CollateralKind | undefined {
    const c = collateral.toLowerCase();
    if (c === this.addresses.credits.toLowerCase()) return 'credits';
    if (c === this.addresses.usdc.toLowerCase()) return 'usdc';
    return undefined;
  }

  private read<F extends MarketRead>(
    functionName: F,
    args: ContractFunctionArgs<typeof DuelMarketsAbi, 'view' | 'pure', F>,
  ): Promise<ContractFunctionReturnType<typeof DuelMarketsAbi, 'view' | 'pure', F>> {
    return this.publicClient.readContract({
      address: this.addresses.markets,
      abi: DuelMarketsAbi,
      functionName,
      args,
    } as never) as never;
  }

  private write<F extends MarketWrite>(
    signer: Signer,
    functionName: F,
    args: ContractFunctionArgs<typeof DuelMarketsAbi, 'nonpayable', F>,
  ): Promise<Hash> {
    const account = signer === 'platform' ? this.account : signer;
    return this.withLock(account.address, async () => {
      if (signer !== 'platform') await this.ensureGas(account.address);
      return this.send(account, functionName, args);
    });
  }

  /** Simulates, then sends; a revert becomes a 4xx DomainError. Returns once the node accepted it. */
  private async send<F extends MarketWrite>(
    account: LocalAccount,
    functionName: F,
    args: ContractFunctionArgs<typeof DuelMarketsAbi, 'nonpayable', F>,
  ): Promise<Hash> {
    try {
      // Against the next block, not the latest: an idle chain's latest block can be far behind
      // the clock, and time checks (end time, contest period) must see the time the tx will see.
      const { request } = await this.publicClient.simulateContract({
        address: this.addresses.markets,
        abi: DuelMarketsAbi,
        functionName,
        args,
        account,
        blockTag: 'pending',
      } as never);
      return await this.walletClient.writeContract({ ...(request as object), account, chain: null } as never);
    } catch (err) {
      throw revertToAppError(err);
    }
  }

  /** Approves the market contract once (unlimited) when the allowance does not cover `amount`. */
  private async ensureAllowance(signer: LocalAccount, stack: CollateralKind, amount: bigint): Promise<void> {
    const token = this.addresses[stack];
    const allowance = await this.publicClient.readContract({
      address: token,
      abi: CollateralTokenAbi,
      functionName: 'allowance',
      args: [signer.address, this.addresses.markets],
    });
    if (allowance >= amount) return;
    try {
      const { request } = await this.publicClient.simulateContract({
        address: token,
        abi: CollateralTokenAbi,
        functionName: 'approve',
        args: [this.addresses.markets, maxUint256],
        account: signer,
      });
      const hash = await this.walletClient.writeContract({ ...request, account: signer, chain: null });
      await this.publicClient.waitForTransactionReceipt({ hash });
    } catch (err) {
      throw revertToAppError(err);
    }
  }

  /** Managed accounts pay gas; the operator tops them up when they run low. */
  private async ensureGas(address: Address): Promise<void> {
    const balance = await this.publicClient.getBalance({ address });
    if (balance >= GAS_FLOOR) return;
    await this.withLock(this.account.address, () => this.fundGasUnlocked(address, GAS_TOP_UP));
  }

  /** Serialises the writes of one account in this process, so nonces never collide. */
  private withLock<T>(address: Address, fn: () => Promise<T>): Promise<T> {
    const key = address.toLowerCase();
    const previous = this.locks.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.locks.set(key, settled);
    void settled.then(() => {
      if (this.locks.get(key) === settled) this.locks.delete(key);
    });
    return run;
  }

  async close(): Promise<void> {
    // The in-process EVM itself lives as long as the process; only its RPC server is stopped.
    await this.stopRpc();
  }
}

async function deployAll(pub: PublicClient, wallet: WalletClient, account: PrivateKeyAccount): Promise<ChainAddresses> {
  const deploy = async (abi: readonly unknown[], bytecode: `0x${string}`, args: readonly unknown[]) => {
    const hash = await wallet.deployContract({ abi, bytecode, args, account, chain: null });
    const { contractAddress } = await pub.waitForTransactionReceipt({ hash });
    if (!contractAddress) throw new Error('contract deployment failed');
    return contractAddress;
  };
  const credits = await deploy(CollateralTokenAbi, CollateralTokenBytecode, [
    'Duelkit Credits',
    'CRD',
    account.address,
  ]);
  const usdc = await deploy(CollateralTokenAbi, CollateralTokenBytecode, ['Test USD Coin', 'USDC', account.address]);
  const markets = await deploy(DuelMarketsAbi, DuelMarketsBytecode, []);
  return { credits, usdc, markets };
}
