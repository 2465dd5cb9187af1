import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { invitationRows } from '../../../test/fakes/invitation-rows.js';
import { MarketWorld, type FakeUser } from '../../../test/fakes/market-world.js';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { MembershipDirectory } from '../invitations/membership-directory.js';
import { invitationState } from '../invitations/invite-code.js';
import { ParentInvitationService } from './parent-invitation.service.js';
import type { ParentMarketInvitationRow, ParentMarketRow } from './parent-market.entity.js';
import type { ChildRef, ParentMarketRepository } from './parent-market.repository.js';
import type { ParentMarketService } from './parent-market.service.js';

const HOUR = 3_600_000;

/** A parent market of `creator` with one private and one public sub-market on the fake chain. */
async function setup() {
  const world = new MarketWorld();
  const creator = await world.user('creator');
  const privateChild = await world.market(creator, { isPrivate: true });
  const publicChild = await world.market(creator);
  const parent: ParentMarketRow = {
    id: 'parent-1',
    builderAppId: 'app-1',
    creatorUserId: creator.userId,
    creatorAddress: creator.address,
    question: 'Who wins the league?',
    description: null,
    category: 'football',
    tags: [],
    coverImageUrl: null,
    isPrivate: true,
    groupKind: 'multi',
    createdAt: new Date(world.clock.now()),
  };
  const children: ChildRef[] = [privateChild, publicChild].map((d) => ({
    parentMarketId: parent.id,
    duelId: d.duelId,
    isPrivate: d.isPrivate,
    creatorAddress: d.creatorAddress,
    chainState: 'confirmed',
  }));
  const invites: ParentMarketInvitationRow[] = [];
  const members = new Set<string>();
  const repo = repositoryMock<ParentMarketRepository>();
  repo.children.mockResolvedValue(children);
  repo.insertInvitation.mockImplementation((inv) => {
    const row = { ...inv, uses: 0, revokedAt: null, createdAt: new Date(world.clock.now()) };
    invites.push(row);
    return Promise.resolve(row);
  });
  repo.invitationByHash.mockImplementation((hash) => Promise.resolve(invites.find((i) => i.codeHash === hash) ?? null));
  repo.reserveUse.mockImplementation((id) => {
    const row = invites.find((i) => i.id === id);
    if (!row || invitationState(row, world.clock.now()) !== 'active') return Promise.resolve(null);
    row.uses += 1;
    return Promise.resolve(row);
  });
  repo.isMember.mockImplementation((_parentId, member) => Promise.resolve(members.has(getAddress(member))));
  repo.addMember.mockImplementation((m) => Promise.resolve(void members.add(getAddress(m.memberAddress))));
  const parents = repositoryMock<ParentMarketService>();
  parents.require.mockResolvedValue(parent);
  const memberships = invitationRows(world).repo;
  const service = new ParentInvitationService({
    repo,
    parents,
    memberships,
    directory: new MembershipDirectory(memberships, world.chain.membership),
    membership: world.chain.membership,
    clock: world.clock,
  });
  return { world, creator, parent, privateChild, publicChild, invites, service };
}

const as = (u: FakeUser) => ({ userId: u.userId, address: u.address });

describe('ParentInvitationService', () => {
  it('joins the parent: the platform adds the member on chain to each private sub-market, one use taken', async () => {
    const s = await setup();
    await s.service.create(as(s.creator), { parentMarketId: s.parent.id, inviteCode: 'league', maxUses: 5 });
    const bob = await s.world.user('bob');
    const joined = await s.service.join(s.world.context(), as(bob), 'league');
    expect(joined.duels).toMatchObject([{ duelId: s.privateChild.duelId, result: 'added' }]);
    expect(await s.world.chain.membership.isMember(s.privateChild.duelId as `0x${string}`, bob.account.address)).toBe(
      true,
    );
    expect(s.invites[0]?.uses).toBe(1);
    await expect(s.service.join(s.world.context(), as(bob), 'league')).rejects.toMatchObject({
      code: 'ALREADY_MEMBER',
    });
  });

  it('refuses a code after its expiry by the clock (INVITE_EXPIRED) and after its last use (INVITE_EXHAUSTED)', async () => {
    const s = await setup();
    await s.service.create(as(s.creator), {
      parentMarketId: s.parent.id,
      inviteCode: 'short-lived',
      maxUses: 0,
      expiresAt: new Date(s.world.clock.now() + HOUR).toISOString(),
    });
    await s.service.create(as(s.creator), { parentMarketId: s.parent.id, inviteCode: 'single', maxUses: 1 });
    await s.service.join(s.world.context(), as(await s.world.user('first')), 'single');
    await expect(s.service.join(s.world.context(), as(await s.world.user('second')), 'single')).rejects.toMatchObject({
      code: 'INVITE_EXHAUSTED',
    });
    expect(await s.service.validate('short-lived')).toMatchObject({ valid: true, privateDuelCount: 1 });
    s.world.clock.advance(HOUR);
    expect(await s.service.validate('short-lived')).toEqual({ valid: false, reason: 'expired' });
    await expect(
      s.service.join(s.world.context(), as(await s.world.user('late')), 'short-lived'),
    ).rejects.toMatchObject({
      code: 'INVITE_EXPIRED',
    });
  });

  it('lets only the parent’s creator make invitations (FORBIDDEN)', async () => {
    const s = await setup();
    await expect(
      s.service.create(as(await s.world.user('mallory')), { parentMarketId: s.parent.id, maxUses: 1 }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
