import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { ReferralsService } from '../../areas/money/referrals.service.js';
import { adminOf, userOf } from '../principal.js';

const s = initServer();

/** §4.5 the caller's referral analytics (rules in ReferralsService). */
export function referralRoutes(deps: { referrals: ReferralsService }) {
  const { referrals } = deps;
  return s.router(marketsContract.referrals, {
    mine: async ({ query, req }) => ({ status: 200, body: await referrals.ofReferrer(userOf(req).address, query) }),
  });
}

/** §4.16 referral and market-creation analytics for admins. */
export function referralAdminRoutes(deps: { referrals: ReferralsService }) {
  const { referrals } = deps;
  return s.router(marketsContract.referralsAdmin, {
    referrers: async ({ query, req }) => {
      adminOf(req);
      return { status: 200, body: await referrals.referrers(query) };
    },
    summary: async ({ query, req }) => {
      adminOf(req);
      return { status: 200, body: await referrals.summary(query) };
    },
    referrer: async ({ params, query, req }) => {
      adminOf(req);
      return { status: 200, body: await referrals.ofReferrer(params.address, query) };
    },
    marketCreation: async ({ params, query, req }) => {
      adminOf(req);
      return { status: 200, body: await referrals.marketCreation(params.address, query) };
    },
  });
}
