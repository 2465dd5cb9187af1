import type { CreateDuelRequest } from '@duelkit/contract';
import { getAddress, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { invitationRows } from '../../../test/fakes/invitation-rows.js';
import { MarketWorld, idempotentRun, type FakeUser } from '../../../test/fakes/market-world.js';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { OperationContext } from '../../platform/operation.context.js';
import type { DuelRepository } from '../markets/duel.repository.js';
import type { Creator, DuelService } from '../markets/duel.service.js';
import type { ParentMarketMemberRow, ParentMarketRow } from './parent-market.entity.js';
import type { ChildRef, NewParentMarket, ParentMarketRepository } from './parent-market.repository.js';
import { ParentMarketService } from './parent-market.service.js';
import type { ChildInput, CreateParentMarketInput } from './parent-market.types.js';

type Bytes32 = `0x${string}`;

/** `parent_markets` and `parent_market_members` in memory; the children are the world's duel rows. */
class MemoryParents {
  parents = new Map<string, ParentMarketRow>();
  memberRows: ParentMarketMemberRow[] = [];
  deleted: string[] = [];
  constructor(private readonly world: MarketWorld) {}
  insert(p: NewParentMarket) {
    const existing = this.parents.get(p.id);
    if (existing) return Promise.resolve(existing);
    const row = { ...p, createdAt: new Date(this.world.clock.now()) };
    this.parents.set(p.id, row);
    return Promise.resolve(row);
  }
  delete(id: string) {
    this.deleted.push(id);
    this.parents.delete(id);
    return Promise.resolve();
  }
  byId(id: string) {
    return Promise.resolve(this.parents.get(id) ?? null);
  }
  children(parentIds: readonly string[]): Promise<ChildRef[]> {
    return Promise.resolve(
      [...this.world.rows.values()]
        .filter((d) => d.parentMarketId && parentIds.includes(d.parentMarketId))
        .map((d) => ({
          parentMarketId: d.parentMarketId!,
          duelId: d.duelId,
          isPrivate: d.isPrivate,
          creatorAddress: d.creatorAddress,
          chainState: d.chainState,
        })),
    );
  }
  attachChild(parentId: string, duelId: string) {
    const row = this.world.rows.get(duelId.toLowerCase());
    if (!row || row.parentMarketId) return Promise.resolve(false);
    row.parentMarketId = parentId;
    return Promise.resolve(true);
  }
  accessiblePage(_address: string, page: number, limit: number) {
    const all = [...this.parents.values()].reverse();
    return Promise.resolve(all.slice((page - 1) * limit, page * limit));
  }
  accessibleCount() {
    return Promise.resolve(this.parents.size);
  }
  isMember(parentId: string, address: string) {
    return Promise.resolve(this.memberRows.some((m) => m.parentMarketId === parentId && m.memberAddress === address));
  }
  members(parentId: string) {
    return Promise.resolve(this.memberRows.filter((m) => m.parentMarketId === parentId));
  }
}

/**
 * duels/create as the parent service sees it: a market on the fake chain for each request, or the
 * refusal a request names in its question (`refuse:<CODE>`, `crash`).
 */
function duelCreation(world: MarketWorld, creatorOf: (c: Creator) => FakeUser) {
  const requests: { request: CreateDuelRequest; parentId: string | null }[] = [];
  const create = async (
    _ctx: OperationContext,
    creator: Creator,
    request: CreateDuelRequest,
    parentId: string | null,
  ) => {
    requests.push({ request, parentId });
    const [, code] = /^refuse:(\w+)/.exec(request.question) ?? [];
    if (code) throw new DomainError(code as 'VALIDATION_FAILED', `refused: ${code}`);
    if (request.question === 'crash') throw new Error('socket hang up');
    const duel = await world.market(creatorOf(creator), { isPrivate: request.isPrivate ?? false });
    duel.parentMarketId = parentId;
    duel.category = request.category ?? duel.category;
    return { duelId: duel.duelId, txHash: `0x${'77'.repeat(32)}` };
  };
  return { requests, service: { create } as unknown as DuelService };
}

async function setup() {
  const world = new MarketWorld();
  const creator = await world.user('creator');
  const users = new Map([[creator.userId, creator]]);
  const repo = new MemoryParents(world);
  const creation = duelCreation(world, (c) => users.get(c.userId)!);
  const memberships = invitationRows(world);
  const traded = new Set<string>();
  const logged: { level: string; msg: string }[] = [];
  const logger = {
    warn: (_o: unknown, msg: string) => void logged.push({ level: 'warn', msg }),
    error: (_o: unknown, msg: string) => void logged.push({ level: 'error', msg }),
  } as unknown as Logger;
  const duelRepo = {
    byDuelId: (id: string) => Promise.resolve(world.rows.get(id.toLowerCase()) ?? null),
    hasTraded: (id: string, who: string) => Promise.resolve(traded.has(`${id}:${who}`)),
  } as unknown as DuelRepository;
  const service = new ParentMarketService({
    repo: repo as unknown as ParentMarketRepository,
    duels: creation.service,
    duelRepo,
    access: world.access,
    memberships: memberships.repo,
    membership: world.chain.membership,
    logger,
  });
  const user = async (name: string) => {
    const u = await world.user(name);
    users.set(u.userId, u);
    return u;
  };
  return { world, creator, repo, creation, memberships, traded, logged, service, user };
}

const as = (u: FakeUser): Creator => ({ userId: u.userId, builderAppId: 'app-1', address: u.address });

function child(over: Partial<ChildInput> = {}): ChildInput {
  return {
    question: 'Will it rain?',
    options: ['Yes', 'No'],
    startTime: '2026-06-02T12:00:00.000Z',
    endTime: '2026-06-03T12:00:00.000Z',
    collateralStack: 'credits',
    ...over,
  };
}

function parentInput(markets: ChildInput[], over: Partial<CreateParentMarketInput> = {}): CreateParentMarketInput {
  return {
    question: 'Who wins the league?',
    category: 'football',
    isPrivate: false,
    groupKind: 'multi',
    markets,
    ...over,
  };
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (!(e instanceof DomainError)) return String(e);
    return { code: e.code, ...(e.fieldErrors ? { fields: Object.keys(e.fieldErrors) } : {}) };
  }
}

/** A parent with one public and one private sub-market, made by `creator`. */
async function withChildren(s: Awaited<ReturnType<typeof setup>>, isPrivate = false) {
  const res = await s.service.create(
    s.world.context(),
    as(s.creator),
    parentInput([child({ isPrivate: isPrivate ? undefined : false }), child({ isPrivate: true })], { isPrivate }),
  );
  const [open, secret] = res.results.map((r) => (r.status === 'created' ? r.duelId : ''));
  return { parentId: res.parentMarketId, open: open!, secret: secret! };
}

describe('ParentMarketService', () => {
  it('creates sub-markets in order with the parent’s category and privacy unless they name their own', async () => {
    const s = await setup();
    const res = await s.service.create(
      s.world.context(),
      as(s.creator),
      parentInput([child(), child({ category: 'weather', isPrivate: true })]),
    );
    expect(res).toMatchObject({ createdCount: 2, failedCount: 0 });
    expect(res.results.map((r) => [r.index, r.status])).toEqual([
      [0, 'created'],
      [1, 'created'],
    ]);
    expect(s.creation.requests.map((r) => [r.request.category, r.request.isPrivate, r.parentId])).toEqual([
      ['football', false, res.parentMarketId],
      ['weather', true, res.parentMarketId],
    ]);
    expect(s.repo.parents.get(res.parentMarketId)).toMatchObject({
      creatorAddress: getAddress(s.creator.address),
      groupKind: 'multi',
      tags: [],
      description: null,
    });
  });

  it('reports each failed sub-market with the code it alone would get, keeping the created ones', async () => {
    const s = await setup();
    const res = await s.service.create(
      s.world.context(),
      as(s.creator),
      parentInput([child({ question: 'refuse:INSUFFICIENT_BALANCE' }), child(), child({ question: 'crash' })]),
    );
    expect(res).toMatchObject({ createdCount: 1, failedCount: 2 });
    expect(res.results).toEqual([
      { index: 0, status: 'failed', code: 'INSUFFICIENT_BALANCE', message: 'refused: INSUFFICIENT_BALANCE' },
      { index: 1, status: 'created', duelId: expect.any(String), txHash: `0x${'77'.repeat(32)}` },
      { index: 2, status: 'failed', code: 'INTERNAL', message: 'Unexpected error creating this sub-market' },
    ]);
    expect(s.logged).toEqual([{ level: 'error', msg: 'sub-market creation failed unexpectedly' }]);
    expect(s.repo.parents.has(res.parentMarketId)).toBe(true);
  });

  it('keeps nothing when every sub-market failed (ALL_CHILDREN_FAILED with each result)', async () => {
    const s = await setup();
    let err: unknown;
    await s.service
      .create(
        s.world.context(),
        as(s.creator),
        parentInput([child({ question: 'refuse:GEO_BLOCKED' }), child({ question: 'crash' })]),
      )
      .catch((e: unknown) => (err = e));
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({
      code: 'ALL_CHILDREN_FAILED',
      details: {
        results: [
          { index: 0, status: 'failed', code: 'GEO_BLOCKED' },
          { index: 1, status: 'failed', code: 'INTERNAL' },
        ],
      },
    });
    expect(s.repo.parents.size).toBe(0);
    expect(s.repo.deleted).toHaveLength(1);
  });

  it('refuses a public sub-market under a private parent before creating anything', async () => {
    const s = await setup();
    const input = parentInput([child({ isPrivate: true }), child({ isPrivate: false })], { isPrivate: true });
    expect(await refusal(s.service.create(s.world.context(), as(s.creator), input))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['body.markets.1.isPrivate'],
    });
    expect(s.repo.parents.size).toBe(0);
    expect(s.creation.requests).toEqual([]);
    // Omitted privacy follows the private parent.
    const ok = await s.service.create(s.world.context(), as(s.creator), parentInput([child()], { isPrivate: true }));
    expect(s.creation.requests[0]?.request.isPrivate).toBe(true);
    expect(ok.createdCount).toBe(1);
  });

  it('finds the same parent again when a request under one Idempotency-Key is resumed', async () => {
    const s = await setup();
    const input = parentInput([child()]);
    const first = await s.service.create(s.world.context(idempotentRun('rec-1')), as(s.creator), input);
    const resumed = await s.service.create(s.world.context(idempotentRun('rec-1', true)), as(s.creator), input);
    const other = await s.service.create(s.world.context(idempotentRun('rec-2')), as(s.creator), input);
    expect(resumed.parentMarketId).toBe(first.parentMarketId);
    expect(other.parentMarketId).not.toBe(first.parentMarketId);
    expect(s.repo.parents.size).toBe(2);
  });

  it('lets only the parent’s creator add sub-markets, private ones only under a private parent', async () => {
    const s = await setup();
    const { parentId } = await withChildren(s, true);
    const mallory = await s.user('mallory');
    expect(await refusal(s.service.addDuel(s.world.context(), as(mallory), parentId, child()))).toEqual({
      code: 'FORBIDDEN',
    });
    expect(
      await refusal(s.service.addDuel(s.world.context(), as(s.creator), parentId, child({ isPrivate: false }))),
    ).toEqual({ code: 'VALIDATION_FAILED', fields: ['body.isPrivate'] });
    expect(await refusal(s.service.addDuel(s.world.context(), as(s.creator), 'nope', child()))).toEqual({
      code: 'NOT_FOUND',
    });
  });

  it('opens a new private sub-market to the parent’s members on chain, counting grants that failed', async () => {
    const s = await setup();
    const { parentId } = await withChildren(s, true);
    const bob = await s.user('bob');
    const carol = await s.user('carol');
    for (const m of [bob, carol]) {
      s.repo.memberRows.push({
        parentMarketId: parentId,
        memberAddress: m.address.toLowerCase(),
        userId: m.userId,
        invitationId: 'inv-1',
        joinedAt: new Date(s.world.clock.now()),
      });
    }
    // Carol's addition is refused on chain: the grant fails, the sub-market stays.
    const membership = s.world.chain.membership;
    const addMember = membership.addMember.bind(membership);
    membership.addMember = (signer, duelId, member, opts) =>
      getAddress(member) === getAddress(carol.address)
        ? Promise.reject(new Error('execution reverted'))
        : addMember(signer, duelId, member, opts);
    const res = await s.service.addDuel(s.world.context(), as(s.creator), parentId, child());
    expect(res).toMatchObject({
      parentMarketId: parentId,
      chainState: 'pending',
      memberGrants: { granted: 1, failed: 1 },
    });
    expect(await membership.isMember(res.duelId as Bytes32, bob.address as Address)).toBe(true);
    expect(await membership.isMember(res.duelId as Bytes32, carol.address as Address)).toBe(false);
    expect(await s.memberships.repo.membership(res.duelId, bob.address)).toMatchObject({
      via: 'parent',
      useCounted: false,
      userId: bob.userId,
    });
    expect(await s.memberships.repo.membership(res.duelId, carol.address)).toBeNull();
    expect(s.logged).toEqual([{ level: 'warn', msg: 'could not add a parent member to a new sub-market' }]);
  });

  it('grants nothing for a public sub-market', async () => {
    const s = await setup();
    const { parentId } = await withChildren(s);
    s.repo.memberRows.push({
      parentMarketId: parentId,
      memberAddress: (await s.user('bob')).address,
      userId: null,
      invitationId: null,
      joinedAt: new Date(s.world.clock.now()),
    });
    const res = await s.service.addDuel(s.world.context(), as(s.creator), parentId, child());
    expect(res.memberGrants).toEqual({ granted: 0, failed: 0 });
  });

  it('attaches a market to one parent at most, and only a private one to a private parent', async () => {
    const s = await setup();
    const open = await s.service.createGroup(
      { userId: null, builderAppId: 'app-1', address: s.creator.address.toLowerCase() },
      { question: 'Pack', category: 'football', isPrivate: false, groupKind: 'pack' },
    );
    expect(open).toMatchObject({
      creatorUserId: null,
      creatorAddress: getAddress(s.creator.address),
      groupKind: 'pack',
    });
    const closed = await s.service.createGroup(as(s.creator), {
      question: 'Secret pack',
      category: 'football',
      isPrivate: true,
      groupKind: 'pack',
    });
    const duel = await s.world.market(s.creator);
    expect(await refusal(s.service.attachDuel(closed.id, duel))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['body.marketId'],
    });
    const attached = await s.service.attachDuel(open.id, duel);
    expect(attached.parentMarketId).toBe(open.id);
    expect(await refusal(s.service.attachDuel(open.id, attached))).toEqual({ code: 'INVALID_STATE' });
    // A row read before another request attached it: the repository's guard decides.
    expect(await refusal(s.service.attachDuel(open.id, { ...duel, parentMarketId: null }))).toEqual({
      code: 'INVALID_STATE',
    });
  });

  it('shows each caller the sub-markets they may see and counts the hidden ones', async () => {
    const s = await setup();
    const { parentId, open, secret } = await withChildren(s);
    const outsider = await s.user('outsider');
    const anonymous = await s.service.get(parentId, undefined, undefined);
    expect(anonymous.duels.map((d) => d.duelId)).toEqual([open]);
    expect(anonymous.hiddenDuelCount).toBe(1);
    expect((await s.service.get(parentId, outsider.address, undefined)).hiddenDuelCount).toBe(1);
    const own = await s.service.get(parentId, s.creator.address.toLowerCase(), undefined);
    expect(own.duels.map((d) => d.duelId)).toEqual([open, secret]);
    expect(own.hiddenDuelCount).toBe(0);
  });

  it('marks the sub-markets a given address traded, without granting it any visibility', async () => {
    const s = await setup();
    const { parentId, open, secret } = await withChildren(s);
    const bob = await s.user('bob');
    s.traded.add(`${open}:${getAddress(bob.address)}`);
    s.traded.add(`${secret}:${getAddress(bob.address)}`);
    const view = await s.service.get(parentId, undefined, bob.address.toLowerCase());
    expect(view.duels.map((d) => [d.duelId, d.userParticipated])).toEqual([[open, true]]);
    expect((await s.service.get(parentId, undefined, undefined)).duels[0]).not.toHaveProperty('userParticipated');
  });

  it('shows a private parent to its creator, its members and members of a private sub-market only', async () => {
    const s = await setup();
    const { parentId, secret } = await withChildren(s, true);
    const member = await s.user('member');
    const childMember = await s.user('child-member');
    const outsider = await s.user('outsider');
    s.repo.memberRows.push({
      parentMarketId: parentId,
      memberAddress: getAddress(member.address),
      userId: member.userId,
      invitationId: 'inv',
      joinedAt: new Date(s.world.clock.now()),
    });
    await s.world.chain.membership.addMember('platform', secret as Bytes32, childMember.address as Address);
    expect(await refusal(s.service.get(parentId, undefined, undefined))).toEqual({ code: 'PRIVATE_MARKET' });
    expect(await refusal(s.service.get(parentId, outsider.address, member.address))).toEqual({
      code: 'PRIVATE_MARKET',
    });
    expect(await refusal(s.service.members(parentId, outsider.address))).toEqual({ code: 'PRIVATE_MARKET' });
    for (const who of [s.creator, member, childMember]) {
      expect(await refusal(s.service.get(parentId, who.address.toLowerCase(), undefined))).toBe('ok');
      expect(await refusal(s.service.members(parentId, who.address))).toBe('ok');
    }
    expect(await refusal(s.service.get('nope', s.creator.address, undefined))).toEqual({ code: 'NOT_FOUND' });
  });

  it('lists the creator first, then the members who joined, checksummed', async () => {
    const s = await setup();
    const { parentId } = await withChildren(s);
    const bob = await s.user('bob');
    s.world.clock.advance(60_000);
    s.repo.memberRows.push({
      parentMarketId: parentId,
      memberAddress: bob.address.toLowerCase(),
      userId: bob.userId,
      invitationId: 'inv',
      joinedAt: new Date(s.world.clock.now()),
    });
    const res = await s.service.members(parentId, undefined);
    expect(res).toEqual({
      parentMarketId: parentId,
      members: [
        {
          userAddress: getAddress(s.creator.address),
          via: 'creator',
          joinedAt: s.repo.parents.get(parentId)!.createdAt.toISOString(),
        },
        { userAddress: getAddress(bob.address), via: 'invite', joinedAt: new Date(s.world.clock.now()).toISOString() },
      ],
    });
  });

  it('pages the accessible parents, each with the sub-markets the caller may see', async () => {
    const s = await setup();
    const a = await withChildren(s);
    const b = await withChildren(s);
    const c = await withChildren(s);
    const outsider = await s.user('outsider');
    const page1 = await s.service.accessible(outsider.address.toLowerCase(), 1, 2);
    expect(page1.pagination).toEqual({ page: 1, limit: 2, total: 3, hasMore: true });
    expect(page1.data.map((p) => [p.id, p.duels.length, p.hiddenDuelCount])).toEqual([
      [c.parentId, 1, 1],
      [b.parentId, 1, 1],
    ]);
    const page2 = await s.service.accessible(outsider.address, 2, 2);
    expect(page2.data.map((p) => p.id)).toEqual([a.parentId]);
    expect(page2.pagination.hasMore).toBe(false);
  });
});
