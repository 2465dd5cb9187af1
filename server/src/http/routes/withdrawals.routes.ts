import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { WithdrawalRequestService } from '../../areas/money/withdrawal-requests.service.js';
import type { WithdrawalService } from '../../areas/money/withdrawal.service.js';
import { DomainError } from '../../errors.js';
import { adminOf, userOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

/** §4.4 withdrawals, the daily limit and withdrawal requests (rules in WithdrawalService). */
export function withdrawalRoutes(deps: { withdrawals: WithdrawalService; requests: WithdrawalRequestService }) {
  const { withdrawals, requests } = deps;
  return s.router(marketsContract.withdrawals, {
    withdraw: async ({ body, req }) => ({
      status: 200,
      body: await withdrawals.withdraw(ctxOf(req), userOf(req), body),
    }),
    preValidate: async ({ body, req }) => ({
      status: 200,
      body: await withdrawals.preValidate(userOf(req), body),
    }),
    dailyLimit: async ({ query, req }) => {
      const caller = userOf(req);
      const user = query.user.toLowerCase();
      if (user !== caller.address.toLowerCase() && user !== caller.eoaAddress.toLowerCase()) {
        throw new DomainError('FORBIDDEN', 'The daily limit of another wallet is not yours to read', {
          details: { user: query.user },
        });
      }
      if (query.collateralMode !== query.collateralStack) {
        throw new DomainError('VALIDATION_FAILED', 'collateralMode must equal collateralStack', {
          fieldErrors: { 'query.collateralMode': [`must equal collateralStack (${query.collateralStack})`] },
        });
      }
      return { status: 200, body: await withdrawals.dailyLimit(caller.address, query.collateralStack) };
    },
    createRequest: async ({ body, req }) => ({
      status: 201,
      body: await requests.create(ctxOf(req), userOf(req), body),
    }),
    listRequests: async ({ query, req }) => ({ status: 200, body: await requests.listMine(userOf(req), query) }),
  });
}

/** §4.16 admin review of withdrawal requests. */
export function withdrawalAdminRoutes(deps: { requests: WithdrawalRequestService }) {
  const { requests } = deps;
  return s.router(marketsContract.withdrawalsAdmin, {
    list: async ({ query, req }) => {
      adminOf(req);
      return { status: 200, body: await requests.listAll(query) };
    },
    decide: async ({ params, body, req }) => ({
      status: 200,
      body: await requests.decide(adminOf(req), params.requestId, body),
    }),
  });
}
