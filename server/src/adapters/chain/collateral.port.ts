import type { Address, Hash, LocalAccount } from 'viem';
import type { CollateralKind, WriteOptions } from './chain.types.js';

/** Collateral balances and movements, and gas for managed accounts. */
export interface CollateralPort {
  /** Collateral balance of `owner` in base units. */
  collateralBalance(stack: CollateralKind, owner: Address): Promise<bigint>;
  /** Mints collateral to `to` from the operator (credits grants; usdc only on test chains). */
  mint(stack: CollateralKind, to: Address, amount: bigint, opts?: WriteOptions): Promise<Hash>;
  /** Sends collateral from a managed account to `to` (withdrawals); key it with `opts.key`. */
  transfer(
    signer: LocalAccount,
    stack: CollateralKind,
    to: Address,
    amount: bigint,
    opts?: WriteOptions,
  ): Promise<Hash>;
  /** Gives `to` native gas on chains where the operator can (embedded: hardhat_setBalance). */
  fundGas(to: Address, amount: bigint): Promise<void>;
}
