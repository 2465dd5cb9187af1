import type { DuelInvitationRow, DuelMembershipRow } from '../../src/areas/invitations/invitation.entity.js';
import type { InvitationRepository } from '../../src/areas/invitations/invitation.repository.js';
import { invitationState } from '../../src/areas/invitations/invite-code.js';
import type { MarketWorld } from './market-world.js';
import { repositoryMock } from './repository.mock.js';

/**
 * `InvitationRepository` over two maps (invitations, memberships) with the rules its SQL keeps:
 * a code once, a use taken only while the invitation is active, a revocation once.
 */
export function invitationRows(world: MarketWorld) {
  const rows = new Map<string, DuelInvitationRow>();
  const members = new Map<string, DuelMembershipRow>();
  const memberKey = (duelId: string, member: string) => `${duelId.toLowerCase()}:${member.toLowerCase()}`;
  const repo = repositoryMock<InvitationRepository>();
  repo.insertInvitation.mockImplementation((inv) => {
    if ([...rows.values()].some((r) => r.codeHash === inv.codeHash)) {
      return Promise.reject(Object.assign(new Error('duplicate key'), { code: '23505' }));
    }
    const row: DuelInvitationRow = {
      ...inv,
      duelId: inv.duelId.toLowerCase(),
      uses: 0,
      revokedAt: null,
      createdAt: new Date(world.clock.now()),
      txHash: null,
      chainState: 'pending',
    };
    rows.set(row.id, row);
    return Promise.resolve(row);
  });
  repo.setInvitationTx.mockImplementation((_sql, id, txHash) => {
    const row = rows.get(id);
    if (row) row.txHash = txHash;
    return Promise.resolve();
  });
  repo.deletePendingInvitation.mockImplementation((id) => Promise.resolve(void rows.delete(id)));
  repo.invitationByHash.mockImplementation((hash) =>
    Promise.resolve([...rows.values()].find((r) => r.codeHash === hash.toLowerCase()) ?? null),
  );
  repo.activeInvitations.mockImplementation((duelId) =>
    Promise.resolve([...rows.values()].filter((r) => r.duelId === duelId.toLowerCase() && !r.revokedAt)),
  );
  repo.revoke.mockImplementation((id) => {
    const row = rows.get(id);
    if (!row || row.revokedAt) return Promise.resolve(null);
    row.revokedAt = new Date(world.clock.now());
    return Promise.resolve(row.revokedAt);
  });
  repo.unrevoke.mockImplementation((id) => Promise.resolve(void (rows.get(id)!.revokedAt = null)));
  repo.reserveUse.mockImplementation((id) => {
    const row = rows.get(id);
    if (!row || invitationState(row, world.clock.now()) !== 'active') return Promise.resolve(null);
    row.uses += 1;
    return Promise.resolve(row);
  });
  repo.releaseUse.mockImplementation((id) => {
    const row = rows.get(id);
    if (row && row.uses > 0) row.uses -= 1;
    return Promise.resolve();
  });
  repo.recordJoin.mockImplementation((j) => {
    const row: DuelMembershipRow = {
      ...j,
      duelId: j.duelId.toLowerCase(),
      joinedAt: new Date(world.clock.now()),
      removedAt: null,
      eventBlock: null,
      eventLogIndex: null,
    };
    members.set(memberKey(j.duelId, j.memberAddress), row);
    return Promise.resolve(row);
  });
  repo.recordRemoval.mockImplementation((duelId, member) => {
    const row = members.get(memberKey(duelId, member));
    if (row) row.removedAt = new Date(world.clock.now());
    return Promise.resolve();
  });
  repo.membership.mockImplementation((duelId, member) =>
    Promise.resolve(members.get(memberKey(duelId, member)) ?? null),
  );
  repo.isActiveMember.mockImplementation((duelId, member) => {
    const row = members.get(memberKey(duelId, member));
    return Promise.resolve(Boolean(row && !row.removedAt));
  });
  return { rows, members, repo };
}
