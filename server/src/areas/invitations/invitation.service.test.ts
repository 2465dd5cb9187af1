import { describe, expect, it } from 'vitest';
import { MarketWorld, type FakeUser } from '../../../test/fakes/market-world.js';
import { invitationRows } from '../../../test/fakes/invitation-rows.js';
import { InvitationService } from './invitation.service.js';
import { codeHashOf } from './invite-code.js';

const HOUR = 3_600_000;

function setup() {
  const world = new MarketWorld();
  const { rows, repo } = invitationRows(world);
  const invitations = new InvitationService({
    repo,
    duels: world.duels,
    membership: world.chain.membership,
    signers: world.signers,
    clock: world.clock,
  });
  return { world, rows, invitations };
}

const as = (u: FakeUser) => ({ userId: u.userId, address: u.address });

describe('InvitationService', () => {
  it('creates an invitation on chain with its code, valid until it expires by the clock', async () => {
    const { world, invitations } = setup();
    const creator = await world.user('creator');
    const duel = await world.market(creator, { isPrivate: true });
    const expiresAt = new Date(world.clock.now() + HOUR).toISOString();
    const created = await invitations.create(world.context(), as(creator), {
      duelId: duel.duelId,
      inviteCode: 'friends-only',
      maxUses: 3,
      expiresAt,
    });
    expect(created).toMatchObject({ inviteCode: 'friends-only', maxUses: 3 });
    expect(await world.chain.membership.invite(duel.duelId as `0x${string}`, codeHashOf('friends-only'))).toMatchObject(
      { exists: true, maxUses: 3, uses: 0, expiresAt: Math.ceil(Date.parse(expiresAt) / 1000) },
    );
    expect(await invitations.validate({ inviteCode: 'friends-only' })).toMatchObject({ valid: true, remainingUses: 3 });

    world.clock.advance(HOUR);
    expect(await invitations.validate({ inviteCode: 'friends-only' })).toEqual({ valid: false, reason: 'expired' });
    expect((await invitations.onChain('friends-only')).status).toBe('expired');
  });

  it('invites only to private markets, only as their creator, and never with an expiry in the past', async () => {
    const { world, invitations } = setup();
    const creator = await world.user('creator');
    const publicDuel = await world.market(creator);
    const privateDuel = await world.market(creator, { isPrivate: true });
    await expect(
      invitations.create(world.context(), as(creator), { duelId: publicDuel.duelId, maxUses: 1 }),
    ).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await expect(
      invitations.create(world.context(), as(await world.user('mallory')), { duelId: privateDuel.duelId, maxUses: 1 }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      invitations.create(world.context(), as(creator), {
        duelId: privateDuel.duelId,
        maxUses: 1,
        expiresAt: new Date(world.clock.now()).toISOString(),
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(world.chain.state.invites.size).toBe(0);
  });

  it('refuses a code already in use with INVITE_CODE_TAKEN', async () => {
    const { world, invitations } = setup();
    const creator = await world.user('creator');
    const duel = await world.market(creator, { isPrivate: true });
    await invitations.create(world.context(), as(creator), { duelId: duel.duelId, inviteCode: 'taken', maxUses: 1 });
    await expect(
      invitations.create(world.context(), as(creator), { duelId: duel.duelId, inviteCode: 'taken', maxUses: 1 }),
    ).rejects.toMatchObject({ code: 'INVITE_CODE_TAKEN' });
  });

  it('revokes on both sides once: the code stops validating and the chain refuses joins', async () => {
    const { world, invitations } = setup();
    const creator = await world.user('creator');
    const duel = await world.market(creator, { isPrivate: true });
    await invitations.create(world.context(), as(creator), { duelId: duel.duelId, inviteCode: 'bye', maxUses: 0 });
    const revoked = await invitations.revoke(world.context(), as(creator), { inviteCode: 'bye', duelId: duel.duelId });
    expect(revoked.txHash).not.toBeNull();
    const again = await invitations.revoke(world.context(), as(creator), { inviteCode: 'bye', duelId: duel.duelId });
    expect(again).toMatchObject({ txHash: null, revokedAt: revoked.revokedAt });
    expect(await invitations.validate({ inviteCode: 'bye' })).toEqual({ valid: false, reason: 'revoked' });
    await expect(
      world.chain.membership.join((await world.user('late')).account, duel.duelId as `0x${string}`, codeHashOf('bye')),
    ).rejects.toMatchObject({ code: 'INVITE_REVOKED' });
  });

  it('shows the codes to the creator and only their number to anyone else', async () => {
    const { world, invitations } = setup();
    const creator = await world.user('creator');
    const duel = await world.market(creator, { isPrivate: true });
    await invitations.create(world.context(), as(creator), { duelId: duel.duelId, inviteCode: 'one', maxUses: 1 });
    await invitations.create(world.context(), as(creator), { duelId: duel.duelId, inviteCode: 'two', maxUses: 1 });
    expect(await invitations.forDuel(duel.duelId, creator.address)).toMatchObject({
      activeCount: 2,
      codesVisible: true,
    });
    expect(await invitations.forDuel(duel.duelId, (await world.user('other')).address)).toMatchObject({
      activeCount: 2,
      codesVisible: false,
      invitations: [],
    });
  });
});
