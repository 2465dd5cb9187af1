import type { Address, Hash } from 'viem';

export interface ChainAddresses {
  readonly credits: Address;
  readonly usdc: Address;
  readonly markets: Address;
}

interface EventBase {
  readonly duelId: `0x${string}`;
  readonly txHash: `0x${string}`;
  readonly logIndex: number;
  readonly blockNumber: bigint;
  /** Block time, seconds since the epoch. */
  readonly timestamp: number;
}

/** Market events the indexer turns into the read model. */
export type MarketEvent =
  | (EventBase & {
      readonly kind: 'created';
      readonly creator: Address;
      readonly options: number;
      readonly funding: bigint;
    })
  | (EventBase & {
      readonly kind: 'bought' | 'sold';
      readonly trader: Address;
      readonly option: number;
      /** Investment (bought) or return (sold), base units. */
      readonly collateral: bigint;
      readonly fee: bigint;
      readonly shares: bigint;
      readonly balances: readonly bigint[];
    });

/** The EVM chain in domain terms; one viem implementation serves the embedded EVM and any RPC. */
export interface ChainPort {
  readonly chainId: number;
  readonly addresses: ChainAddresses;
  readonly operator: Address;
  blockNumber(): Promise<bigint>;
  /** Collateral balance of `owner` in base units. */
  collateralBalance(stack: 'usdc' | 'credits', owner: Address): Promise<bigint>;
  /** Mints collateral to `to` from the operator (credits grants; usdc only on test chains). */
  mint(stack: 'usdc' | 'credits', to: Address, amount: bigint): Promise<Hash>;
  /** Gives `to` native gas on chains where the operator can (embedded: hardhat_setBalance). */
  fundGas(to: Address, amount: bigint): Promise<void>;
  poolBalances(duelId: `0x${string}`): Promise<bigint[]>;
  /** The newest block deep enough to count as final (head minus the confirmation depth). */
  safeHead(): Promise<bigint>;
  /** Market events in blocks [from, to], in chain order. */
  marketEvents(from: bigint, to: bigint): Promise<MarketEvent[]>;
  close(): Promise<void>;
}
