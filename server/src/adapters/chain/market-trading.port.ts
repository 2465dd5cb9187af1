import type { Address, Hash, LocalAccount } from 'viem';
import type { Bytes32, WriteOptions } from './chain.types.js';

/** Trading against a market's pool (fixed-product market maker, `fpmm.math.ts`). */
export interface MarketTradingPort {
  /** Buys `option` for `investment`; reverts (SLIPPAGE_EXCEEDED) when it would mint fewer than `minSharesOut`. */
  buy(
    signer: LocalAccount,
    duelId: Bytes32,
    option: number,
    investment: bigint,
    minSharesOut: bigint,
    opts?: WriteOptions,
  ): Promise<Hash>;
  /** Sells `option` for exactly `returnAmount`; reverts (SLIPPAGE_EXCEEDED) when it needs more than `maxSharesIn`. */
  sellForReturn(
    signer: LocalAccount,
    duelId: Bytes32,
    option: number,
    returnAmount: bigint,
    maxSharesIn: bigint,
    opts?: WriteOptions,
  ): Promise<Hash>;
  sharesOf(duelId: Bytes32, holder: Address, option: number): Promise<bigint>;
  /** The pool's balance of each option, base units. */
  poolBalances(duelId: Bytes32): Promise<bigint[]>;
}
