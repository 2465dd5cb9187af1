import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { marketsContract } from '@duelkit/contract';
import type { Packs } from '../../areas/packs/packs.js';
import type { GeoGate } from '../../platform/geo/geo-gate.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { tenantOf, userOf } from '../principal.js';
import { optionalCaller } from './duels.routes.js';

const s = initServer();

export interface PackRouteDeps {
  readonly packs: Packs;
  readonly authenticator: Authenticator;
  readonly geo: GeoGate;
}

/** The signed-in user as the packs area acts for them. */
function user(req: Request) {
  const u = userOf(req);
  return { userId: u.userId, address: u.address, builderAppId: tenantOf(req).builderAppId };
}

/** Whose leaf a proof or summary is about: `account` when given, else the bearer's managed wallet. */
function account(req: Request, query: { account?: string | undefined }): string | undefined {
  return query.account ?? (req.principal?.kind === 'user' ? req.principal.address : undefined);
}

/** §4.13 packs: catalogue, entries and picks, standings, proofs (docs/packs.md). */
export function packRoutes(deps: PackRouteDeps) {
  const { catalog, entries, standings, payouts } = deps.packs;
  return s.router(marketsContract.packs, {
    list: async ({ query }) => ({ status: 200, body: await catalog.list(query) }),
    create: async ({ body, req }) => {
      deps.geo.assertAllowed(body.collateralStack, req);
      const caller = user(req);
      return {
        status: 201,
        body: await catalog.create({ kind: 'creator', creator: caller }, caller.builderAppId, body),
      };
    },
    addMarket: async ({ params, body, req }) => {
      if (body.source === 'new') deps.geo.assertAllowed(body.market.collateralStack ?? 'credits', req);
      return {
        status: 201,
        body: await catalog.addMarket({ kind: 'creator', creator: user(req) }, params.packId, body),
      };
    },
    publish: async ({ params, req }) => ({
      status: 200,
      body: await catalog.publish({ kind: 'creator', creator: user(req) }, params.packId),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await catalog.get(params.packId, await optionalCaller(deps.authenticator, req)),
    }),
    leaderboard: async ({ params, query }) => ({
      status: 200,
      body: await standings.leaderboard(params.packId, query.page, query.limit),
    }),
    priceHistory: async ({ params, query }) => ({
      status: 200,
      body: await catalog.priceHistory(params.packId, query),
    }),
    payoutProof: async ({ params, query, req }) => ({
      status: 200,
      body: await payouts.proof(params.packId, 'payout', account(req, query)),
    }),
    payoutSummary: async ({ params, query, req }) => ({
      status: 200,
      body: await payouts.summary(params.packId, 'payout', account(req, query)),
    }),
    refundProof: async ({ params, query, req }) => ({
      status: 200,
      body: await payouts.proof(params.packId, 'refund', account(req, query)),
    }),
    refundSummary: async ({ params, query, req }) => ({
      status: 200,
      body: await payouts.summary(params.packId, 'refund', account(req, query)),
    }),
    enter: async ({ params, req }) => {
      const pack = await catalog.require(params.packId);
      deps.geo.assertAllowed(pack.collateral, req);
      return { status: 201, body: await entries.enter(user(req), params.packId) };
    },
    estimatePicks: async ({ params, body }) => ({
      status: 200,
      body: await entries.estimate(params.packId, body.picks),
    }),
    picks: async ({ params, body, req }) => ({
      status: 201,
      body: await entries.pick(user(req), params.packId, body.picks),
    }),
    me: async ({ params, req }) => ({ status: 200, body: await entries.me(user(req), params.packId) }),
  });
}
