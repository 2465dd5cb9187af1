import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { BetsService, Trader } from '../../areas/markets/bets.service.js';
import { regionOf, userOf, viewerOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

/** The signed-in trader and where they are (the geo middleware resolved the region). */
function traderOf(req: Parameters<typeof userOf>[0]): Trader {
  const u = userOf(req);
  return { userId: u.userId, address: u.address, region: regionOf(req) };
}

/** §4.11 bets: quotes, placing, selling, holdings. */
export function betRoutes(deps: { bets: BetsService }) {
  const { bets } = deps;
  return s.router(marketsContract.bets, {
    estimatedWin: async ({ body, req }) => ({ status: 201, body: await bets.estimatedWin(userOf(req).address, body) }),
    estimateBuy: async ({ body, req }) => ({ status: 201, body: await bets.estimateBuy(traderOf(req), body) }),
    estimateSell: async ({ body, req }) => ({ status: 201, body: await bets.estimateSell(traderOf(req), body) }),
    sellUnlockLiquidity: async ({ params, req }) => ({
      status: 200,
      body: await bets.sellUnlockLiquidity(userOf(req).address, params.duelId),
    }),
    userShares: async ({ params, req }) => ({
      status: 200,
      body: await bets.userShares(userOf(req).address, params.duelId, params.address),
    }),
    userBetLimit: async ({ params }) => ({ status: 200, body: await bets.userBetLimit(params.address) }),
    create: async ({ body, req }) => ({ status: 201, body: await bets.placeBet(ctxOf(req), traderOf(req), body) }),
    sell: async ({ body, req }) => ({ status: 201, body: await bets.sell(ctxOf(req), traderOf(req), body) }),
    publicSellUnlockLiquidity: async ({ params, req }) => ({
      status: 200,
      body: await bets.sellUnlockLiquidity(viewerOf(req), params.duelId),
    }),
    publicEstimatedWin: async ({ body, req }) => ({
      status: 200,
      body: await bets.estimatedWin(viewerOf(req), body),
    }),
    // Public quotes price the pool without a holder: holdings are checked when selling.
    publicEstimateSell: async ({ body, req }) => ({
      status: 200,
      body: await bets.estimateSell(undefined, body, viewerOf(req)),
    }),
  });
}
