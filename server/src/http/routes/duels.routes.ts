import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { DuelService } from '../../areas/markets/duel.service.js';
import { isAdminCaller, tenantOf, userOf, viewerOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

export interface DuelRouteDeps {
  readonly duels: DuelService;
  readonly publicBaseUrl: string;
}

/** §4.7 duels. The geo gate on create and the optional caller on public reads run as middleware. */
export function duelRoutes(deps: DuelRouteDeps) {
  const { duels } = deps;
  return s.router(marketsContract.duels, {
    create: async ({ body, req }) => {
      const user = userOf(req);
      return {
        status: 201,
        body: await duels.create(
          ctxOf(req),
          { userId: user.userId, builderAppId: tenantOf(req).builderAppId, address: user.address },
          body,
        ),
      };
    },
    canonical: async ({ query }) => ({ status: 200, body: await duels.canonical(query.status, query.limit) }),
    byLeague: async ({ params, query, req }) => ({
      status: 200,
      body: await duels.list(query, {
        ...(params.leagueId === 'default' ? {} : { leagueId: params.leagueId }),
        isAdmin: isAdminCaller(req),
      }),
    }),
    getAll: async ({ query, req }) => ({ status: 200, body: await duels.list(query, { isAdmin: isAdminCaller(req) }) }),
    publicAll: async ({ query, req }) => ({
      status: 200,
      body: await duels.list(query, { isAdmin: isAdminCaller(req) }),
    }),
    getById: async ({ params, query, req }) => ({
      status: 200,
      body: await duels.get(params.duelId, viewerOf(req), query.userAddress),
    }),
    publicGetById: async ({ params, query, req }) => ({
      status: 200,
      body: await duels.get(params.duelId, viewerOf(req), query.userAddress),
    }),
    participants: async ({ params, req }) => ({
      status: 200,
      body: await duels.participants(params.duelId, userOf(req).address),
    }),
    ogMetadata: async ({ params }) => ({
      status: 200,
      body: await duels.ogMetadata(params.duelId, deps.publicBaseUrl),
    }),
  });
}
