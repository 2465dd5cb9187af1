import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { marketsContract } from '@duelkit/contract';
import type { PriceHistoryService } from '../../areas/markets/price-history.service.js';
import { userOf } from '../principal.js';

const s = initServer();

// ts-rest narrows `req.query` to the parsed query (here with a number), which express's Request rejects.
const callerAddress = (req: Pick<Request, 'principal'>): string => userOf(req as Request).address;

/** §4.11 price history ("yes-percentage snapshots"). */
export function priceHistoryRoutes(deps: { priceHistory: PriceHistoryService }) {
  const { priceHistory } = deps;
  return s.router(marketsContract.priceHistory, {
    duel: async ({ params, query, req }) => ({
      status: 200,
      body: await priceHistory.duelHistory(params.duelId, query, callerAddress(req)),
    }),
    parent: async ({ params, query, req }) => ({
      status: 200,
      body: await priceHistory.parentHistory(params.parentMarketId, query, callerAddress(req)),
    }),
    publicDuel: async ({ params, query }) => ({
      status: 200,
      body: await priceHistory.duelHistory(params.duelId, query, null),
    }),
  });
}
