import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  MarketCreationSchema,
  ReferralAddressParamsSchema,
  ReferralAnalyticsSchema,
  ReferralQuerySchema,
  ReferralSummarySchema,
  ReferrerListSchema,
} from './referrals.schemas.js';

const definition =
  'A referee of an address is a wallet that joined a private market through an invitation that address created; ' +
  'the invite volume is what referees traded in the markets they were invited to (docs/money.md).';

/** §4.5 the caller's referral analytics. */
export const referralsContract = c.router({
  mine: {
    method: 'GET',
    path: '/svc/user/referral-analytics',
    query: ReferralQuerySchema,
    responses: { 200: ReferralAnalyticsSchema },
    summary: 'People you referred through your invitations and their volume',
    description: `Totals and a page of referees of the caller's managed wallet, by volume. ${definition}`,
    metadata: meta('Referrals', '4.5', 'bearer'),
  },
});

/** §4.16 referral and market-creation analytics for admins. */
export const referralsAdminContract = c.router({
  referrers: {
    method: 'GET',
    path: '/svc/admin/referral-analytics',
    query: ReferralQuerySchema,
    responses: { 200: ReferrerListSchema },
    summary: 'Every referrer with their referees, invitations and invite volume, by volume',
    description: definition,
    metadata: meta('Admin referrals', '4.16', 'admin'),
  },
  summary: {
    method: 'GET',
    path: '/svc/admin/referral-analytics/summary',
    query: ReferralQuerySchema.pick({ collateralStack: true }),
    responses: { 200: ReferralSummarySchema },
    summary: 'Platform totals of referrers, referees, invitations and invite volume',
    description: definition,
    metadata: meta('Admin referrals', '4.16', 'admin'),
  },
  referrer: {
    method: 'GET',
    path: '/svc/admin/referral-analytics/referrer/:address',
    pathParams: ReferralAddressParamsSchema,
    query: ReferralQuerySchema,
    responses: { 200: ReferralAnalyticsSchema },
    summary: 'One referrer’s referees and totals (what the referrer sees of itself)',
    description: `An address with no referees answers zero totals and an empty page. ${definition}`,
    metadata: meta('Admin referrals', '4.16', 'admin'),
  },
  marketCreation: {
    method: 'GET',
    path: '/svc/admin/referral-analytics/market-creation/:address',
    pathParams: ReferralAddressParamsSchema,
    query: ReferralQuerySchema,
    responses: { 200: MarketCreationSchema },
    summary: 'Markets an address created: totals by status, volume, invitations, and a page of markets',
    description: 'Newest markets first. An address that created nothing answers zero totals and an empty page.',
    metadata: meta('Admin referrals', '4.16', 'admin'),
  },
});
