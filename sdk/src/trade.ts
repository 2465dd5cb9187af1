import type { BetsCreateOutput, BuyEstimate, Duel } from './api.generated.js';
import { DuelkitError, nameErrorClass, TimeoutError } from './core/errors.js';
import type { RequestOptions } from './core/types.js';
import { DECIMALS, toBaseUnits } from './core/units.js';
import type { BetsNamespace, DuelsNamespace } from './namespaces.generated.js';
import { newIdempotencyKey } from './internal/idempotency.js';
import { sleep } from './internal/signals.js';

/** The stake: whole units as a decimal string, or base units as a bigint; exactly one. */
export type Stake =
  | {
      /** Whole units of the market's collateral as a decimal string: `'12.5'` (at most 18 decimals). */
      amount: string;
      amountBaseUnits?: never;
    }
  | {
      /** Base units (18 decimals) as a bigint: `12_500_000_000_000_000_000n`, or `toBaseUnits('12.5')`. */
      amountBaseUnits: bigint;
      amount?: never;
    };

export type BuyInput = Stake & {
  /** The market's `duelId` (0x + 64 hex). */
  duelId: string;
  /** The option bought: its 0-based index, or its label (`'YES'`, a team's name), compared case-insensitively. */
  option: number | string;
  /** The most the price may move against you between quote and fill, in basis points (100 = 1 %). Default 100. */
  maxSlippageBps?: number;
};

/** How long and how often {@link BuyResult.wait} reads the position. */
export interface WaitOptions {
  /** Stops waiting with `AbortError`. */
  signal?: AbortSignal;
  /** Give up after this long with `TimeoutError` (default 60 s). */
  timeoutMs?: number;
  /** Time between reads (default 1 s). */
  intervalMs?: number;
}

/** A position in one option of a market, as `bets.userShares` reads it (base-unit strings). */
export interface Position {
  optionIndex: number;
  label: string;
  shares: string;
  costBasis: string;
  sellValue: string;
}

export interface BuyResult {
  /** The accepted bet: its transaction hash and the shares it should buy. Accepted, not final. */
  bet: BetsCreateOutput;
  /** The signed quote the bet was placed from. */
  estimate: BuyEstimate;
  optionIndex: number;
  /** The account's managed wallet, which paid and holds the shares (not the wallet that signs in). */
  managedAddress: string;
  /** The key sent with the quote and the bet: sending the bet again with it never places a second one. */
  idempotencyKey: string;
  /**
   * Reads the position until the chain and the indexer have the bet: resolves with the option's
   * position once it holds at least `bet.minSharesOut` more shares than before the bet. A plain
   * function: `const { wait } = await client.trade.buy(…)` works.
   */
  readonly wait: (options?: WaitOptions) => Promise<Position>;
}

/** The service declined to quote (`bets.estimateBuy` answered `success: false`): nothing was placed. */
export class QuoteRejectedError extends DuelkitError {
  /** `BET_BELOW_MINIMUM`, `MARKET_NOT_TRADABLE`, `BET_LIMIT_EXCEEDED`, `POOL_TOO_SMALL`, … */
  readonly code: string;
  readonly details: Record<string, string> | undefined;

  constructor(code: string, message: string, details: Record<string, string> | undefined, idempotencyKey: string) {
    super(`${code}: ${message}`, { idempotencyKey });
    this.code = code;
    this.details = details;
  }
}
nameErrorClass(QuoteRejectedError, 'QuoteRejectedError');

/** Task-level helpers: one call for what takes several routes. */
export interface TradeNamespace {
  /**
   * Buys shares of one option: reads the market, quotes the stake (`bets.estimateBuy`), places the
   * bet from that quote (`bets.create`) with one Idempotency-Key, and answers the accepted bet with
   * a `wait()` for the position. Needs a signed-in user whose managed wallet holds the stake.
   *
   * @throws QuoteRejectedError when the service will not quote (below the minimum, market closed, …)
   * @throws ApiError as every method does (`INSUFFICIENT_CREDITS`, `SLIPPAGE_EXCEEDED`, …)
   *
   * @example
   * const { bet, wait } = await client.trade.buy({ duelId, option: 'YES', amount: '12.5' });
   * const position = await wait({ timeoutMs: 60_000 });
   */
  buy(input: BuyInput, options?: RequestOptions): Promise<BuyResult>;
}

interface Routes {
  duels: Pick<DuelsNamespace, 'getById'>;
  bets: Pick<BetsNamespace, 'estimateBuy' | 'create' | 'userShares'>;
}

const DUEL_TYPES = ['PREDICTION', 'VERSUS'] as const;

function stakeOf(input: Stake): bigint {
  if (input.amount !== undefined && input.amountBaseUnits !== undefined) {
    throw new TypeError('Pass either `amount` (whole units) or `amountBaseUnits`, not both');
  }
  if (input.amount !== undefined) return toBaseUnits(input.amount);
  if (typeof input.amountBaseUnits === 'bigint' && input.amountBaseUnits > 0n) return input.amountBaseUnits;
  throw new TypeError('Pass a positive `amount` (whole units, e.g. "12.5") or `amountBaseUnits` (a bigint)');
}

function optionIndexOf(duel: Duel, option: number | string): number {
  if (typeof option === 'number') {
    if (Number.isInteger(option) && option >= 0 && option < duel.options.length) return option;
  } else {
    const index = duel.options.findIndex((label) => label.toLowerCase() === option.trim().toLowerCase());
    if (index >= 0) return index;
  }
  throw new TypeError(`Market ${duel.duelId} has no option ${JSON.stringify(option)}: ${duel.options.join(', ')}`);
}

async function positionOf(routes: Routes, duelId: string, address: string, optionIndex: number, signal?: AbortSignal) {
  const read = await routes.bets.userShares({ params: { duelId, address } }, signal ? { signal } : {});
  return read.shares.find((s) => s.optionIndex === optionIndex);
}

export function createTrade(routes: Routes): TradeNamespace {
  return {
    async buy(input, options = {}) {
      const stake = stakeOf(input);
      const slippageBps = input.maxSlippageBps ?? 100;
      const idempotencyKey = options.idempotencyKey ?? newIdempotencyKey();
      const once = { ...options, idempotencyKey };
      const { duelId } = input;
      const duel = await routes.duels.getById({ params: { duelId }, query: {} }, options);
      const optionIndex = optionIndexOf(duel, input.option);
      const duelType = DUEL_TYPES.find((t) => t === duel.duelType);
      if (!duelType) throw new DuelkitError(`Market ${duelId} is of a type this SDK cannot trade: ${duel.duelType}`);

      const quote = await routes.bets.estimateBuy(
        { body: { duelId, optionIndex, betAmountUsdc: stake.toString(), slippageBps } },
        once,
      );
      if (!quote.success) throw new QuoteRejectedError(quote.code, quote.message, quote.details, idempotencyKey);
      const { estimate } = quote;
      const managedAddress = estimate.trader;
      if (!managedAddress) throw new DuelkitError('The quote names no trader: sign in before trading');
      const before = BigInt(
        (await positionOf(routes, duelId, managedAddress, optionIndex, options.signal))?.shares ?? 0,
      );

      const bet = await routes.bets.create(
        {
          body: {
            estimate,
            duelId,
            duelType,
            bet: duel.options[optionIndex]!,
            optionIndex,
            betAmount: estimate.amountIn,
            betAmountUsdc: estimate.amountIn,
            slippageBps,
            tokenDecimals: DECIMALS,
          },
        },
        once,
      );
      const target = before + BigInt(bet.minSharesOut);

      const wait = async ({ signal, timeoutMs = 60_000, intervalMs = 1_000 }: WaitOptions = {}): Promise<Position> => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const position = await positionOf(routes, duelId, managedAddress, optionIndex, signal);
          if (position && BigInt(position.shares) >= target) return position;
          const left = deadline - Date.now();
          if (left <= 0) {
            throw new TimeoutError(
              `Bet ${bet.txHash} was not indexed within ${timeoutMs} ms: read bets.userShares later, it may still land`,
              { idempotencyKey },
            );
          }
          await sleep(Math.min(intervalMs, left), signal);
        }
      };
      return { bet, estimate, optionIndex, managedAddress, idempotencyKey, wait };
    },
  };
}
