import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { Packs } from '../../areas/packs/packs.js';
import { regionOf, tenantOf, userOf, viewerOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

/** The signed-in user as the packs area acts for them. */
function user(req: Parameters<typeof userOf>[0]) {
  const u = userOf(req);
  return { userId: u.userId, address: u.address, builderAppId: tenantOf(req).builderAppId };
}

/** Whose leaf a proof or summary is about: `account` when given, else the bearer's managed wallet. */
function account(req: Parameters<typeof viewerOf>[0], query: { account?: string | undefined }): string | undefined {
  return query.account ?? viewerOf(req);
}

/** §4.13 packs: catalogue, entries and picks, standings, proofs (docs/packs.md). */
export function packRoutes(packs: Packs) {
  const { catalog, entries, standings, payouts } = packs;
  return s.router(marketsContract.packs, {
    list: async ({ query }) => ({ status: 200, body: await catalog.list(query) }),
    create: async ({ body, req }) => {
      const caller = user(req);
      return {
        status: 201,
        body: await catalog.create({ kind: 'creator', creator: caller }, caller.builderAppId, body),
      };
    },
    addMarket: async ({ params, body, req }) => ({
      status: 201,
      body: await catalog.addMarket(ctxOf(req), { kind: 'creator', creator: user(req) }, params.packId, body),
    }),
    publish: async ({ params, req }) => ({
      status: 200,
      body: await catalog.publish({ kind: 'creator', creator: user(req) }, params.packId),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await catalog.get(params.packId, viewerOf(req)),
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
    enter: async ({ params, req }) => ({
      status: 201,
      body: await entries.enter(ctxOf(req), { ...user(req), region: regionOf(req) }, params.packId),
    }),
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
