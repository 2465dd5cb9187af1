import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { PlatformInviteService } from '../../areas/platform-invites/platform-invite.service.js';
import type { Clock } from '../../platform/clock.js';
import { adminContext } from '../operation-context.js';

const s = initServer();

/** §4.16 platform invite codes (rules in PlatformInviteService). */
export function platformInviteRoutes(deps: { invites: PlatformInviteService; clock: Clock }) {
  const { invites, clock } = deps;
  return s.router(marketsContract.platformInvites, {
    create: async ({ body, req }) => ({ status: 201, body: await invites.create(adminContext(req, clock), body) }),
    createBulk: async ({ body, req }) => ({
      status: 201,
      body: await invites.createBulk(adminContext(req, clock), body),
    }),
    deactivate: async ({ params, body, req }) => ({
      status: 200,
      body: await invites.deactivate(adminContext(req, clock), params.inviteId, body.reason),
    }),
    invalidateUser: async ({ params, body, req }) => ({
      status: 200,
      body: await invites.invalidateUser(adminContext(req, clock), params.userId, body.reason),
    }),
    details: async ({ params, req }) => ({
      status: 200,
      body: await invites.details(adminContext(req, clock).now, params.inviteId),
    }),
    list: async ({ query, req }) => ({
      status: 200,
      body: await invites.page(adminContext(req, clock).now, query, 'active'),
    }),
    all: async ({ query, req }) => ({
      status: 200,
      body: await invites.page(adminContext(req, clock).now, query, query.state),
    }),
  });
}
