import { createHardhatRuntimeEnvironment } from 'hardhat/hre';
import {
  createPublicClient,
  createWalletClient,
  custom,
  http,
  toHex,
  type Address,
  type EIP1193Provider,
  type Hash,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Logger } from '../../logger.js';
import { CollateralTokenAbi, CollateralTokenBytecode } from '../../chain/artifacts/CollateralToken.js';
import { DuelMarketsAbi, DuelMarketsBytecode } from '../../chain/artifacts/DuelMarkets.js';
import type { ChainAddresses, ChainPort, MarketEvent } from './chain.port.js';
import { serveEmbeddedRpc } from './embedded-rpc.server.js';
import { revertToAppError } from './revert-errors.js';

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

  async fundGas(to: Address, amount: bigint): Promise<void> {
    if (this.provider) {
      await this.provider.request({ method: 'hardhat_setBalance' as never, params: [to, toHex(amount)] as never });
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
    });
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
      const base = {
        txHash: log.transactionHash,
        logIndex: log.logIndex,
        blockNumber: log.blockNumber,
        timestamp: await timeOf(log.blockNumber),
      };
      if (log.eventName === 'MarketCreated') {
        const a = log.args;
        events.push({
          ...base,
          kind: 'created',
          duelId: a.duelId as `0x${string}`,
          creator: a.creator as Address,
          options: Number(a.options),
          funding: a.funding as bigint,
        });
      } else if (log.eventName === 'Bought' || log.eventName === 'Sold') {
        const a = log.args as {
          duelId: `0x${string}`;
          option: number;
          fee: bigint;
          balances: readonly bigint[];
        } & Record<string, unknown>;
        const bought = log.eventName === 'Bought';
        events.push({
          ...base,
          kind: bought ? 'bought' : 'sold',
          duelId: a.duelId,
          trader: (bought ? a['buyer'] : a['seller']) as Address,
          option: Number(a.option),
          collateral: (bought ? a['investment'] : a['returnAmount']) as bigint,
          fee: a.fee,
          shares: (bought ? a['sharesOut'] : a['sharesIn']) as bigint,
          balances: a.balances,
        });
      }
    }
    return events;
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
