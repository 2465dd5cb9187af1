import type { BuyEstimate, SellEstimate } from '@duelkit/contract';
import { getAddress } from 'viem';
import type { CollateralPort } from '../../adapters/chain/collateral.port.js';
import type { MarketTradingPort } from '../../adapters/chain/market-trading.port.js';
import { BPS, buy, maxReturnForShares, MIN_STAKE } from './fpmm.math.js';
import { DomainError } from '../../errors.js';
import { assertCollateralAllowed, type Region } from '../../platform/geo/region.js';
import type { ManagedSigners } from '../identity/managed-signers.js';
import type { Duel } from './duel.entity.js';
import type { DuelRepository } from './duel.repository.js';
import type { DuelService } from './duel.service.js';
import type { MarketAccess } from './market-access.js';
import type { Quoter } from './bet-quotes.js';
import { reject, Rejected, type Rejection } from './bet-rejection.js';
import type { Clock } from '../../platform/clock.js';
import type { OperationContext } from '../../platform/operation.context.js';

export interface BetSettings {
  /** Per-user exposure limit in base units; 0n = none. */
  readonly userBetLimit: bigint;
}

/** Who trades: the caller's id (for signing) and managed address; absent on public quotes. */
export interface Trader {
  readonly userId: string;
  readonly address: string;
  /** Where the caller is: usdc markets are refused from blocked regions. */
  readonly region: Region;
}

/** What the bets service works with. */
export interface BetsDeps {
  readonly trading: MarketTradingPort;
  readonly collateral: Pick<CollateralPort, 'collateralBalance'>;
  readonly duels: Pick<DuelService, 'require' | 'requireForTrading'>;
  readonly repo: Pick<DuelRepository, 'positionsOf' | 'openExposure'>;
  readonly access: Pick<MarketAccess, 'assertCanView'>;
  readonly signers: Pick<ManagedSigners, 'forUser'>;
  readonly quoter: Quoter;
  readonly settings: BetSettings;
  readonly clock: Clock;
}

/**
 * Trading against the market maker. Estimates price the live on-chain pool with the same integer
 * arithmetic as the contract; placing re-prices against the live pool and rejects only when the
 * live result is worse than the estimate's slippage floor.
 */
export class BetsService {
  constructor(private readonly deps: BetsDeps) {}

  async estimateBuy(
    trader: Trader | undefined,
    input: { duelId: string; optionIndex: number; betAmountUsdc: string; slippageBps: number },
  ): Promise<{ success: true; estimate: BuyEstimate } | Rejection> {
    return this.rejections(async () => {
      const { duel, balances } = await this.tradable(input.duelId, input.optionIndex, trader?.address, trader);
      const amount = BigInt(input.betAmountUsdc);
      this.assertMinimum(amount);
      if (trader) await this.assertWithinLimit(trader.address, amount);
      const estimate = this.deps.quoter.buy(
        duel,
        balances,
        input.optionIndex,
        amount,
        input.slippageBps,
        trader?.address ?? null,
      );
      return { success: true as const, estimate };
    });
  }

  /** `viewer` (public route with an optional token) may see a private market without holdings checks. */
  async estimateSell(
    trader: Trader | undefined,
    input: { duelId: string; optionIndex: number; shares: string; slippageBps: number },
    viewer: string | undefined = trader?.address,
  ): Promise<{ success: true; estimate: SellEstimate } | Rejection> {
    return this.rejections(async () => {
      const { duel, balances } = await this.tradable(input.duelId, input.optionIndex, viewer, trader);
      const shares = BigInt(input.shares);
      if (trader) await this.assertHolds(duel, trader.address, input.optionIndex, shares);
      const estimate = this.deps.quoter.sell(
        duel,
        balances,
        input.optionIndex,
        shares,
        input.slippageBps,
        trader?.address ?? null,
      );
      return { success: true as const, estimate };
    });
  }

  async estimatedWin(
    caller: string | undefined,
    input: { duelId: string; optionIndex: number; betAmountUsdc: string },
  ) {
    const duel = await this.deps.duels.require(input.duelId);
    await this.deps.access.assertCanView(duel, caller);
    this.assertOption(duel, input.optionIndex);
    const amount = BigInt(input.betAmountUsdc);
    if (amount < MIN_STAKE) {
      throw new DomainError('BET_BELOW_MINIMUM', 'The stake is below the 5-unit minimum', {
        details: { minimum: MIN_STAKE.toString() },
      });
    }
    const balances = await this.balances(duel);
    const { sharesOut } = buy(balances, input.optionIndex, amount, BigInt(duel.feeBps));
    return {
      duelId: duel.duelId,
      optionIndex: input.optionIndex,
      betAmount: amount.toString(),
      sharesOut: sharesOut.toString(),
      estimatedWinAmountUsdc: sharesOut.toString(),
      estimatedProfit: (sharesOut - amount).toString(),
    };
  }

  /** Places a bet from a signed estimate, signed by the caller's managed wallet. */
  async placeBet(
    ctx: OperationContext,
    trader: Trader,
    input: {
      estimate: BuyEstimate;
      duelId: string;
      bet: string;
      optionIndex: number;
      betAmount: string;
      betAmountUsdc: string;
      slippageBps: number;
      tokenDecimals?: number | undefined;
    },
  ) {
    const { estimate } = input;
    if (input.tokenDecimals !== undefined && input.tokenDecimals !== 18) {
      throw new DomainError('VALIDATION_FAILED', 'The collateral has 18 decimals', {
        fieldErrors: { 'body.tokenDecimals': ['must be 18 for this collateral'] },
      });
    }
    this.deps.quoter.verify(estimate, trader.address);
    const mismatch: Record<string, string[]> = {};
    if (estimate.duelId.toLowerCase() !== input.duelId.toLowerCase())
      mismatch['body.duelId'] = ['differs from the estimate'];
    if (estimate.optionIndex !== input.optionIndex) mismatch['body.optionIndex'] = ['differs from the estimate'];
    if (input.betAmount !== estimate.amountIn) mismatch['body.betAmount'] = ['differs from estimate.amountIn'];
    if (input.betAmountUsdc !== estimate.amountIn) mismatch['body.betAmountUsdc'] = ['differs from estimate.amountIn'];
    if (input.slippageBps !== estimate.slippageBps) mismatch['body.slippageBps'] = ['differs from the estimate'];
    if (Object.keys(mismatch).length) {
      throw new DomainError('QUOTE_INVALID', 'The request does not match its estimate', { fieldErrors: mismatch });
    }
    const amount = BigInt(estimate.amountIn);
    if (amount < MIN_STAKE) {
      throw new DomainError('BET_BELOW_MINIMUM', 'The stake is below the 5-unit minimum per option', {
        details: { minimum: MIN_STAKE.toString() },
      });
    }
    const duel = await this.tradableDuelOrThrow(estimate.duelId, estimate.optionIndex, trader);
    // The funds check's read starts with the pool's: asked in the same tick, the two go to the
    // node as one request.
    const [balances, available] = await Promise.all([
      this.balances(duel),
      this.deps.collateral.collateralBalance(duel.collateralStack, getAddress(trader.address)),
    ]);
    const label = duel.options[estimate.optionIndex] ?? '';
    if (label.toLowerCase() !== input.bet.trim().toLowerCase()) {
      throw new DomainError('VALIDATION_FAILED', `Option ${estimate.optionIndex} is "${label}"`, {
        fieldErrors: { 'body.bet': [`must be the label of option ${estimate.optionIndex} ("${label}")`] },
      });
    }
    await this.assertWithinLimitOrThrow(trader.address, amount);
    const live = buy(balances, estimate.optionIndex, amount, BigInt(duel.feeBps));
    const floor = BigInt(estimate.minSharesOut);
    // A resumed request's first execution may have made this very buy, which moved the pool and
    // spent the stake: checked again, it would be refused by its own effect instead of finding its
    // write by name. The chain still enforces the floor (minSharesOut) and the pipeline the funds.
    if (!ctx.resumed && live.sharesOut < floor) {
      throw new DomainError('SLIPPAGE_EXCEEDED', 'Slippage exceeded: the price moved past your limit', {
        details: { liveSharesOut: live.sharesOut.toString(), minSharesOut: floor.toString() },
      });
    }
    if (!ctx.resumed && available < amount) {
      throw new DomainError('INSUFFICIENT_CREDITS', 'Insufficient Credits: the managed wallet cannot cover the stake', {
        details: { required: amount.toString(), available: available.toString() },
      });
    }
    const signer = await this.deps.signers.forUser(trader.userId);
    const answer = (txHash: `0x${string}`) => ({
      success: true as const,
      txHash,
      duelId: duel.duelId,
      optionIndex: estimate.optionIndex,
      betAmount: amount.toString(),
      expectedSharesOut: live.sharesOut.toString(),
      minSharesOut: floor.toString(),
      chainState: 'pending' as const,
    });
    const txHash = await this.deps.trading.buy(
      signer,
      duel.duelId as `0x${string}`,
      estimate.optionIndex,
      amount,
      floor,
      {
        write: ctx.writeKey('buy'),
        result: answer,
      },
    );
    return answer(txHash);
  }

  /** Sells shares from a signed estimate, signed by the caller's managed wallet. */
  async sell(
    ctx: OperationContext,
    trader: Trader,
    input: { estimate: SellEstimate; duelId: string; optionIndex: number; shares: string; slippageBps: number },
  ) {
    const { estimate } = input;
    this.deps.quoter.verify(estimate, trader.address);
    const mismatch: Record<string, string[]> = {};
    if (estimate.duelId.toLowerCase() !== input.duelId.toLowerCase())
      mismatch['body.duelId'] = ['differs from the estimate'];
    if (estimate.optionIndex !== input.optionIndex) mismatch['body.optionIndex'] = ['differs from the estimate'];
    if (input.shares !== estimate.shares) mismatch['body.shares'] = ['differs from estimate.shares'];
    if (input.slippageBps !== estimate.slippageBps) mismatch['body.slippageBps'] = ['differs from the estimate'];
    if (Object.keys(mismatch).length) {
      throw new DomainError('QUOTE_INVALID', 'The request does not match its estimate', { fieldErrors: mismatch });
    }
    const duel = await this.tradableDuelOrThrow(estimate.duelId, estimate.optionIndex, trader);
    const balances = await this.balances(duel);
    const shares = BigInt(estimate.shares);
    const held = await this.deps.trading.sharesOf(
      duel.duelId as `0x${string}`,
      getAddress(trader.address),
      estimate.optionIndex,
    );
    if (held < shares) {
      throw new DomainError('INSUFFICIENT_SHARES', 'Not enough shares to sell', {
        details: { held: held.toString(), requested: shares.toString() },
      });
    }
    const liveReturn = maxReturnForShares(balances, estimate.optionIndex, shares, BigInt(duel.feeBps));
    const floor = BigInt(estimate.minAmountOut);
    if (liveReturn < floor || liveReturn === 0n) {
      throw new DomainError('SLIPPAGE_EXCEEDED', 'Slippage exceeded: the price moved past your limit', {
        details: { liveAmountOut: liveReturn.toString(), minAmountOut: floor.toString() },
      });
    }
    const signer = await this.deps.signers.forUser(trader.userId);
    const answer = (txHash: `0x${string}`) => ({
      success: true as const,
      txHash,
      duelId: duel.duelId,
      optionIndex: estimate.optionIndex,
      expectedAmountOut: liveReturn.toString(),
      maxSharesIn: shares.toString(),
      chainState: 'pending' as const,
    });
    const txHash = await this.deps.trading.sellForReturn(
      signer,
      duel.duelId as `0x${string}`,
      estimate.optionIndex,
      liveReturn,
      shares,
      { write: ctx.writeKey('sell'), result: answer },
    );
    return answer(txHash);
  }

  async userShares(caller: string | undefined, duelId: string, address: string) {
    const duel = await this.deps.duels.require(duelId);
    await this.deps.access.assertCanView(duel, caller);
    const holder = getAddress(address);
    const positions = await this.deps.repo.positionsOf(duel.duelId, holder);
    const balances = duel.poolBalances.map((b) => BigInt(b));
    const sellable = duel.status === 'open' && balances.length > 1 && balances.every((b) => b > 0n);
    return {
      duelId: duel.duelId,
      address: holder,
      shares: duel.options.map((label, optionIndex) => {
        const p = positions.find((x) => x.optionIndex === optionIndex);
        const shares = BigInt(p?.shares ?? '0');
        return {
          optionIndex,
          label,
          shares: shares.toString(),
          costBasis: p?.costBasis ?? '0',
          sellValue: (sellable
            ? maxReturnForShares(balances, optionIndex, shares, BigInt(duel.feeBps))
            : 0n
          ).toString(),
        };
      }),
    };
  }

  async userBetLimit(address: string) {
    const holder = getAddress(address);
    const used = await this.deps.repo.openExposure(holder);
    const limit = this.deps.settings.userBetLimit;
    return {
      address: holder,
      limit: limit === 0n ? null : limit.toString(),
      used: used.toString(),
      remaining: limit === 0n ? null : (limit > used ? limit - used : 0n).toString(),
    };
  }

  /**
   * Per option, the most collateral a sale can release now. The pool pays `returnPlusFees` out of
   * every other option's balance and must keep each above zero, so the cap is
   * floor((min other balance − 1) × (10000 − fee) / 10000): the pool stays solvent whatever sells.
   */
  async sellUnlockLiquidity(caller: string | undefined, duelId: string) {
    const duel = await this.deps.duels.require(duelId);
    await this.deps.access.assertCanView(duel, caller);
    const balances = duel.poolBalances.map((b) => BigInt(b));
    const fee = BigInt(duel.feeBps);
    const sellable =
      duel.status === 'open' &&
      duel.chainState === 'confirmed' &&
      new Date(duel.endTime).getTime() > this.deps.clock.now();
    return {
      duelId: duel.duelId,
      status: duel.status,
      sellable,
      options: duel.options.map((label, optionIndex) => {
        const others = balances.filter((_, j) => j !== optionIndex);
        const min = others.length ? others.reduce((m, b) => (b < m ? b : m)) : 0n;
        const maxReturn = sellable && min > 1n ? ((min - 1n) * (BPS - fee)) / BPS : 0n;
        return {
          optionIndex,
          label,
          poolBalance: (balances[optionIndex] ?? 0n).toString(),
          maxReturn: maxReturn.toString(),
        };
      }),
    };
  }

  // ---- guards ----

  private async rejections<T>(fn: () => Promise<T>): Promise<T | Rejection> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof Rejected) return err.rejection;
      throw err;
    }
  }

  /** The duel and its live pool, or a rejection when it does not trade now. */
  private async tradable(duelId: string, option: number, caller: string | undefined, trader?: Trader) {
    const duel = await this.tradableDuel(duelId, option, caller, trader);
    return { duel, balances: await this.balances(duel) };
  }

  /** The duel, or a rejection when it does not trade now. */
  private async tradableDuel(duelId: string, option: number, caller: string | undefined, trader?: Trader) {
    const duel = await this.deps.duels.requireForTrading(duelId);
    await this.deps.access.assertCanView(duel, caller);
    if (trader) assertCollateralAllowed(trader.region, duel.collateralStack);
    this.assertOption(duel, option);
    const why = this.notTradable(duel);
    if (why) reject('MARKET_NOT_TRADABLE', why, { status: duel.status, chainState: duel.chainState });
    return duel;
  }

  /** Like `tradableDuel`, but a 4xx error: placing a trade is not a quote. */
  private async tradableDuelOrThrow(duelId: string, option: number, trader: Trader) {
    try {
      return await this.tradableDuel(duelId, option, trader.address, trader);
    } catch (err) {
      if (err instanceof Rejected) {
        throw new DomainError(err.rejection.code, err.rejection.message, { details: err.rejection.details ?? {} });
      }
      throw err;
    }
  }

  private notTradable(duel: Duel): string | undefined {
    if (duel.chainState !== 'confirmed') return 'The market is not confirmed on chain yet';
    if (duel.status !== 'open') return `The market is ${duel.status}`;
    if (new Date(duel.endTime).getTime() <= this.deps.clock.now()) return 'The market has ended';
    return undefined;
  }

  private assertOption(duel: Duel, option: number): void {
    if (option >= duel.options.length) {
      throw new DomainError('VALIDATION_FAILED', `This market has ${duel.options.length} options`, {
        fieldErrors: { 'body.optionIndex': [`must be below ${duel.options.length}`] },
      });
    }
  }

  private assertMinimum(amount: bigint): void {
    if (amount < MIN_STAKE) {
      reject('BET_BELOW_MINIMUM', 'The stake is below the 5-unit minimum per option', {
        minimum: MIN_STAKE.toString(),
      });
    }
  }

  private async assertWithinLimit(address: string, amount: bigint): Promise<void> {
    const limit = this.deps.settings.userBetLimit;
    if (limit === 0n) return;
    const used = await this.deps.repo.openExposure(getAddress(address));
    if (used + amount > limit) {
      reject('BET_LIMIT_EXCEEDED', 'This bet would exceed your exposure limit', {
        limit: limit.toString(),
        remaining: (limit > used ? limit - used : 0n).toString(),
      });
    }
  }

  private async assertWithinLimitOrThrow(address: string, amount: bigint): Promise<void> {
    try {
      await this.assertWithinLimit(address, amount);
    } catch (err) {
      if (err instanceof Rejected) {
        throw new DomainError('BET_LIMIT_EXCEEDED', err.rejection.message, { details: err.rejection.details ?? {} });
      }
      throw err;
    }
  }

  private async assertHolds(duel: Duel, address: string, option: number, shares: bigint): Promise<void> {
    const held = await this.deps.trading.sharesOf(duel.duelId as `0x${string}`, getAddress(address), option);
    if (held < shares) {
      reject('INSUFFICIENT_SHARES', 'Not enough shares to sell', {
        held: held.toString(),
        requested: shares.toString(),
      });
    }
  }

  /** The live pool on chain: estimates must price exactly what the contract will compute. */
  private async balances(duel: Duel): Promise<bigint[]> {
    if (duel.chainState !== 'confirmed') return duel.options.map(() => 0n);
    return this.deps.trading.poolBalances(duel.duelId as `0x${string}`);
  }
}
