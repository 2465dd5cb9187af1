import { randomUUID } from 'node:crypto';
import type { CreateDuelRequest } from '@duelkit/contract';
import { getAddress } from 'viem';
import type { ChainPort } from '../../adapters/chain/chain.port.js';
import { DomainError, isDomainError } from '../../errors.js';
import type { InvitationRepository } from '../invitations/invitation.repository.js';
import type { Logger } from '../../logger.js';
import { uuidFrom } from '../../platform/idempotency/idempotent-run.js';
import type { OperationContext } from '../../platform/operation-context.js';
import type { Duel } from '../markets/duel.entity.js';
import { toDuelDto } from '../markets/duel.mapper.js';
import type { DuelRepository } from '../markets/duel.repository.js';
import type { Creator, DuelService } from '../markets/duel.service.js';
import type { MarketAccess } from '../markets/market-access.js';
import type { ParentMarketRow } from './parent-market.entity.js';
import type { ParentMarketRepository } from './parent-market.repository.js';
import type {
  AccessibleDto,
  AddChildDto,
  ChildInput,
  ChildResultDto,
  CreateParentMarketDto,
  CreateParentMarketInput,
  ParentMarketDto,
  ParentMembersDto,
} from './parent-market.types.js';

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * Parent markets: a group of sub-markets (duels with `parent_market_id`). A private parent and its
 * private sub-markets are seen by their creator and members only.
 */

export class ParentMarketService {
  constructor(
    private readonly repo: ParentMarketRepository,
    private readonly duels: DuelService,
    private readonly duelRepo: DuelRepository,
    private readonly access: MarketAccess,
    private readonly memberships: InvitationRepository,
    private readonly chain: ChainPort,
    private readonly logger: Logger,
  ) {}

  /**
   * Creates the parent, then each sub-market in order through duels/create. Partial failure is
   * reported per sub-market; when every one failed nothing is kept and the answer is a 400.
   */
  async create(
    ctx: OperationContext,
    creator: Creator,
    input: CreateParentMarketInput,
  ): Promise<CreateParentMarketDto> {
    input.markets.forEach((child, index) => assertPrivacy(input.isPrivate, child, `body.markets.${index}.isPrivate`));
    // A request resumed after a crash finds the parent (and its sub-markets) it already created.
    const scoped = ctx.scopedKey('parent-market');
    const parent = await this.repo.insert({
      id: scoped ? uuidFrom(`${creator.builderAppId}:${scoped}`) : randomUUID(),
      builderAppId: creator.builderAppId,
      creatorUserId: creator.userId,
      creatorAddress: getAddress(creator.address),
      question: input.question,
      description: input.description ?? null,
      category: input.category,
      tags: input.tags ?? [],
      coverImageUrl: input.coverImageUrl ?? null,
      isPrivate: input.isPrivate,
      groupKind: input.groupKind,
    });
    const results: ChildResultDto[] = [];
    for (const [index, child] of input.markets.entries()) {
      try {
        const created = await this.duels.create(ctx, creator, childRequest(parent, child), parent.id);
        results.push({ index, status: 'created', duelId: created.duelId, txHash: created.txHash });
      } catch (err) {
        results.push({ index, status: 'failed', ...this.failure(err, parent.id, index) });
      }
    }
    const createdCount = results.filter((r) => r.status === 'created').length;
    if (createdCount === 0) {
      await this.repo.delete(parent.id);
      throw new DomainError('ALL_CHILDREN_FAILED', 'All sub-market creations failed', { details: { results } });
    }
    return { parentMarketId: parent.id, results, createdCount, failedCount: results.length - createdCount };
  }

  /**
   * A parent without sub-markets yet, for groups built one market at a time (packs). The owner's
   * `userId` is null when the platform owns the group.
   */
  async createGroup(owner: GroupOwner, input: GroupInput): Promise<ParentMarketRow> {
    return this.repo.insert({
      id: randomUUID(),
      builderAppId: owner.builderAppId,
      creatorUserId: owner.userId,
      creatorAddress: getAddress(owner.address),
      question: input.question,
      description: input.description ?? null,
      category: input.category,
      tags: input.tags ?? [],
      coverImageUrl: input.coverImageUrl ?? null,
      isPrivate: input.isPrivate,
      groupKind: input.groupKind,
    });
  }

  /**
   * Makes an existing market a sub-market of `parentId`: a market belongs to one parent at most,
   * and a private parent takes private markets only. Who may attach what is the caller's rule.
   */
  async attachDuel(parentId: string, duel: Duel): Promise<Duel> {
    const parent = await this.require(parentId);
    assertPrivacy(parent.isPrivate, { isPrivate: duel.isPrivate }, 'body.marketId');
    if (duel.parentMarketId || !(await this.repo.attachChild(parent.id, duel.duelId))) {
      throw new DomainError('INVALID_STATE', `Duel ${duel.duelId} already belongs to a parent market`, {
        details: { duelId: duel.duelId, parentMarketId: duel.parentMarketId },
      });
    }
    return { ...duel, parentMarketId: parent.id };
  }

  /**
   * Adds a sub-market. A new private one is opened to the parent's existing members (the platform
   * adds them on chain), so a parent membership keeps covering every private sub-market.
   */
  async addDuel(ctx: OperationContext, creator: Creator, parentId: string, child: ChildInput): Promise<AddChildDto> {
    const parent = await this.require(parentId);
    if (!same(parent.creatorAddress, creator.address)) {
      throw new DomainError('FORBIDDEN', 'Only the parent market’s creator may add sub-markets');
    }
    assertPrivacy(parent.isPrivate, child, 'body.isPrivate');
    const request = childRequest(parent, child);
    const created = await this.duels.create(ctx, creator, request, parent.id);
    const grants = { granted: 0, failed: 0 };
    if (request.isPrivate) {
      for (const m of await this.repo.members(parent.id)) {
        try {
          const member = getAddress(m.memberAddress);
          const txHash = await this.chain.addMember('platform', created.duelId, member, {
            write: ctx.writeKey(`add-member:${created.duelId}:${member}`),
          });
          await this.memberships.recordJoin({
            duelId: created.duelId,
            memberAddress: getAddress(m.memberAddress),
            userId: m.userId,
            via: 'parent',
            invitationId: null,
            txHash,
            useCounted: false,
            chainState: 'pending',
          });
          grants.granted += 1;
        } catch (err) {
          grants.failed += 1;
          this.logger.warn(
            { err, parentId, duelId: created.duelId },
            'could not add a parent member to a new sub-market',
          );
        }
      }
    }
    return {
      parentMarketId: parent.id,
      duelId: created.duelId,
      txHash: created.txHash,
      chainState: 'pending',
      memberGrants: grants,
    };
  }

  /** The parent with the sub-markets `caller` may see; PRIVATE_MARKET for a private parent they may not. */
  async get(parentId: string, caller: string | undefined, userAddress: string | undefined): Promise<ParentMarketDto> {
    const parent = await this.require(parentId);
    const view = await this.hydrate(parent, caller, userAddress);
    if (parent.isPrivate && !(await this.canSeeParent(parent, caller, view))) {
      throw new DomainError(
        'PRIVATE_MARKET',
        'Access denied. This is a private parent market: join it with an invite code.',
        {
          details: { parentMarketId: parent.id },
        },
      );
    }
    return view;
  }

  async members(parentId: string, caller: string | undefined): Promise<ParentMembersDto> {
    const parent = await this.require(parentId);
    if (parent.isPrivate && !(await this.canSeeParent(parent, caller, await this.hydrate(parent, caller, undefined)))) {
      throw new DomainError('PRIVATE_MARKET', 'Only members see who belongs to a private parent market', {
        details: { parentMarketId: parent.id },
      });
    }
    const rows = await this.repo.members(parent.id);
    return {
      parentMarketId: parent.id,
      members: [
        { userAddress: getAddress(parent.creatorAddress), via: 'creator', joinedAt: iso(parent.createdAt) },
        ...rows.map((m) => ({
          userAddress: getAddress(m.memberAddress),
          via: 'invite' as const,
          joinedAt: iso(m.joinedAt),
        })),
      ],
    };
  }

  async accessible(caller: string, page: number, limit: number): Promise<AccessibleDto> {
    const address = getAddress(caller);
    const [rows, total] = await Promise.all([
      this.repo.accessiblePage(address, page, limit),
      this.repo.accessibleCount(address),
    ]);
    const data = await Promise.all(rows.map((p) => this.hydrate(p, address, undefined)));
    return { data, pagination: { page, limit, total, hasMore: page * limit < total } };
  }

  async require(parentId: string): Promise<ParentMarketRow> {
    const parent = await this.repo.byId(parentId);
    if (!parent)
      throw new DomainError('NOT_FOUND', `No parent market ${parentId}`, { details: { parentMarketId: parentId } });
    return parent;
  }

  private async canSeeParent(parent: ParentMarketRow, caller: string | undefined, view: ParentMarketDto) {
    if (!caller) return false;
    if (same(caller, parent.creatorAddress)) return true;
    if (await this.repo.isMember(parent.id, getAddress(caller))) return true;
    return view.duels.some((d) => d.isPrivate);
  }

  private async hydrate(
    parent: ParentMarketRow,
    caller: string | undefined,
    userAddress: string | undefined,
  ): Promise<ParentMarketDto> {
    const refs = await this.repo.children([parent.id]);
    const rows = (await Promise.all(refs.map((r) => this.duelRepo.byDuelId(r.duelId)))).filter(
      (d): d is Duel => d !== null,
    );
    const visible: Duel[] = [];
    for (const d of rows) if (await this.access.canView(d, caller)) visible.push(d);
    const participant = userAddress ? getAddress(userAddress) : undefined;
    const duels = await Promise.all(
      visible.map(async (d) =>
        toDuelDto(d, participant ? await this.duelRepo.hasTraded(d.duelId, participant) : undefined),
      ),
    );
    return {
      id: parent.id,
      question: parent.question,
      description: parent.description,
      category: parent.category,
      tags: parent.tags,
      coverImageUrl: parent.coverImageUrl,
      isPrivate: parent.isPrivate,
      groupKind: parent.groupKind,
      creatorAddress: getAddress(parent.creatorAddress),
      createdAt: iso(parent.createdAt),
      duels,
      hiddenDuelCount: rows.length - visible.length,
    };
  }

  private failure(err: unknown, parentId: string, index: number): { code: ChildFailureCode; message: string } {
    if (isDomainError(err)) return { code: err.code, message: err.message };
    this.logger.error({ err, parentId, index }, 'sub-market creation failed unexpectedly');
    return { code: 'INTERNAL', message: 'Unexpected error creating this sub-market' };
  }
}

/** Who owns a group: a user, or the platform (`userId` null, the operator's address). */
export interface GroupOwner {
  readonly userId: string | null;
  readonly builderAppId: string;
  readonly address: string;
}

export type GroupInput = Pick<
  CreateParentMarketInput,
  'question' | 'description' | 'category' | 'tags' | 'coverImageUrl'
> & {
  readonly isPrivate: boolean;
  readonly groupKind: ParentMarketRow['groupKind'];
};

type ChildFailureCode = Extract<ChildResultDto, { status: 'failed' }>['code'];

const iso = (d: Date | string): string => new Date(d).toISOString();

/** A private parent has private sub-markets only. */
function assertPrivacy(parentPrivate: boolean, child: Pick<ChildInput, 'isPrivate'>, field: string): void {
  if (parentPrivate && child.isPrivate === false) {
    throw new DomainError('VALIDATION_FAILED', 'A private parent market has private sub-markets only', {
      fieldErrors: { [field]: ['must not be false under a private parent'] },
    });
  }
}

/** A sub-market request: category and privacy default to the parent's. */
function childRequest(parent: Pick<ParentMarketRow, 'category' | 'isPrivate'>, child: ChildInput): CreateDuelRequest {
  return { ...child, category: child.category ?? parent.category, isPrivate: child.isPrivate ?? parent.isPrivate };
}
