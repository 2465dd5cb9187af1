import { getAddress, type Address, type Hash, type LocalAccount } from 'viem';
import type { Bytes32, WriteOptions } from '../../src/adapters/chain/chain.types.js';
import type { MarketTradingPort } from '../../src/adapters/chain/market-trading.port.js';
import { revertError } from '../../src/adapters/chain/revert-errors.js';
import { buy, MIN_STAKE, sellForReturn } from '../../src/areas/markets/fpmm.math.js';
import type { InMemoryChain } from './in-memory-chain.js';

/**
 * `MarketTradingPort` over an in-memory chain, priced with `fpmm.math.ts` (the contract's own
 * integer arithmetic): pool balances, shares and collateral move exactly as on chain, and every
 * refusal is the adapter's DomainError for the contract's revert.
 */
export class FakeMarketTrading implements MarketTradingPort {
  constructor(private readonly chain: InMemoryChain) {}

  buy(
    signer: LocalAccount,
    duelId: Bytes32,
    option: number,
    investment: bigint,
    minSharesOut: bigint,
    opts?: WriteOptions,
  ): Promise<Hash> {
    const trader = this.chain.accountOf(signer);
    const stack = this.chain.markets.get(duelId.toLowerCase() as Bytes32)?.collateral;
    return this.chain.write(
      {
        from: trader,
        ...(stack ? { debit: { stack, amount: investment, refusal: 'INSUFFICIENT_CREDITS' as const } } : {}),
        apply: () => {
          const market = this.chain.tradable(duelId, option, trader);
          if (investment < MIN_STAKE) throw revertError('BelowMinimum', [MIN_STAKE.toString()]);
          const result = buy(market.balances, option, investment, BigInt(market.feeBps));
          if (result.sharesOut < minSharesOut) {
            throw revertError('SlippageExceeded', [result.sharesOut.toString(), minSharesOut.toString()]);
          }
          this.chain.move(market.collateral, trader, this.chain.addresses.markets, investment);
          market.balances = result.balancesAfter;
          market.fees += result.fee;
          market.held += investment;
          this.chain.setShares(duelId, trader, option, this.chain.shares(duelId, trader, option) + result.sharesOut);
          this.chain.addNetDeposit(duelId, trader, investment);
          return [
            {
              kind: 'bought',
              duelId,
              trader,
              option,
              collateral: investment,
              fee: result.fee,
              shares: result.sharesOut,
              balances: [...market.balances],
            },
          ];
        },
      },
      opts,
    );
  }

  sellForReturn(
    signer: LocalAccount,
    duelId: Bytes32,
    option: number,
    returnAmount: bigint,
    maxSharesIn: bigint,
    opts?: WriteOptions,
  ): Promise<Hash> {
    const trader = this.chain.accountOf(signer);
    return this.chain.write(
      {
        from: trader,
        apply: () => {
          const market = this.chain.tradable(duelId, option, trader);
          let result: ReturnType<typeof sellForReturn>;
          try {
            result = sellForReturn(market.balances, option, returnAmount, BigInt(market.feeBps));
          } catch {
            throw revertError('PoolTooSmall');
          }
          if (result.sharesIn > maxSharesIn) {
            throw revertError('SlippageExceeded', [result.sharesIn.toString(), maxSharesIn.toString()]);
          }
          const held = this.chain.shares(duelId, trader, option);
          if (held < result.sharesIn) {
            throw revertError('InsufficientShares', [held.toString(), result.sharesIn.toString()]);
          }
          market.balances = result.balancesAfter;
          market.fees += result.fee;
          market.held -= returnAmount;
          this.chain.setShares(duelId, trader, option, held - result.sharesIn);
          this.chain.addNetDeposit(duelId, trader, -returnAmount);
          this.chain.move(market.collateral, this.chain.addresses.markets, trader, returnAmount);
          return [
            {
              kind: 'sold',
              duelId,
              trader,
              option,
              collateral: returnAmount,
              fee: result.fee,
              shares: result.sharesIn,
              balances: [...market.balances],
            },
          ];
        },
      },
      opts,
    );
  }

  sharesOf(duelId: Bytes32, holder: Address, option: number): Promise<bigint> {
    return Promise.resolve(this.chain.shares(duelId, getAddress(holder), option));
  }

  poolBalances(duelId: Bytes32): Promise<bigint[]> {
    // The contract answers an empty array for a market it does not know.
    return Promise.resolve([...(this.chain.markets.get(duelId.toLowerCase() as Bytes32)?.balances ?? [])]);
  }
}
