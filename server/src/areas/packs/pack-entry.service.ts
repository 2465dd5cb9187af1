import { randomUUID } from 'node:crypto';
import { getAddress, type Hash, type LocalAccount } from 'viem';
import type { CollateralKind } from '../../adapters/chain/chain.port.js';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import { DomainError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { OperationContext } from '../../platform/operation-context.js';
import { assertCollateralAllowed, type Region } from '../../platform/geo/region.js';
import type { Logger } from '../../logger.js';
import { duelPrices } from '../markets/duel.mapper.js';
import type { Creator } from '../markets/duel.service.js';
import type { PackEntryRow, PackPickRow } from './pack.entities.js';
import { iso, marketOutcome, marketStatus, toEntryDto, type PackMarketState } from './pack.mapper.js';
import type { PackRepository, PackView } from './pack.repository.js';
import type { PackService } from './pack.service.js';
import { pickPoints, pickResult, pointsIfCorrect } from './pack-scoring.js';
import type { MyPackDto, PackEntryDto, PackPickDto, PickInput, PicksDto, PicksEstimateDto } from './pack.types.js';

export interface WalletFunds {
  collateralBalance(stack: CollateralKind, owner: `0x${string}`): Promise<bigint>;
}

export interface SignerSource {
  forUser(userId: string): Promise<LocalAccount>;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Entries (a deposit of the entry fee into the pack's vault pool, verified on chain) and picks (one
 * option per market, priced when made) of a published pack.
 */
export class PackEntryService {
  constructor(
    private readonly repo: PackRepository,
    private readonly packs: PackService,
    private readonly vault: PrizeVaultPort,
    private readonly funds: WalletFunds,
    private readonly signers: SignerSource,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * Records the entry, then deposits the fee from the user's managed wallet under a write key
   * of the entry and attempt: a retry, a concurrent request or a crash never sends a second
   * deposit. One entry per user and pack (unique in the database). A retry that takes over a dead
   * execution of the same Idempotency-Key after its deposit was recorded answers that entry: the
   * deposit is this request's, not another entry's.
   */
  async enter(
    ctx: OperationContext,
    user: Creator & { readonly region: Region },
    packId: string,
  ): Promise<PackEntryDto> {
    const pack = await this.packs.require(packId);
    assertCollateralAllowed(user.region, pack.collateral);
    this.assertOpen(pack);
    const account = getAddress(user.address);
    let entry = await this.repo.insertEntry({
      id: ctx.scopedId('pack-entry') ?? randomUUID(),
      packId: pack.id,
      userId: user.userId,
      account,
      amount: pack.entryFee,
    });
    let fresh = entry !== null;
    if (!entry) {
      const existing = (await this.repo.entryOf(pack.id, user.userId)) as PackEntryRow;
      if (existing.status === 'failed') {
        entry = await this.repo.retryEntry(existing.id);
        fresh = entry !== null;
      } else if (existing.status === 'pending' && !existing.txHash) {
        // Its deposit was never recorded (a crash, or a request still sending it): resume under
        // the same write key, which the vault sends once.
        entry = existing;
      } else if (ctx.resumed) {
        // This request's first execution recorded its deposit (that is what makes it resumed) and
        // died before answering; the only deposit it makes is this user's entry: answer it.
        return toEntryDto(await this.verify(existing));
      }
      if (!entry) {
        throw new DomainError('ALREADY_ENTERED', 'You already entered this pack', {
          details: { packId: pack.id, entry: toEntryDto(existing) },
        });
      }
    }
    const fee = BigInt(pack.entryFee);
    // A resumed attempt may have paid already: only a fresh one is checked, and only a fresh one
    // is undone when the deposit cannot be sent.
    if (fresh) {
      const available = await this.funds.collateralBalance(pack.collateral, account);
      if (available < fee) {
        await this.repo.abandonAttempt(entry.id, entry.attempt);
        throw new DomainError(
          'INSUFFICIENT_CREDITS',
          'Insufficient Credits: the managed wallet cannot pay the entry fee',
          { details: { required: fee.toString(), available: available.toString(), collateralStack: pack.collateral } },
        );
      }
    }
    let txHash: Hash;
    try {
      const signer = await this.signers.forUser(user.userId);
      txHash = await this.vault.deposit(signer, pack.collateral, pack.poolId as `0x${string}`, 0, fee, {
        key: `packs:enter:${pack.id}:${user.userId}:${entry.attempt}`,
        write: ctx.writeKey('enter'),
        refusal: 'INSUFFICIENT_CREDITS',
      });
    } catch (err) {
      if (fresh) await this.repo.abandonAttempt(entry.id, entry.attempt);
      throw err;
    }
    await this.repo.setEntryTx(entry.id, entry.attempt, txHash);
    const recorded = (await this.repo.entryOf(pack.id, user.userId)) as PackEntryRow;
    return toEntryDto(await this.verify(recorded));
  }

  /**
   * Confirms a pending entry once its deposit is mined and matches: the pack's pool and
   * collateral, the entry fee, sent from the entrant's managed wallet. A reverted or mismatched
   * deposit fails the entry (the user may enter again).
   */
  async verify(entry: PackEntryRow): Promise<PackEntryRow> {
    if (entry.status !== 'pending' || !entry.txHash) return entry;
    const pack = await this.packs.require(entry.packId);
    const receipt = await this.vault.receipt(entry.txHash as Hash);
    if (receipt.status === 'pending') return entry;
    const matches =
      receipt.status === 'success' &&
      receipt.sender !== null &&
      same(receipt.sender, entry.account) &&
      receipt.deposits.some(
        (d) =>
          d.collateral === pack.collateral &&
          same(d.poolId, pack.poolId) &&
          d.amount === BigInt(entry.amount) &&
          same(d.from, entry.account),
      );
    const reason =
      receipt.status === 'reverted'
        ? 'the deposit transaction reverted'
        : 'the transaction holds no matching deposit (pool, amount, sender)';
    if (!matches) this.logger.warn({ packId: pack.id, txHash: entry.txHash, reason }, 'pack entry deposit refused');
    await this.repo.settleEntry(entry.id, entry.txHash, matches ? { confirmed: true } : { confirmed: false, reason });
    return (await this.repo.entryOf(entry.packId, entry.userId)) as PackEntryRow;
  }

  /** Verifies pending entries (of one pack, or of every pack); counts of confirmed and failed. */
  async verifyPending(packId: string | null, limit = 200): Promise<{ confirmed: number; failed: number }> {
    let confirmed = 0;
    let failed = 0;
    for (const entry of await this.repo.pendingEntries(packId, limit)) {
      const after = await this.verify(entry);
      if (after.status === 'confirmed') confirmed++;
      if (after.status === 'failed') failed++;
    }
    return { confirmed, failed };
  }

  async estimate(packId: string, picks: readonly PickInput[]): Promise<PicksEstimateDto> {
    const pack = await this.packs.require(packId);
    if (pack.status === 'draft') throw this.packs.stateError(pack, ['published'], 'take picks');
    const priced = this.price(await this.packs.markets(pack.id), picks);
    return {
      packId: pack.id,
      pricedAt: new Date(this.clock.now()).toISOString(),
      picks: priced,
      pointsIfAllCorrect: priced.reduce((sum, p) => sum + p.pointsIfCorrect, 0),
    };
  }

  /**
   * Makes or replaces picks. Each pick locks its option's price now; replacing a pick prices it
   * again. Accepted, not final: picks change until lockAt.
   */
  async pick(user: Creator, packId: string, picks: readonly PickInput[]): Promise<PicksDto> {
    const pack = await this.packs.require(packId);
    this.assertOpen(pack);
    let entry = await this.repo.entryOf(pack.id, user.userId);
    if (!entry || entry.status === 'failed') {
      throw new DomainError('NOT_ENTERED', 'Enter the pack before picking', {
        details: { packId: pack.id, entry: entry ? toEntryDto(entry) : null },
      });
    }
    entry = await this.verify(entry);
    if (entry.status !== 'confirmed') {
      throw new DomainError(
        entry.status === 'failed' ? 'NOT_ENTERED' : 'ENTRY_PENDING',
        entry.status === 'failed'
          ? 'Your entry failed: enter again'
          : 'Your entry deposit is not confirmed yet; retry shortly',
        { details: { packId: pack.id, entry: toEntryDto(entry) }, retryAfterMs: 1_000 },
      );
    }
    const markets = await this.packs.markets(pack.id);
    const priced = this.price(markets, picks);
    await this.repo.upsertPicks(
      priced.map((p) => ({
        packId: pack.id,
        userId: user.userId,
        duelId: p.marketId,
        optionIndex: p.optionIndex,
        price: p.price,
        pointsIfCorrect: p.pointsIfCorrect,
      })),
    );
    return {
      packId: pack.id,
      picks: this.describe(markets, await this.repo.picksOf(pack.id, user.userId)),
      final: false,
      changeableUntil: iso(pack.lockAt),
    };
  }

  /** The caller's entry (verified on the way), picks, points and, once decided, rank and payout or refund. */
  async me(user: Creator, packId: string): Promise<MyPackDto> {
    const pack = await this.packs.require(packId);
    let entry = await this.repo.entryOf(pack.id, user.userId);
    if (entry) entry = await this.verify(entry);
    const picks = this.describe(await this.packs.markets(pack.id), await this.repo.picksOf(pack.id, user.userId));
    const settled = pack.status === 'settled' || pack.status === 'claimed';
    const confirmed = entry?.status === 'confirmed';
    return {
      packId: pack.id,
      status: pack.status,
      entry: entry ? toEntryDto(entry) : null,
      picks,
      points: settled && entry?.points != null ? entry.points : picks.reduce((sum, p) => sum + (p.points ?? 0), 0),
      rank: settled && confirmed ? (entry?.rank ?? null) : null,
      payout: settled && confirmed ? (entry?.payout ?? '0') : null,
      refund: pack.status === 'cancelled' && confirmed ? (entry?.amount ?? null) : null,
    };
  }

  /** Picks as the caller sees them, with results and points once their markets are decided. */
  describe(markets: readonly PackMarketState[], picks: readonly PackPickRow[]): PackPickDto[] {
    const now = this.clock.now();
    const out: PackPickDto[] = [];
    for (const m of markets) {
      const p = picks.find((x) => same(x.duelId, m.duel.duelId));
      if (!p) continue;
      const result = pickResult(marketOutcome(m, now), p.optionIndex);
      out.push({
        marketId: m.duel.duelId,
        optionIndex: p.optionIndex,
        optionLabel: m.duel.options[p.optionIndex] ?? String(p.optionIndex),
        price: p.price,
        pointsIfCorrect: p.pointsIfCorrect,
        pickedAt: iso(p.pickedAt),
        result,
        points: pickPoints(result, p.pointsIfCorrect),
      });
    }
    return out;
  }

  /** Prices picks at the markets' current prices (the read model's pool balances). */
  private price(markets: readonly PackMarketState[], picks: readonly PickInput[]) {
    const now = this.clock.now();
    return picks.map((pick, i) => {
      const m = markets.find((x) => same(x.duel.duelId, pick.marketId));
      if (!m) {
        throw new DomainError('VALIDATION_FAILED', `Market ${pick.marketId} is not in this pack`, {
          fieldErrors: { [`body.picks.${i}.marketId`]: ['is not a market of this pack'] },
        });
      }
      if (pick.optionIndex >= m.duel.options.length) {
        throw new DomainError('VALIDATION_FAILED', `Market ${m.duel.duelId} has ${m.duel.options.length} options`, {
          fieldErrors: { [`body.picks.${i}.optionIndex`]: [`must be below ${m.duel.options.length}`] },
        });
      }
      if (marketStatus(m, now) === 'voided') {
        throw new DomainError('INVALID_STATE', `Market ${m.duel.duelId} was voided: it scores nothing`, {
          details: { marketId: m.duel.duelId, status: 'voided' },
        });
      }
      const price = duelPrices(m.duel)[pick.optionIndex] ?? 0n;
      return {
        marketId: m.duel.duelId,
        optionIndex: pick.optionIndex,
        optionLabel: m.duel.options[pick.optionIndex] ?? String(pick.optionIndex),
        price: price.toString(),
        pointsIfCorrect: pointsIfCorrect(price),
      };
    });
  }

  /** Entries and picks need a published pack before its lockAt. */
  private assertOpen(pack: PackView): void {
    const lockAt = new Date(pack.lockAt).getTime();
    if (pack.status === 'published' && this.clock.now() < lockAt) return;
    if (pack.status === 'published' || pack.status === 'locked' || pack.status === 'resolving') {
      throw new DomainError('PACK_LOCKED', `Pack ${pack.id} locked at ${iso(pack.lockedAt ?? pack.lockAt)}`, {
        details: { packId: pack.id, status: pack.status, lockAt: iso(pack.lockAt) },
      });
    }
    throw new DomainError('PACK_NOT_OPEN', `Pack ${pack.id} takes no entries or picks: it is ${pack.status}`, {
      details: { packId: pack.id, status: pack.status },
    });
  }
}
