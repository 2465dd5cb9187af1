import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  LpAddQuoteBodySchema,
  LpAddQuoteSchema,
  LpAddressParamsSchema,
  LpApySchema,
  LpBettorExposureSchema,
  LpCompartmentListSchema,
  LpExposureBreakdownSchema,
  LpPoolSchema,
  LpPositionSchema,
  LpRemoveQuoteBodySchema,
  LpRemoveQuoteSchema,
} from './lp.schemas.js';

const tag = 'Liquidity pool';
const base = '/api/lp';
const read = meta(tag, '4.17', 'optional-bearer');
const quote = meta(tag, '4.17', 'jwt-or-wallet', { repeatable: true });

/**
 * §4.17 the liquidity pool behind every parlay ticket: its cash, NAV and share price, the
 * exposure live quotes and tickets hold, LP positions, and quotes for adding and removing
 * liquidity. The formulas are in docs/liquidity-pool.md.
 */
export const lpContract = c.router({
  pool: {
    method: 'GET',
    path: `${base}/pool`,
    responses: { 200: LpPoolSchema },
    summary: 'Cash, NAV, share price, locked exposure and free liquidity',
    description:
      'NAV = cash − expected liability of open tickets; free liquidity = cash − exposure held by live quotes and tickets (docs/liquidity-pool.md).',
    metadata: read,
  },
  apy: {
    method: 'GET',
    path: `${base}/apy`,
    responses: { 200: LpApySchema },
    summary: 'APY from realised results over a trailing window',
    description: 'Realised results of the last 30 days against today’s NAV, annualised, in basis points.',
    metadata: read,
  },
  exposureBreakdown: {
    method: 'GET',
    path: `${base}/exposure-breakdown`,
    responses: { 200: LpExposureBreakdownSchema },
    summary: 'Live exposure per (condition, outcome) and per game, against their caps',
    description:
      'Exposure of live quotes and open tickets: in full on each (condition, outcome) of a ticket’s legs, once per game.',
    metadata: read,
  },
  bettorExposure: {
    method: 'GET',
    path: `${base}/bettor/:address/exposure`,
    pathParams: LpAddressParamsSchema,
    responses: { 200: LpBettorExposureSchema },
    summary: 'The exposure one bettor’s live quotes and tickets hold',
    description: 'The bettor’s share of the exposure breakdown, with how many quotes and tickets hold it.',
    metadata: read,
  },
  position: {
    method: 'GET',
    path: `${base}/position/:address`,
    pathParams: LpAddressParamsSchema,
    responses: { 200: LpPositionSchema },
    summary: 'An LP’s shares, their value now, and its lockup',
    description:
      'value = shares at the current share price; pnl = value + withdrawn − deposited; lockedUntil is null once the lockup has passed.',
    metadata: read,
  },
  addLiquidityQuote: {
    method: 'POST',
    path: `${base}/add-liquidity/quote`,
    body: LpAddQuoteBodySchema,
    responses: { 200: LpAddQuoteSchema },
    summary: 'Shares an amount buys now, and the lockup it starts',
    description: 'VALIDATION_FAILED for an amount of zero or too small for one share.',
    metadata: quote,
  },
  removeLiquidityQuote: {
    method: 'POST',
    path: `${base}/remove-liquidity/quote`,
    body: LpRemoveQuoteBodySchema,
    responses: { 200: LpRemoveQuoteSchema },
    summary: 'What redeeming shares of the caller’s position pays now',
    description:
      'INSUFFICIENT_SHARES beyond the position; 409 LIQUIDITY_LOCKED while the position is in its lockup (`details.reason` lockup) or when live exposure holds the liquidity (`details.reason` exposure).',
    metadata: quote,
  },
  compartments: {
    method: 'GET',
    path: `${base}/compartments`,
    responses: { 200: LpCompartmentListSchema },
    summary: 'The pool’s liability compartments: tickets by the week they were placed in',
    description:
      'One compartment per ISO week of placement, newest first (at most 52): its tickets, the exposure and expected liability its open tickets hold, and the result its settled tickets realised. ' +
      'Capital is one ERC-4626 pool; compartments report where its liability sits (docs/liquidity-pool.md). Public; never refuses.',
    metadata: read,
  },
});
