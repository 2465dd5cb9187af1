import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { PriceHistoryService } from '../../areas/markets/price-history.service.js';
import { userOf, viewerOf } from '../principal.js';

const s = initServer();

/** §4.11 price history ("yes-percentage snapshots"). */
export function priceHistoryRoutes(deps: { priceHistory: PriceHistoryService }) {
  const { priceHistory } = deps;
  return s.router(marketsContract.priceHistory, {
    duel: async ({ params, query, req }) => ({
      status: 200,
      body: await priceHistory.duelHistory(params.duelId, query, userOf(req).address),
    }),
    parent: async ({ params, query, req }) => ({
      status: 200,
      body: await priceHistory.parentHistory(params.parentMarketId, query, userOf(req).address),
    }),
    publicDuel: async ({ params, query, req }) => ({
      status: 200,
      body: await priceHistory.duelHistory(params.duelId, query, viewerOf(req) ?? null),
    }),
  });
}
