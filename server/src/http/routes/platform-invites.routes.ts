import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { PlatformInviteService } from '../../areas/platform-invites/platform-invite.service.js';
import { adminContext } from '../request-context.js';

const s = initServer();

/** §4.16 platform invite codes (rules in PlatformInviteService). */
export function platformInviteRoutes(deps: { invites: PlatformInviteService }) {
  const { invites } = deps;
  return s.router(marketsContract.platformInvites, {
    create: async ({ body, req }) => ({ status: 201, body: await invites.create(adminContext(req), body) }),
    createBulk: async ({ body, req }) => ({
      status: 201,
      body: await invites.createBulk(adminContext(req), body),
    }),
    deactivate: async ({ params, body, req }) => ({
      status: 200,
      body: await invites.deactivate(adminContext(req), params.inviteId, body.reason),
    }),
    invalidateUser: async ({ params, body, req }) => ({
      status: 200,
      body: await invites.invalidateUser(adminContext(req), params.userId, body.reason),
    }),
    details: async ({ params, req }) => ({
      status: 200,
      body: await invites.details(adminContext(req).now, params.inviteId),
    }),
    list: async ({ query, req }) => ({
      status: 200,
      body: await invites.page(adminContext(req).now, query, 'active'),
    }),
    all: async ({ query, req }) => ({
      status: 200,
      body: await invites.page(adminContext(req).now, query, query.state),
    }),
  });
}
