import type { BuyEstimate, SellEstimate } from '@duelkit/contract';
import { getAddress } from 'viem';
import { BPS, buy, maxReturnForShares, prices, sellForReturn } from './fpmm.math.js';
import { DomainError } from '../../errors.js';
import { reject } from './bet-rejection.js';
import type { Duel } from './duel.entity.js';
import type { QuoteSigner } from './quote-signer.js';
import type { Clock } from '../../platform/clock.js';

/** floor(x × (10000 − slippageBps) / 10000): never above x. */
export function slippageFloor(x: bigint, slippageBps: number): bigint {
  return (x * (BPS - BigInt(slippageBps))) / BPS;
}

function impactBps(before: bigint, after: bigint): number {
  if (before === 0n) return 0;
  return Number(((after - before) * BPS) / before);
}

type PricedDuel = Pick<Duel, 'duelId' | 'feeBps'>;

/**
 * Signed estimates: the pool arithmetic of the contract applied to the live balances, with the
 * slippage floor, prices before and after, and an expiry; `verify` checks one handed back.
 */
export class Quoter {
  constructor(
    private readonly quotes: QuoteSigner,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
  ) {}

  /** `trader`: the managed address the quote is issued to (only it may place it); null for a public quote. */
  buy(
    duel: PricedDuel,
    balances: bigint[],
    option: number,
    amount: bigint,
    slippageBps: number,
    trader: string | null,
  ): BuyEstimate {
    const result = buy(balances, option, amount, BigInt(duel.feeBps));
    const before = prices(balances);
    const after = prices(result.balancesAfter);
    const quotedAt = this.clock.now();
    const fields = {
      side: 'buy' as const,
      trader: trader === null ? null : getAddress(trader),
      duelId: duel.duelId,
      optionIndex: option,
      amountIn: amount.toString(),
      fee: result.fee.toString(),
      sharesOut: result.sharesOut.toString(),
      minSharesOut: slippageFloor(result.sharesOut, slippageBps).toString(),
      slippageBps,
      avgPrice: result.sharesOut > 0n ? ((amount * 10n ** 18n) / result.sharesOut).toString() : '0',
      pricesBefore: before.map(String),
      pricesAfter: after.map(String),
      priceImpactBps: impactBps(before[option] ?? 0n, after[option] ?? 0n),
      quotedAt: new Date(quotedAt).toISOString(),
      expiresAt: new Date(quotedAt + this.ttlSeconds * 1000).toISOString(),
    };
    return { quoteId: this.quotes.sign(fields), ...fields };
  }

  sell(
    duel: PricedDuel,
    balances: bigint[],
    option: number,
    shares: bigint,
    slippageBps: number,
    trader: string | null,
  ): SellEstimate {
    const fee = BigInt(duel.feeBps);
    const amountOut = maxReturnForShares(balances, option, shares, fee);
    if (amountOut === 0n) reject('POOL_TOO_SMALL', 'These shares cannot be sold for any collateral now');
    const result = sellForReturn(balances, option, amountOut, fee);
    const before = prices(balances);
    const after = prices(result.balancesAfter);
    const quotedAt = this.clock.now();
    const fields = {
      side: 'sell' as const,
      trader: trader === null ? null : getAddress(trader),
      duelId: duel.duelId,
      optionIndex: option,
      shares: shares.toString(),
      sharesIn: result.sharesIn.toString(),
      amountOut: amountOut.toString(),
      minAmountOut: slippageFloor(amountOut, slippageBps).toString(),
      fee: result.fee.toString(),
      slippageBps,
      pricesBefore: before.map(String),
      pricesAfter: after.map(String),
      priceImpactBps: impactBps(before[option] ?? 0n, after[option] ?? 0n),
      quotedAt: new Date(quotedAt).toISOString(),
      expiresAt: new Date(quotedAt + this.ttlSeconds * 1000).toISOString(),
    };
    return { quoteId: this.quotes.sign(fields), ...fields };
  }

  /** Checks a quote handed back by `trader`: issued by this server, unaltered, to them, unexpired. */
  verify(estimate: BuyEstimate | SellEstimate, trader: string): void {
    const { quoteId, ...fields } = estimate;
    if (!this.quotes.verify(quoteId, fields)) {
      throw new DomainError(
        'QUOTE_INVALID',
        'The estimate was altered or was not issued by this server: estimate again',
      );
    }
    if (estimate.trader === null || estimate.trader.toLowerCase() !== trader.toLowerCase()) {
      throw new DomainError(
        'QUOTE_NOT_YOURS',
        estimate.trader === null
          ? 'This is a public quote, for pricing only: estimate with your own token to trade'
          : 'This estimate was issued to another trader: estimate again with your own token',
        { details: { quotedFor: estimate.trader } },
      );
    }
    if (Date.parse(estimate.expiresAt) <= this.clock.now()) {
      throw new DomainError('QUOTE_EXPIRED', 'The estimate has expired: estimate again', {
        details: { expiresAt: estimate.expiresAt },
      });
    }
  }
}
