import { getAddress } from 'viem';
import { DomainError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { BPS } from '../parlay/parlay-pricing.math.js';
import type { ParlayRepository } from '../parlay/parlay.repository.js';
import type { ParlayTicketsRepository } from '../parlay/parlay-tickets.repository.js';
import type { ParlaySettings } from '../parlay/parlay.types.js';
import {
  PRICE_SCALE,
  assetsForRedeem,
  netAssetValue,
  sharePrice,
  sharesForDeposit,
  type PoolState,
} from './lp.math.js';

const DAY_MS = 86_400_000;
/** APY's trailing window. */
export const APY_WINDOW_DAYS = 30;

export type PoolStore = Pick<
  ParlayRepository,
  'liveExposure' | 'liveExposureByGame' | 'liveTotals' | 'cash' | 'totalShares' | 'position' | 'resultsBetween'
>;

export interface LpDeps {
  readonly store: PoolStore;
  /**
   * Net stakes of open tickets: the pool's cash on chain holds them, the ledger's movements do not
   * until the ticket settles (its realised result). Absent: no tickets.
   */
  readonly tickets?: Pick<ParlayTicketsRepository, 'openNetStake'>;
  readonly clock: Clock;
  readonly settings: ParlaySettings;
}

/** A 1e18-scaled price as a decimal string ("1.000000000000000000"). */
function formatPrice(p: bigint): string {
  return `${p / PRICE_SCALE}.${(p % PRICE_SCALE).toString().padStart(18, '0')}`;
}

/**
 * The liquidity pool as LPs and risk see it: cash, the exposure live quotes and tickets hold, NAV
 * and the share price; positions; and quotes for adding and removing liquidity at that price
 * (docs/liquidity-pool.md).
 */
export class LpService {
  constructor(private readonly deps: LpDeps) {}

  async pool() {
    const now = new Date(this.deps.clock.now());
    const [ledger, openNet, totalShares, live] = await Promise.all([
      this.deps.store.cash(),
      this.openNetStake(),
      this.deps.store.totalShares(),
      this.deps.store.liveTotals(now),
    ]);
    const cash = ledger + openNet;
    const nav = netAssetValue(cash, live.expectedLiability);
    // The ledger's cash less everything held: what open tickets' payouts and live quotes leave.
    const free = ledger > live.exposure ? ledger - live.exposure : 0n;
    return {
      asset: 'credits' as const,
      decimals: 18,
      cash: cash.toString(),
      expectedLiability: live.expectedLiability.toString(),
      nav: nav.toString(),
      totalShares: totalShares.toString(),
      sharePrice: formatPrice(sharePrice({ nav, totalShares })),
      lockedExposure: live.exposure.toString(),
      freeLiquidity: free.toString(),
      maxTicketPayout: ((free * BigInt(this.deps.settings.poolPayoutShareBps)) / BPS).toString(),
      liveQuotes: live.quotes,
      openTickets: live.tickets,
      lockupSeconds: this.deps.settings.lpLockupSeconds,
      asOf: now.toISOString(),
    };
  }

  /** Realised results over the trailing window against today's NAV, annualised (simple, not compounded). */
  async apy() {
    const now = this.deps.clock.now();
    const from = new Date(now - APY_WINDOW_DAYS * DAY_MS);
    const [results, state] = await Promise.all([
      this.deps.store.resultsBetween(from, new Date(now)),
      this.state(new Date(now)),
    ]);
    const apyBps = state.nav === 0n ? 0n : (results * BPS * 365n) / (state.nav * BigInt(APY_WINDOW_DAYS));
    return {
      windowDays: APY_WINDOW_DAYS,
      from: from.toISOString(),
      to: new Date(now).toISOString(),
      realisedResult: results.toString(),
      nav: state.nav.toString(),
      apyBps: apyBps.toString(),
    };
  }

  async exposureBreakdown() {
    const now = new Date(this.deps.clock.now());
    const [rows, games, totals] = await Promise.all([
      this.deps.store.liveExposure(now),
      this.deps.store.liveExposureByGame(now),
      this.deps.store.liveTotals(now),
    ]);
    const s = this.deps.settings;
    return {
      total: totals.exposure.toString(),
      byOutcome: this.byOutcome(rows),
      byGame: games.map((g) => ({
        marketId: String(g.fixtureId),
        exposure: g.exposure.toString(),
        cap: s.capPerGame.toString(),
      })),
    };
  }

  async bettorExposure(address: string) {
    const bettor = getAddress(address);
    const now = new Date(this.deps.clock.now());
    const [rows, totals] = await Promise.all([
      this.deps.store.liveExposure(now, bettor),
      this.deps.store.liveTotals(now, bettor),
    ]);
    return {
      address: bettor,
      total: totals.exposure.toString(),
      liveQuotes: totals.quotes,
      openTickets: totals.tickets,
      byOutcome: this.byOutcome(rows),
    };
  }

  async position(address: string) {
    const account = getAddress(address);
    const now = new Date(this.deps.clock.now());
    const [p, state] = await Promise.all([this.deps.store.position(account), this.state(now)]);
    const value = assetsForRedeem(state, p.shares);
    const lockedUntil = this.lockedUntil(p.lastDepositAt);
    return {
      address: account,
      shares: p.shares.toString(),
      value: value.toString(),
      deposited: p.deposited.toString(),
      withdrawn: p.withdrawn.toString(),
      pnl: (value + p.withdrawn - p.deposited).toString(),
      sharePrice: formatPrice(sharePrice(state)),
      lockedUntil: lockedUntil && lockedUntil > now ? lockedUntil.toISOString() : null,
    };
  }

  async addLiquidityQuote(amount: string) {
    const assets = BigInt(amount);
    if (assets <= 0n) throw positive('amount');
    const now = new Date(this.deps.clock.now());
    const state = await this.state(now);
    const shares = sharesForDeposit(state, assets);
    if (shares === 0n) {
      throw new DomainError('VALIDATION_FAILED', 'The amount buys no share at the current price', {
        fieldErrors: { amount: ['too small for one share'] },
      });
    }
    return {
      amount: assets.toString(),
      shares: shares.toString(),
      sharePrice: formatPrice(sharePrice(state)),
      nav: state.nav.toString(),
      totalShares: state.totalShares.toString(),
      lockupSeconds: this.deps.settings.lpLockupSeconds,
      lockedUntil: new Date(now.getTime() + this.deps.settings.lpLockupSeconds * 1000).toISOString(),
    };
  }

  /** What redeeming `shares` of the caller's position pays now; refused while locked or beyond free liquidity. */
  async removeLiquidityQuote(address: string, sharesIn: string) {
    const shares = BigInt(sharesIn);
    if (shares <= 0n) throw positive('shares');
    const account = getAddress(address);
    const now = new Date(this.deps.clock.now());
    const [p, state, cash, live] = await Promise.all([
      this.deps.store.position(account),
      this.state(now),
      this.deps.store.cash(),
      this.deps.store.liveTotals(now),
    ]);
    if (shares > p.shares) {
      throw new DomainError('INSUFFICIENT_SHARES', 'More shares than the position holds', {
        details: { held: p.shares.toString(), requested: shares.toString() },
      });
    }
    const lockedUntil = this.lockedUntil(p.lastDepositAt);
    if (lockedUntil && lockedUntil > now) {
      throw new DomainError('LIQUIDITY_LOCKED', 'The position is still in its lockup', {
        details: { reason: 'lockup', until: lockedUntil.toISOString() },
      });
    }
    const amountOut = assetsForRedeem(state, shares);
    const free = cash > live.exposure ? cash - live.exposure : 0n;
    if (amountOut > free) {
      throw new DomainError(
        'LIQUIDITY_LOCKED',
        'Live tickets and quotes hold that liquidity; try a smaller amount or later',
        {
          details: { reason: 'exposure', free: free.toString(), requested: amountOut.toString() },
        },
      );
    }
    return {
      address: account,
      shares: shares.toString(),
      amountOut: amountOut.toString(),
      sharePrice: formatPrice(sharePrice(state)),
      nav: state.nav.toString(),
      totalShares: state.totalShares.toString(),
    };
  }

  private async state(now: Date): Promise<PoolState> {
    const [ledger, openNet, totalShares, live] = await Promise.all([
      this.deps.store.cash(),
      this.openNetStake(),
      this.deps.store.totalShares(),
      this.deps.store.liveTotals(now),
    ]);
    return { nav: netAssetValue(ledger + openNet, live.expectedLiability), totalShares };
  }

  private openNetStake(): Promise<bigint> {
    return this.deps.tickets ? this.deps.tickets.openNetStake() : Promise.resolve(0n);
  }

  private lockedUntil(lastDepositAt: Date | null): Date | null {
    return lastDepositAt ? new Date(lastDepositAt.getTime() + this.deps.settings.lpLockupSeconds * 1000) : null;
  }

  private byOutcome(rows: Awaited<ReturnType<PoolStore['liveExposure']>>) {
    return rows.map((r) => ({
      conditionId: r.conditionId,
      outcomeId: r.outcomeId,
      marketId: String(r.fixtureId),
      exposure: r.exposure.toString(),
      cap: this.deps.settings.capPerOutcome.toString(),
    }));
  }
}

function positive(field: string): DomainError {
  return new DomainError('VALIDATION_FAILED', `${field} must be positive`, {
    fieldErrors: { [field]: ['must be > 0'] },
  });
}
