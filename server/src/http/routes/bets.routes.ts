import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { GeoGate } from '../../platform/geo/geo-gate.js';
import type { BetsService } from '../../areas/markets/bets.service.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { userOf } from '../principal.js';
import { optionalCaller } from './duels.routes.js';

const s = initServer();

/** §4.11 bets: quotes, placing, selling, holdings. */
export function betRoutes(deps: { bets: BetsService; authenticator: Authenticator; geo: GeoGate }) {
  const { bets, authenticator, geo } = deps;
  const trader = (req: Parameters<typeof userOf>[0]) => {
    const u = userOf(req);
    return {
      userId: u.userId,
      address: u.address,
      assertCollateral: (stack: 'usdc' | 'credits') => geo.assertAllowed(stack, req),
    };
  };
  return s.router(marketsContract.bets, {
    estimatedWin: async ({ body, req }) => ({ status: 201, body: await bets.estimatedWin(userOf(req).address, body) }),
    estimateBuy: async ({ body, req }) => ({ status: 201, body: await bets.estimateBuy(trader(req), body) }),
    estimateSell: async ({ body, req }) => ({ status: 201, body: await bets.estimateSell(trader(req), body) }),
    sellUnlockLiquidity: async ({ params, req }) => ({
      status: 200,
      body: await bets.sellUnlockLiquidity(userOf(req).address, params.duelId),
    }),
    userShares: async ({ params, req }) => ({
      status: 200,
      body: await bets.userShares(userOf(req).address, params.duelId, params.address),
    }),
    userBetLimit: async ({ params }) => ({ status: 200, body: await bets.userBetLimit(params.address) }),
    create: async ({ body, req }) => ({ status: 201, body: await bets.placeBet(trader(req), body) }),
    sell: async ({ body, req }) => ({ status: 201, body: await bets.sell(trader(req), body) }),
    publicSellUnlockLiquidity: async ({ params, req }) => ({
      status: 200,
      body: await bets.sellUnlockLiquidity(await optionalCaller(authenticator, req), params.duelId),
    }),
    publicEstimatedWin: async ({ body, req }) => ({
      status: 200,
      body: await bets.estimatedWin(await optionalCaller(authenticator, req), body),
    }),
    publicEstimateSell: async ({ body, req }) => {
      const caller = await optionalCaller(authenticator, req);
      // Public quotes price the pool without a holder: holdings are checked when selling.
      return { status: 200, body: await bets.estimateSell(undefined, body, caller) };
    },
  });
}
