import type { Address, Hash } from 'viem';

export interface ChainAddresses {
  readonly credits: Address;
  readonly usdc: Address;
  readonly markets: Address;
}

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
  close(): Promise<void>;
}
