import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { ClaimsService } from '../../areas/money/claims.service.js';
import { userOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

/** §4.4 claims of winnings and creator fees (rules in ClaimsService). */
export function moneyRoutes(deps: { claims: ClaimsService }) {
  const { claims } = deps;
  return s.router(marketsContract.money, {
    claimWinnings: async ({ body, req }) => ({
      status: 200,
      body: await claims.claimWinnings(ctxOf(req), userOf(req), body),
    }),
    creatorFees: async ({ query, req }) => ({ status: 200, body: await claims.creatorFees(userOf(req), query) }),
    claimFees: async ({ body, req }) => ({ status: 200, body: await claims.claimFees(ctxOf(req), userOf(req), body) }),
  });
}
