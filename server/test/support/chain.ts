import {
  createPublicClient,
  createWalletClient,
  custom,
  toHex,
  type Address,
  type EIP1193Provider,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CollateralTokenAbi } from '../../src/adapters/chain/artifacts/CollateralToken.js';
import type { ChainAddresses, CollateralKind } from '../../src/adapters/chain/chain.port.js';
import { startEmbeddedChain } from '../../src/adapters/chain/embedded-chain.js';
import { serveEmbeddedRpc } from '../../src/adapters/chain/embedded-rpc.server.js';
import type { ChainConfig, ChainStores } from '../../src/adapters/chain/viem-chain.adapter.js';
import { createLogger } from '../../src/logger.js';
import { ChainStateRepository } from '../../src/platform/chain-tx/chain-state.repository.js';
import { ChainTxRepository } from '../../src/platform/chain-tx/chain-tx.repository.js';
import { FundsRepository } from '../../src/platform/chain-tx/funds.repository.js';
import { systemClock } from '../../src/platform/clock.js';
import type { Orm } from '../../src/platform/db/orm.js';

/** Hardhat's first development account: the operator of every test chain. */
export const OPERATOR_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

/** The chain stores of a database, for adapters built by hand in tests. */
export function chainStores(orm: Orm): ChainStores {
  return {
    txs: new ChainTxRepository(orm),
    funds: new FundsRepository(orm),
    state: new ChainStateRepository(orm),
    clock: systemClock,
  };
}

/** Chain settings for adapters built by hand: the embedded chain unless `rpcUrl` is given. */
export function chainConfig(overrides: Partial<ChainConfig> = {}): ChainConfig {
  return {
    rpcUrl: undefined,
    chainId: 31337,
    operatorKey: OPERATOR_KEY,
    addresses: undefined,
    confirmations: 0,
    embeddedRpcPort: 0,
    rpcBatchSize: 100,
    broadcastTimeoutMs: 5_000,
    gasFloor: 10n ** 16n,
    gasTopUp: 10n ** 17n,
    ...overrides,
  };
}

/**
 * A chain node outside any server: the embedded EVM with the contracts deployed, served as
 * JSON-RPC on loopback. What it sends itself (mints, gas) it sends as an outside party would,
 * with the operator key and no pipeline.
 */
export interface DevChain {
  readonly rpcUrl: string;
  readonly chainId: number;
  readonly addresses: ChainAddresses;
  readonly client: PublicClient;
  mint(stack: CollateralKind, to: Address, amount: bigint): Promise<Hex>;
  /** Sets native balance (hardhat_setBalance), not a transaction. */
  setBalance(to: Address, amount: bigint): Promise<void>;
  /** Moves the chain's time forward and mines a block at it (the embedded chain's journaled way). */
  advanceTime(seconds: number): Promise<void>;
  close(): Promise<void>;
}

export async function startDevChain(options: { port?: number; genesisAgoMs?: number } = {}): Promise<DevChain> {
  const operator = privateKeyToAccount(OPERATOR_KEY);
  const ago = options.genesisAgoMs ?? 0;
  const chain = await startEmbeddedChain({
    chainId: 31337,
    operator,
    logger: createLogger('silent'),
    ...(ago ? { now: () => Date.now() - ago } : {}),
  });
  const rpc = await serveEmbeddedRpc(chain.provider, chain.addresses, chain.chainId, options.port ?? 0);
  return devChainOf(chain.provider, chain.addresses, chain.chainId, rpc, (seconds) => chain.advanceTime(seconds));
}

function devChainOf(
  provider: EIP1193Provider,
  addresses: ChainAddresses,
  chainId: number,
  rpc: { url: string; close(): Promise<void> },
  advanceTime: (seconds: number) => Promise<void>,
): DevChain {
  const operator = privateKeyToAccount(OPERATOR_KEY);
  const transport = custom(provider);
  const client = createPublicClient({ transport });
  const wallet = createWalletClient({ transport, account: operator });
  return {
    rpcUrl: rpc.url,
    chainId,
    addresses,
    client,
    async mint(stack, to, amount) {
      const { request } = await client.simulateContract({
        address: addresses[stack],
        abi: CollateralTokenAbi,
        functionName: 'mint',
        args: [to, amount],
        account: operator,
      });
      const hash = await wallet.writeContract({ ...request, chain: null });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      return hash;
    },
    async setBalance(to, amount) {
      await provider.request({ method: 'hardhat_setBalance' as never, params: [to, toHex(amount)] as never });
    },
    advanceTime,
    close: () => rpc.close(),
  };
}
