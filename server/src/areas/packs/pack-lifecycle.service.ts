import type { PackStatus } from '@duelkit/contract';
import { getAddress, type Address, type Hash, type Hex } from 'viem';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import { DomainError, isDomainError } from '../../errors.js';
import type { OperationContext, WriteKey } from '../../platform/operation-context.js';
import type { Clock } from '../../platform/clock.js';
import type { DistributionBook } from '../../platform/merkle/distribution-book.js';
import { buildDistribution } from '../../platform/merkle/merkle-tree.js';
import type { Logger } from '../../logger.js';
import { canTransition } from '../markets/duel-state.js';
import type { AdminActor } from '../settlement/market-admin.service.js';
import type { PackEntryService } from './pack-entry.service.js';
import { iso, marketStatus, toPackMarketDto } from './pack.mapper.js';
import type { PackRepository, PackView } from './pack.repository.js';
import type { PackService } from './pack.service.js';
import { splitPrizes } from './pack-scoring.js';
import type { PackStandings } from './pack-standings.js';
import type { PackDto, ResolveMarketDto, SettlementDto, StandingDto, VoidMarketDto } from './pack.types.js';

/** The settlement services a pack's markets are decided through. */
export interface MarketDecisions {
  resolveAsAdmin(duelId: string, winningOptionIndex: number, write: WriteKey): Promise<{ txHash: Hash }>;
  discard(
    ctx: OperationContext,
    admin: AdminActor,
    duelIds: readonly string[],
    reason: string,
  ): Promise<{ results: ({ success: true; txHash: Hash } | { success: false; code: string; message: string })[] }>;
}

const LIVE: readonly PackStatus[] = ['published', 'locked', 'resolving'];
const DECIDING: readonly PackStatus[] = ['locked', 'resolving'];
const CANCELLABLE: readonly PackStatus[] = ['draft', 'published', 'locked', 'resolving'];

/**
 * A pack from lock to settlement or cancellation (docs/packs.md): markets are resolved or voided
 * through the settlement services, the entrants ranked, the prize pool split and the payout (or
 * refund) table recorded in the shared Merkle distribution book.
 */
export class PackLifecycleService {
  constructor(
    private readonly repo: PackRepository,
    private readonly packs: PackService,
    private readonly entries: PackEntryService,
    private readonly standings: PackStandings,
    private readonly decisions: MarketDecisions,
    private readonly book: DistributionBook,
    private readonly vault: PrizeVaultPort,
    private readonly treasury: Address,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async lock(packId: string): Promise<PackDto> {
    const pack = await this.packs.require(packId);
    this.packs.assertStatus(pack, ['published'], 'be locked');
    if (!(await this.repo.transition(pack.id, ['published'], 'locked'))) {
      throw this.packs.stateError(await this.packs.require(pack.id), ['published'], 'be locked');
    }
    return this.packs.get(pack.id, undefined, { includeDrafts: true });
  }

  /** Resolves a market of a locked pack: its duel is resolved on chain by the platform. */
  async resolveMarket(
    ctx: OperationContext,
    packId: string,
    marketId: string,
    winningOptionIndex: number,
  ): Promise<ResolveMarketDto> {
    const pack = await this.packs.require(packId);
    this.packs.assertStatus(pack, DECIDING, 'have its markets resolved (lock it first)');
    const market = await this.packs.market(pack.id, marketId);
    if (marketStatus(market, this.clock.now()) === 'voided') {
      throw new DomainError('INVALID_STATE', `Market ${market.duel.duelId} was voided in this pack`, {
        details: { packId: pack.id, marketId: market.duel.duelId, status: 'voided' },
      });
    }
    const { txHash } = await this.decisions.resolveAsAdmin(
      market.duel.duelId,
      winningOptionIndex,
      ctx.writeKey('resolve'),
    );
    await this.repo.setResolveTx(pack.id, market.duel.duelId, txHash);
    await this.repo.transition(pack.id, ['locked'], 'resolving');
    const after = await this.packs.market(pack.id, marketId);
    return { packId: pack.id, market: toPackMarketDto(after, this.clock.now()), txHash, chainState: 'pending' };
  }

  /**
   * Voids a market for the pack (it scores neutral) and cancels the market itself when it still
   * can be, through the admin cancel path (its traders are refunded). A repeat answers the same.
   */
  async voidMarket(
    ctx: OperationContext,
    admin: AdminActor,
    packId: string,
    marketId: string,
    reason: string,
  ): Promise<VoidMarketDto> {
    const pack = await this.packs.require(packId);
    this.packs.assertStatus(pack, LIVE, 'have its markets voided');
    const market = await this.packs.market(pack.id, marketId);
    const duelId = market.duel.duelId;
    if (await this.repo.voidMarket(pack.id, duelId, reason)) {
      if (canTransition(market.duel, 'cancel', 'admin', this.clock.now())) {
        const [result] = (await this.decisions.discard(ctx, admin, [duelId], `pack ${pack.id}: ${reason}`)).results;
        if (result?.success) await this.repo.setVoidTx(pack.id, duelId, result.txHash);
        else this.logger.warn({ packId, duelId, result }, 'voided pack market could not be cancelled itself');
      }
      await this.repo.transition(pack.id, ['locked'], 'resolving');
    }
    const after = await this.packs.market(pack.id, marketId);
    return {
      packId: pack.id,
      market: toPackMarketDto(after, this.clock.now()),
      cancelTxHash: after.row.voidTxHash ?? null,
    };
  }

  /** What settle would write now; `ready: false` with the blockers when it would refuse. */
  async preview(packId: string): Promise<SettlementDto> {
    const pack = await this.packs.require(packId);
    if (pack.status === 'settled' || pack.status === 'claimed') return this.stored(pack);
    await this.entries.verifyPending(pack.id);
    return this.compute(await this.packs.require(pack.id));
  }

  /**
   * Ranks the entrants, splits the prize pool, records the payout table once in the distribution
   * book and the standings in one transaction, then releases the fee. A settled pack answers its
   * stored settlement (and completes a fee release that did not go out).
   */
  async settle(packId: string): Promise<SettlementDto> {
    const pack = await this.packs.require(packId);
    if (pack.status !== 'settled' && pack.status !== 'claimed') {
      await this.entries.verifyPending(pack.id);
      const fresh = await this.packs.require(pack.id);
      const plan = await this.compute(fresh);
      if (!plan.ready) {
        throw new DomainError('INVALID_STATE', `Pack ${pack.id} cannot be settled yet: ${plan.blockers.join('; ')}`, {
          details: { packId: pack.id, status: fresh.status, blockers: plan.blockers },
        });
      }
      const payouts = plan.standings.filter((s) => BigInt(s.payout ?? '0') > 0n);
      if (payouts.length) {
        await this.book.record(
          fresh.poolId as Hex,
          'payout',
          fresh.collateral,
          payouts.map((s) => ({ account: getAddress(s.userAddress), amount: BigInt(s.payout ?? '0') })),
        );
      }
      const entryIds = new Map((await this.repo.confirmedEntries(pack.id)).map((e) => [e.account.toLowerCase(), e.id]));
      await this.repo.writeSettlement(pack.id, DECIDING, {
        poolTotal: BigInt(plan.pool),
        feeAmount: BigInt(plan.fee),
        payoutRoot: plan.root,
        standings: plan.standings.map((s) => ({
          entryId: entryIds.get(s.userAddress.toLowerCase()) as string,
          points: s.points,
          correctPicks: s.correctPicks,
          rank: s.rank,
          payout: BigInt(s.payout ?? '0'),
        })),
      });
    }
    const settled = await this.packs.require(pack.id);
    if (settled.status !== 'settled' && settled.status !== 'claimed') {
      throw this.packs.stateError(settled, DECIDING, 'be settled');
    }
    await this.releaseFee(settled);
    return this.stored(await this.packs.require(pack.id));
  }

  /** Cancels a pack before settlement; its refund table is built as soon as every deposit is verified. */
  async cancel(packId: string, reason: string): Promise<PackDto> {
    const pack = await this.packs.require(packId);
    this.packs.assertStatus(pack, CANCELLABLE, 'be cancelled');
    if (!(await this.repo.transition(pack.id, CANCELLABLE, 'cancelled', { cancelReason: reason }))) {
      throw this.packs.stateError(await this.packs.require(pack.id), CANCELLABLE, 'be cancelled');
    }
    await this.refundTable(await this.packs.require(pack.id)).catch((err: unknown) => {
      if (!isDomainError(err)) throw err;
    });
    return this.packs.get(pack.id, undefined, { includeDrafts: true });
  }

  /**
   * The refund table of a cancelled pack (every confirmed entry gets its fee back), recorded once
   * every entry deposit is verified; null when nobody entered.
   */
  async refundTable(pack: PackView) {
    if (pack.status !== 'cancelled') throw this.packs.stateError(pack, ['cancelled'], 'be refunded');
    const existing = await this.book.find(pack.poolId as Hex, 'refund');
    if (existing) return existing;
    await this.entries.verifyPending(pack.id);
    const pending = await this.repo.countPending(pack.id);
    if (pending > 0) {
      throw new DomainError('INVALID_STATE', `${pending} entry deposits are not verified yet; retry shortly`, {
        details: { packId: pack.id, status: pack.status, pendingEntries: pending },
        retryAfterMs: 2_000,
      });
    }
    const entries = await this.repo.confirmedEntries(pack.id);
    if (!entries.length) return null;
    return this.book.record(
      pack.poolId as Hex,
      'refund',
      pack.collateral,
      entries.map((e) => ({ account: getAddress(e.account), amount: BigInt(e.amount) })),
    );
  }

  /** Sends the fee (and rounding dust) of a settled pack to the treasury, once (stable write key). */
  async releaseFee(pack: PackView): Promise<boolean> {
    const amount = BigInt(pack.feeAmount ?? '0');
    if (amount === 0n || pack.feeTxHash) return false;
    try {
      const txHash = await this.vault.release(pack.collateral, pack.poolId as Hex, this.treasury, amount, 'pack-fee', {
        key: `packs:fee:${pack.id}`,
      });
      await this.repo.setFeeTx(pack.id, txHash);
      return true;
    } catch (err) {
      // The repeating tick sends it again under the same key.
      this.logger.warn({ packId: pack.id, err }, 'pack fee release failed; the tick retries it');
      return false;
    }
  }

  private async compute(pack: PackView): Promise<SettlementDto> {
    const now = this.clock.now();
    const { markets, ranked } = await this.standings.compute(pack);
    const blockers: string[] = [];
    if (!DECIDING.includes(pack.status)) blockers.push(`the pack is ${pack.status}; it settles once locked`);
    const open = markets.filter((m) => !['resolved', 'voided'].includes(marketStatus(m, now)));
    for (const m of open) blockers.push(`market ${m.duel.duelId} is ${marketStatus(m, now)}`);
    const pending = await this.repo.countPending(pack.id);
    if (pending > 0) blockers.push(`${pending} entry deposits are not verified yet`);
    const pool = ranked.reduce((sum, e) => sum + BigInt(e.entry.amount), 0n);
    const split = splitPrizes(ranked, pool, pack.feeBps);
    const payouts = ranked
      .map((e) => ({ account: getAddress(e.account), amount: split.payouts.get(e.account) ?? 0n }))
      .filter((p) => p.amount > 0n);
    return {
      packId: pack.id,
      status: pack.status,
      ready: blockers.length === 0,
      blockers,
      pool: pool.toString(),
      fee: (split.fee + split.dust).toString(),
      prizePool: split.prizePool.toString(),
      entrants: ranked.length,
      markets: markets.map((m) => ({
        marketId: m.duel.duelId,
        status: marketStatus(m, now),
        winningOptionIndex: marketStatus(m, now) === 'resolved' ? m.duel.winningOptionIndex : null,
      })),
      standings: ranked.map((e) => ({
        rank: e.rank,
        userAddress: getAddress(e.account),
        username: e.entry.username,
        points: e.points,
        correctPicks: e.correctPicks,
        picks: e.picks,
        payout: (split.payouts.get(e.account) ?? 0n).toString(),
      })),
      root: payouts.length ? buildDistribution(pack.poolId as Hex, payouts).root : null,
      feeTxHash: null,
      settledAt: null,
    };
  }

  /** The settlement as it was written. */
  private async stored(pack: PackView): Promise<SettlementDto> {
    const now = this.clock.now();
    const [markets, entries, picks] = await Promise.all([
      this.packs.markets(pack.id),
      this.repo.confirmedEntries(pack.id),
      this.repo.allPicks(pack.id),
    ]);
    const standings: StandingDto[] = entries
      .map((e) => ({
        rank: e.rank ?? entries.length,
        userAddress: getAddress(e.account),
        username: e.username,
        points: e.points ?? 0,
        correctPicks: e.correctPicks ?? 0,
        picks: picks.filter((p) => p.userId === e.userId).length,
        payout: e.payout ?? '0',
      }))
      .sort((a, b) => a.rank - b.rank || (a.userAddress.toLowerCase() < b.userAddress.toLowerCase() ? -1 : 1));
    const pool = BigInt(pack.poolTotal ?? '0');
    const fee = BigInt(pack.feeAmount ?? '0');
    return {
      packId: pack.id,
      status: pack.status,
      ready: false,
      blockers: [`the pack is already ${pack.status}`],
      pool: pool.toString(),
      fee: fee.toString(),
      prizePool: (pool - (pool * BigInt(pack.feeBps)) / 10_000n).toString(),
      entrants: entries.length,
      markets: markets.map((m) => ({
        marketId: m.duel.duelId,
        status: marketStatus(m, now),
        winningOptionIndex: marketStatus(m, now) === 'resolved' ? m.duel.winningOptionIndex : null,
      })),
      standings,
      root: pack.payoutRoot ?? null,
      feeTxHash: pack.feeTxHash ?? null,
      settledAt: pack.settledAt ? iso(pack.settledAt) : null,
    };
  }

  /** Whether any market of a locked pack has a result: the pack is then resolving. */
  async hasResults(packId: string): Promise<boolean> {
    const now = this.clock.now();
    return (await this.packs.markets(packId)).some((m) =>
      ['resolved', 'voided', 'resolving'].includes(marketStatus(m, now)),
    );
  }
}
