import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { InvitationService } from '../../areas/invitations/invitation.service.js';
import type { MembershipService } from '../../areas/invitations/membership.service.js';
import { userOf, viewerOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

export interface InvitationRouteDeps {
  readonly invitations: InvitationService;
  readonly memberships: MembershipService;
}

/** §4.8 duel invitations and memberships. */
export function invitationRoutes(deps: InvitationRouteDeps) {
  const { invitations, memberships } = deps;
  const caller = (req: Parameters<typeof userOf>[0]) => {
    const u = userOf(req);
    return { userId: u.userId, address: u.address, eoaAddress: u.eoaAddress };
  };
  return s.router(marketsContract.invitations, {
    create: async ({ body, req }) => ({ status: 200, body: await invitations.create(ctxOf(req), caller(req), body) }),
    join: async ({ body, req }) => ({
      status: 200,
      body: await memberships.join(ctxOf(req), caller(req), body, 'platform'),
    }),
    userJoin: async ({ body, req }) => ({
      status: 200,
      body: await memberships.join(ctxOf(req), caller(req), body, 'user'),
    }),
    addMember: async ({ body, req }) => ({
      status: 200,
      body: await memberships.addMember(ctxOf(req), caller(req), body),
    }),
    removeMember: async ({ body, req }) => ({
      status: 200,
      body: await memberships.removeMember(ctxOf(req), caller(req), body),
    }),
    membership: async ({ params }) => ({
      status: 200,
      body: await memberships.check(params.duelId, params.userAddress),
    }),
    memberships: async ({ params, query }) => ({
      status: 200,
      body: await memberships.membershipsOf(params.userAddress, query.page, query.limit),
    }),
    byDuel: async ({ params, req }) => ({
      status: 200,
      body: await invitations.forDuel(params.duelId, viewerOf(req)),
    }),
    validateInvite: async ({ body }) => ({ status: 200, body: await invitations.validate(body) }),
    syncJoinSuccess: async ({ body, req }) => ({ status: 200, body: await memberships.syncJoin(caller(req), body) }),
    revoke: async ({ body, req }) => ({ status: 200, body: await invitations.revoke(ctxOf(req), caller(req), body) }),
    byCode: async ({ params }) => ({ status: 200, body: await invitations.onChain(params.inviteCode) }),
  });
}
