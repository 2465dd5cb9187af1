import { PACK_MAX_MARKETS } from '@duelkit/contract';
import { getAddress, keccak256, toHex, type Address, type Hex } from 'viem';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import { DomainError } from '../../errors.js';
import type { OperationContext } from '../../platform/operation-context.js';
import type { Clock } from '../../platform/clock.js';
import type { Duel } from '../markets/duel.entity.js';
import { effectiveStatus } from '../markets/duel-state.js';
import type { Creator } from '../markets/duel.service.js';
import type { ParentMarketService } from '../parent-markets/parent-market.service.js';
import type { PackRow } from './pack.entities.js';
import { iso, toPackDto, toPackMarketDto, toPackSummaryDto, type PackMarketState } from './pack.mapper.js';
import type { PackRepository, PackView } from './pack.repository.js';
import type {
  AddPackMarketDto,
  CreatePackInput,
  CreatorAddMarketInput,
  PackDto,
  PackListDto,
  PackListQuery,
  PackPriceHistoryDto,
} from './pack.types.js';

/** The vault pool of a pack: keccak256("duelkit:pack:" + packId). */
export function packPoolId(packId: string): Hex {
  return keccak256(toHex(`duelkit:pack:${packId}`));
}

export interface DuelReader {
  require(duelId: string): Promise<Duel>;
}

/** Price series of a parent market's children (the price-history area). */
export interface PriceSeriesSource {
  parentHistory(
    parentMarketId: string,
    query: { timeRange: PackPriceHistoryDto['timeRange']; limit: number },
    callerAddress: string | null,
  ): Promise<{ bucketSeconds: number; series: PackPriceHistoryDto['series'] }>;
}

export const SCORING_RULE =
  'A correct pick scores floor(10000 × (1 − p)), p being its option’s price when the pick was made (the latest point ' +
  'of the series then); a wrong pick scores 0, a voided market 0 for everyone.';

export interface PackSettings {
  /** Platform fee of new packs, basis points. */
  readonly feeBps: number;
  /** Creator address of packs the platform owns (admin packs): the chain operator. */
  readonly platformAddress: Address;
}

/** Who builds a pack: one of its creator's requests, or an admin's. */
export type PackActor = { readonly kind: 'creator'; readonly creator: Creator } | { readonly kind: 'admin' };

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Packs as a catalogue: drafts built from markets, published, listed and read. A pack is a parent
 * market of kind `pack` (its markets are that parent's child duels) plus its own state row.
 */
export class PackService {
  constructor(
    private readonly repo: PackRepository,
    private readonly parents: ParentMarketService,
    private readonly duels: DuelReader,
    private readonly vault: PrizeVaultPort,
    private readonly settings: PackSettings,
    private readonly clock: Clock,
    private readonly history: PriceSeriesSource,
  ) {}

  async create(actor: PackActor, builderAppId: string, input: CreatePackInput): Promise<PackDto> {
    const lockAt = Date.parse(input.lockAt);
    if (lockAt <= this.clock.now()) {
      throw new DomainError('VALIDATION_FAILED', 'lockAt must be in the future', {
        fieldErrors: { 'body.lockAt': ['must be in the future'] },
      });
    }
    const owner =
      actor.kind === 'creator'
        ? { userId: actor.creator.userId, builderAppId, address: actor.creator.address }
        : { userId: null, builderAppId, address: this.settings.platformAddress };
    const parent = await this.parents.createGroup(owner, {
      question: input.title,
      description: input.description,
      category: input.category,
      coverImageUrl: input.coverImageUrl,
      isPrivate: false,
      groupKind: 'pack',
    });
    await this.repo.insert({
      id: parent.id,
      builderAppId,
      createdBy: actor.kind,
      creatorUserId: owner.userId,
      collateral: input.collateralStack,
      entryFee: input.entryFee,
      feeBps: actor.kind === 'admin' ? (input.feeBps ?? this.settings.feeBps) : this.settings.feeBps,
      lockAt: new Date(lockAt),
      poolId: packPoolId(parent.id),
    });
    return this.get(parent.id, undefined, { includeDrafts: true });
  }

  /**
   * Adds a market to a draft: a new one created through the parent market (signed and funded by
   * the creator's managed wallet), or an existing open public market. Admins hold no wallet, so
   * they bundle existing markets only.
   */
  async addMarket(
    ctx: OperationContext,
    actor: PackActor,
    packId: string,
    input: CreatorAddMarketInput,
  ): Promise<AddPackMarketDto> {
    const pack = await this.require(packId);
    this.assertOwner(pack, actor);
    this.assertStatus(pack, ['draft'], 'take new markets');
    if (pack.marketCount >= PACK_MAX_MARKETS) {
      throw new DomainError('VALIDATION_FAILED', `A pack bundles at most ${PACK_MAX_MARKETS} markets`, {
        details: { packId, marketCount: pack.marketCount },
      });
    }
    let duelId: string;
    let txHash: `0x${string}` | null = null;
    if (input.source === 'new') {
      if (actor.kind !== 'creator') throw new Error('unreachable: admins add existing markets only');
      if (Date.parse(input.market.endTime) < new Date(pack.lockAt).getTime()) {
        throw new DomainError('VALIDATION_FAILED', 'A pack market may not end before the pack locks', {
          fieldErrors: { 'body.market.endTime': [`must not be before the pack's lockAt ${iso(pack.lockAt)}`] },
        });
      }
      const created = await this.parents.addDuel(ctx, actor.creator, pack.id, { ...input.market, isPrivate: false });
      duelId = created.duelId;
      txHash = created.txHash as `0x${string}`;
    } else {
      const duel = await this.duels.require(input.marketId);
      if (actor.kind === 'creator' && duel.creatorUserId !== actor.creator.userId) {
        throw new DomainError('FORBIDDEN', 'Only your own markets can join your pack', {
          details: { marketId: duel.duelId },
        });
      }
      if (duel.builderAppId !== pack.builderAppId) {
        throw new DomainError('NOT_FOUND', `No market ${input.marketId} in this builder app`, {
          details: { marketId: input.marketId },
        });
      }
      this.assertJoinable(pack, duel);
      await this.parents.attachDuel(pack.id, duel);
      duelId = duel.duelId;
    }
    await this.repo.syncMarkets(pack.id);
    const market = (await this.markets(pack.id)).find((m) => same(m.duel.duelId, duelId));
    if (!market) throw new Error(`market ${duelId} missing from pack ${pack.id} after adding it`);
    return { packId: pack.id, market: toPackMarketDto(market, this.clock.now()), txHash };
  }

  /** Opens entries and picks until lockAt, once every market is confirmed on chain and still open past lockAt. */
  async publish(actor: PackActor, packId: string): Promise<PackDto> {
    const pack = await this.require(packId);
    this.assertOwner(pack, actor);
    this.assertStatus(pack, ['draft'], 'be published');
    await this.repo.syncMarkets(pack.id);
    const markets = await this.markets(pack.id);
    const now = this.clock.now();
    if (new Date(pack.lockAt).getTime() <= now) {
      throw new DomainError(
        'INVALID_STATE',
        `The pack's lockAt ${iso(pack.lockAt)} has passed: nothing could be picked`,
        {
          details: { packId, status: pack.status, lockAt: iso(pack.lockAt) },
        },
      );
    }
    if (!markets.length) {
      throw new DomainError('INVALID_STATE', 'A pack needs at least one market before it is published', {
        details: { packId, status: pack.status },
      });
    }
    const pending = markets.filter((m) => m.duel.chainState !== 'confirmed').map((m) => m.duel.duelId);
    if (pending.length) {
      throw new DomainError('INVALID_STATE', 'Some markets are not confirmed on chain yet; publish again shortly', {
        details: { packId, status: pack.status, pendingMarkets: pending },
        retryAfterMs: 2_000,
      });
    }
    for (const m of markets) this.assertJoinable(pack, m.duel);
    if (!(await this.repo.transition(pack.id, ['draft'], 'published'))) {
      throw this.stateError(await this.require(pack.id), ['draft'], 'be published');
    }
    return this.get(pack.id, undefined, { includeDrafts: true });
  }

  /** A pack with its markets; a draft only for its creator (NOT_FOUND otherwise). */
  async get(packId: string, viewer: string | undefined, opts: { includeDrafts?: boolean } = {}): Promise<PackDto> {
    const pack = await this.require(packId);
    if (pack.status === 'draft' && !opts.includeDrafts && !(viewer && same(viewer, pack.creatorAddress))) {
      throw notFound(packId);
    }
    return toPackDto(pack, this.vaultOf(pack), await this.markets(pack.id), this.clock.now());
  }

  /** The price series of every market: the prices picks were made at. */
  async priceHistory(
    packId: string,
    query: { timeRange: PackPriceHistoryDto['timeRange']; limit: number },
  ): Promise<PackPriceHistoryDto> {
    const pack = await this.require(packId);
    if (pack.status === 'draft') throw notFound(packId);
    const markets = await this.markets(pack.id);
    if (!markets.length) {
      return { packId: pack.id, timeRange: query.timeRange, bucketSeconds: 60, scoringRule: SCORING_RULE, series: [] };
    }
    const chart = await this.history.parentHistory(pack.id, query, null);
    const order = markets.map((m) => m.duel.duelId.toLowerCase());
    const series = chart.series
      .filter((s) => order.includes(s.duelId.toLowerCase()))
      .sort((a, b) => order.indexOf(a.duelId.toLowerCase()) - order.indexOf(b.duelId.toLowerCase()));
    return {
      packId: pack.id,
      timeRange: query.timeRange,
      bucketSeconds: chart.bucketSeconds,
      scoringRule: SCORING_RULE,
      series,
    };
  }

  async list(query: PackListQuery): Promise<PackListDto> {
    const { rows, total } = await this.repo.page(
      { status: query.status, collateral: query.collateralStack },
      query.page,
      query.limit,
    );
    return {
      data: rows.map((p) => toPackSummaryDto(p, this.vaultOf(p))),
      pagination: { page: query.page, limit: query.limit, total, hasMore: query.page * query.limit < total },
    };
  }

  async require(packId: string): Promise<PackView> {
    const pack = await this.repo.view(packId);
    if (!pack) throw notFound(packId);
    return pack;
  }

  /** The pack's markets with their duels, in pack order; creations the chain rejected are left out. */
  async markets(packId: string): Promise<PackMarketState[]> {
    const rows = await this.repo.markets(packId);
    const out: PackMarketState[] = [];
    for (const row of rows) {
      const duel = await this.duels.require(row.duelId);
      if (duel.chainState !== 'failed') out.push({ row, duel });
    }
    return out;
  }

  /** A market of the pack, or NOT_FOUND. */
  async market(packId: string, marketId: string): Promise<PackMarketState> {
    const found = (await this.markets(packId)).find((m) => same(m.duel.duelId, marketId));
    if (!found) {
      throw new DomainError('NOT_FOUND', `Market ${marketId} is not in pack ${packId}`, {
        details: { packId, marketId },
      });
    }
    return found;
  }

  vaultOf(pack: Pick<PackRow, 'collateral'>): Address {
    return getAddress(this.vault.address(pack.collateral));
  }

  assertStatus(pack: PackView, allowed: readonly PackRow['status'][], action: string): void {
    if (!allowed.includes(pack.status)) throw this.stateError(pack, allowed, action);
  }

  stateError(pack: PackView, allowed: readonly PackRow['status'][], action: string): DomainError {
    return new DomainError(
      'INVALID_STATE',
      `Pack ${pack.id} cannot ${action}: it is ${pack.status}; allowed from: ${allowed.join(', ')}`,
      { details: { packId: pack.id, status: pack.status, allowedFrom: allowed } },
    );
  }

  private assertOwner(pack: PackView, actor: PackActor): void {
    if (actor.kind === 'admin') return;
    if (pack.createdBy !== 'creator' || pack.creatorUserId !== actor.creator.userId) {
      throw new DomainError('FORBIDDEN', 'Only the pack’s creator may change it', { details: { packId: pack.id } });
    }
  }

  /** A market can join a pack when it is public, confirmed, open, and trades at least until the pack locks. */
  private assertJoinable(pack: PackView, duel: Duel): void {
    const now = this.clock.now();
    const reason = duel.isPrivate
      ? 'it is private'
      : duel.chainState === 'failed'
        ? 'its creation failed on chain'
        : effectiveStatus(duel, now) !== 'open'
          ? `it is ${effectiveStatus(duel, now)}`
          : new Date(duel.endTime).getTime() < new Date(pack.lockAt).getTime()
            ? `it ends at ${iso(duel.endTime)}, before the pack locks at ${iso(pack.lockAt)}`
            : undefined;
    if (reason) {
      throw new DomainError('INVALID_STATE', `Market ${duel.duelId} cannot join pack ${pack.id}: ${reason}`, {
        details: { packId: pack.id, marketId: duel.duelId, status: duel.status, endTime: iso(duel.endTime) },
      });
    }
  }
}

export function notFound(packId: string): DomainError {
  return new DomainError('NOT_FOUND', `No pack ${packId}`, { details: { packId } });
}
