import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { ParentInvitationService } from '../../areas/parent-markets/parent-invitation.service.js';
import type { ParentMarketService } from '../../areas/parent-markets/parent-market.service.js';
import { tenantOf, userOf, viewerOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

export interface ParentMarketRouteDeps {
  readonly parents: ParentMarketService;
  readonly invitations: ParentInvitationService;
}

/** §4.9 parent markets. */
export function parentMarketRoutes(deps: ParentMarketRouteDeps) {
  const { parents, invitations } = deps;
  const creator = (req: Parameters<typeof userOf>[0]) => {
    const u = userOf(req);
    return { userId: u.userId, address: u.address, builderAppId: tenantOf(req).builderAppId };
  };
  return s.router(marketsContract.parentMarkets, {
    create: async ({ body, req }) => ({ status: 201, body: await parents.create(ctxOf(req), creator(req), body) }),
    createInvitation: async ({ body, req }) => ({ status: 201, body: await invitations.create(creator(req), body) }),
    join: async ({ body, req }) => ({
      status: 200,
      body: await invitations.join(ctxOf(req), creator(req), body.inviteCode),
    }),
    addDuel: async ({ params, body, req }) => ({
      status: 201,
      body: await parents.addDuel(ctxOf(req), creator(req), params.id, body),
    }),
    accessible: async ({ query, req }) => ({
      status: 200,
      body: await parents.accessible(userOf(req).address, query.page, query.limit),
    }),
    get: async ({ params, query, req }) => ({
      status: 200,
      body: await parents.get(params.id, viewerOf(req), query.userAddress),
    }),
    invitations: async ({ params, req }) => ({ status: 200, body: await invitations.list(creator(req), params.id) }),
    members: async ({ params, req }) => ({
      status: 200,
      body: await parents.members(params.id, viewerOf(req)),
    }),
    validateInvite: async ({ body }) => ({ status: 200, body: await invitations.validate(body.inviteCode) }),
  });
}
