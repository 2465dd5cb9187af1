import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { Container } from '../../container.js';
import { adminOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

/** §4.16 market administration: writes in MarketAdminService, views in MarketAdminQueries (docs/admin-markets.md). */
export function adminMarketRoutes(settlement: Container['settlement']) {
  const { admin, adminQueries, resolution } = settlement;
  return s.router(marketsContract.adminMarket, {
    autoDistribute: async ({ body, req }) => ({
      status: 200,
      body: await admin.autoDistribute(adminOf(req), body.duelIds),
    }),
    cancelExpired: async ({ body, req }) => ({
      status: 200,
      body: await admin.cancelExpired(ctxOf(req), adminOf(req), body),
    }),
    discard: async ({ body, req }) => ({
      status: 200,
      body: await admin.discard(ctxOf(req), adminOf(req), body.duelIds, body.reason),
    }),
    finalizeContest: async ({ body, req }) => ({
      status: 200,
      body: await resolution.finalize(ctxOf(req), body, { actor: 'admin' }),
    }),
    duration: async ({ body, req }) => ({ status: 200, body: await admin.setDuration(adminOf(req), body) }),
    continueRefunds: async ({ params }) => ({ status: 200, body: await admin.continueRefunds(params.duelId) }),
    cancelled: async ({ query }) => ({ status: 200, body: await adminQueries.cancelled(query) }),
    expired: async ({ query }) => ({ status: 200, body: await adminQueries.expired(query, query.reason) }),
    contests: async ({ query }) => ({ status: 200, body: await adminQueries.contests(query, query.state) }),
    discardStatus: async ({ params }) => ({ status: 200, body: await adminQueries.discardStatus(params.duelId) }),
    duelContests: async ({ params, query }) => ({
      status: 200,
      body: await resolution.adminContests(params.duelId, query),
    }),
    duelParticipants: async ({ params, query }) => ({
      status: 200,
      body: await adminQueries.participants(params.duelId, query),
    }),
    pendingDuels: async ({ query }) => ({ status: 200, body: await adminQueries.pendingDuels(query) }),
    pendingDuelsCount: async () => ({ status: 200, body: await adminQueries.pendingCount() }),
    bootstrappingLive: async ({ query }) => ({
      status: 200,
      body: await adminQueries.bootstrappingLive(query, query.phase),
    }),
  });
}
