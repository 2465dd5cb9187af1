import { describe, expect, it } from 'vitest';
import { invitationRows } from '../../../test/fakes/invitation-rows.js';
import { MarketWorld, type FakeUser } from '../../../test/fakes/market-world.js';
import { InvitationService } from './invitation.service.js';
import { MembershipDirectory } from './membership-directory.js';
import { MembershipService } from './membership.service.js';

const HOUR = 3_600_000;

function setup() {
  const world = new MarketWorld();
  const { repo, rows } = invitationRows(world);
  const invitations = new InvitationService({
    repo,
    duels: world.duels,
    membership: world.chain.membership,
    signers: world.signers,
    clock: world.clock,
  });
  const memberships = new MembershipService({
    repo,
    invitations,
    directory: new MembershipDirectory(repo, world.chain.membership),
    duels: world.duels,
    membership: world.chain.membership,
    reads: world.chain.reads,
    signers: world.signers,
    clock: world.clock,
  });
  return { world, rows, invitations, memberships };
}

const as = (u: FakeUser) => ({ userId: u.userId, address: u.address });

async function privateMarketWithCode(s: ReturnType<typeof setup>, code: string, maxUses: number, expiresInMs?: number) {
  const creator = await s.world.user('creator');
  const duel = await s.world.market(creator, { isPrivate: true });
  await s.invitations.create(s.world.context(), as(creator), {
    duelId: duel.duelId,
    inviteCode: code,
    maxUses,
    ...(expiresInMs ? { expiresAt: new Date(s.world.clock.now() + expiresInMs).toISOString() } : {}),
  });
  return { creator, duel };
}

describe('MembershipService', () => {
  it('joins with a code: one use taken, a member on chain, a second join ALREADY_MEMBER', async () => {
    const s = setup();
    const { duel } = await privateMarketWithCode(s, 'club', 2);
    const bob = await s.world.user('bob');
    const joined = await s.memberships.join(s.world.context(), as(bob), { inviteCode: 'club' }, 'user');
    expect(joined).toMatchObject({ userAddress: bob.address });
    expect(await s.world.chain.membership.isMember(duel.duelId as `0x${string}`, bob.account.address)).toBe(true);
    expect([...s.rows.values()][0]?.uses).toBe(1);
    await expect(s.memberships.join(s.world.context(), as(bob), { inviteCode: 'club' }, 'user')).rejects.toMatchObject({
      code: 'ALREADY_MEMBER',
    });
  });

  it('holds maxUses: the join after the last use is INVITE_EXHAUSTED and sends nothing', async () => {
    const s = setup();
    await privateMarketWithCode(s, 'solo', 1);
    await s.memberships.join(s.world.context(), as(await s.world.user('bob')), { inviteCode: 'solo' }, 'user');
    const writes = s.world.chain.state.writes;
    await expect(
      s.memberships.join(s.world.context(), as(await s.world.user('carol')), { inviteCode: 'solo' }, 'platform'),
    ).rejects.toMatchObject({ code: 'INVITE_EXHAUSTED' });
    expect(s.world.chain.state.writes).toBe(writes);
  });

  it('refuses a code once the clock passes its expiry (INVITE_EXPIRED)', async () => {
    const s = setup();
    await privateMarketWithCode(s, 'soon', 0, HOUR);
    s.world.clock.advance(HOUR);
    await expect(
      s.memberships.join(s.world.context(), as(await s.world.user('late')), { inviteCode: 'soon' }, 'user'),
    ).rejects.toMatchObject({ code: 'INVITE_EXPIRED' });
  });

  it('lets the creator add and remove members, never themselves, and checks membership', async () => {
    const s = setup();
    const { creator, duel } = await privateMarketWithCode(s, 'unused', 1);
    const dave = await s.world.user('dave');
    await s.memberships.addMember(s.world.context(), as(creator), { duelId: duel.duelId, memberAddress: dave.address });
    expect(await s.memberships.check(duel.duelId, dave.address)).toMatchObject({ isMember: true });
    await expect(
      s.memberships.addMember(s.world.context(), as(creator), { duelId: duel.duelId, memberAddress: dave.address }),
    ).rejects.toMatchObject({ code: 'ALREADY_MEMBER' });
    await expect(
      s.memberships.removeMember(s.world.context(), as(creator), {
        duelId: duel.duelId,
        memberAddress: creator.address,
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await s.memberships.removeMember(s.world.context(), as(creator), {
      duelId: duel.duelId,
      memberAddress: dave.address,
    });
    expect(await s.memberships.check(duel.duelId, dave.address)).toMatchObject({ isMember: false });
  });
});
