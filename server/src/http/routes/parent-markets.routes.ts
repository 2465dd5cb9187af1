import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { marketsContract } from '@duelkit/contract';
import type { GeoGate } from '../../platform/geo/geo-gate.js';
import type { ParentInvitationService } from '../../areas/parent-markets/parent-invitation.service.js';
import type { ParentMarketService } from '../../areas/parent-markets/parent-market.service.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { tenantOf, userOf } from '../principal.js';
import { optionalCaller } from './duels.routes.js';

const s = initServer();

export interface ParentMarketRouteDeps {
  readonly parents: ParentMarketService;
  readonly invitations: ParentInvitationService;
  readonly authenticator: Authenticator;
  readonly geo: GeoGate;
}

/** §4.9 parent markets. */
export function parentMarketRoutes(deps: ParentMarketRouteDeps) {
  const { parents, invitations, authenticator } = deps;
  const creator = (req: Parameters<typeof userOf>[0]) => {
    const u = userOf(req);
    return { userId: u.userId, address: u.address, builderAppId: tenantOf(req).builderAppId };
  };
  return s.router(marketsContract.parentMarkets, {
    create: async ({ body, req }) => {
      for (const child of body.markets) deps.geo.assertAllowed(child.collateralStack ?? 'credits', req);
      return { status: 201, body: await parents.create(creator(req), body) };
    },
    createInvitation: async ({ body, req }) => ({ status: 201, body: await invitations.create(creator(req), body) }),
    join: async ({ body, req }) => ({ status: 200, body: await invitations.join(creator(req), body.inviteCode) }),
    addDuel: async ({ params, body, req }) => {
      deps.geo.assertAllowed(body.collateralStack ?? 'credits', req);
      return { status: 201, body: await parents.addDuel(creator(req), params.id, body) };
    },
    accessible: async ({ query, req }) => ({
      status: 200,
      // Only the principal is read; ts-rest's request type differs from Express's in its query typing.
      body: await parents.accessible(userOf(req as unknown as Request).address, query.page, query.limit),
    }),
    get: async ({ params, query, req }) => ({
      status: 200,
      body: await parents.get(params.id, await optionalCaller(authenticator, req), query.userAddress),
    }),
    invitations: async ({ params, req }) => ({ status: 200, body: await invitations.list(creator(req), params.id) }),
    members: async ({ params, req }) => ({
      status: 200,
      body: await parents.members(params.id, await optionalCaller(authenticator, req)),
    }),
    validateInvite: async ({ body }) => ({ status: 200, body: await invitations.validate(body.inviteCode) }),
  });
}
