import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { Request } from 'express';
import type { GeoGate } from '../../platform/geo/geo-gate.js';
import type { DuelService } from '../../areas/markets/duel.service.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { tenantOf, userOf } from '../principal.js';

const s = initServer();

export interface DuelRouteDeps {
  readonly duels: DuelService;
  readonly geo: GeoGate;
  readonly authenticator: Authenticator;
  readonly publicBaseUrl: string;
}

/**
 * The caller's managed address on routes the spec lists as public: a bearer token, when sent,
 * lets members read private markets; without one only public markets are visible.
 */
export async function optionalCaller(auth: Authenticator, req: Pick<Request, 'headers'>): Promise<string | undefined> {
  if (!req.headers.authorization) return undefined;
  try {
    // Authenticators read the headers only.
    const who = await auth.user(req as Request);
    return who?.kind === 'user' ? who.address : undefined;
  } catch {
    // A public route answers anonymously rather than failing on a stale or foreign token.
    return undefined;
  }
}

async function isAdmin(auth: Authenticator, req: Pick<Request, 'headers'>): Promise<boolean> {
  if (!req.headers.authorization) return false;
  try {
    return (await auth.admin(req as Request))?.kind === 'admin';
  } catch {
    return false;
  }
}

/** §4.7 duels. */
export function duelRoutes(deps: DuelRouteDeps) {
  const { duels, authenticator } = deps;
  return s.router(marketsContract.duels, {
    create: async ({ body, req }) => {
      const user = userOf(req);
      deps.geo.assertAllowed(body.collateralStack ?? 'credits', req);
      return {
        status: 201,
        body: await duels.create(
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
        isAdmin: await isAdmin(authenticator, req),
      }),
    }),
    getAll: async ({ query, req }) => ({
      status: 200,
      body: await duels.list(query, { isAdmin: await isAdmin(authenticator, req) }),
    }),
    publicAll: async ({ query, req }) => ({
      status: 200,
      body: await duels.list(query, { isAdmin: await isAdmin(authenticator, req) }),
    }),
    getById: async ({ params, query, req }) => ({
      status: 200,
      body: await duels.get(params.duelId, await optionalCaller(authenticator, req), query.userAddress),
    }),
    publicGetById: async ({ params, query, req }) => ({
      status: 200,
      body: await duels.get(params.duelId, await optionalCaller(authenticator, req), query.userAddress),
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
