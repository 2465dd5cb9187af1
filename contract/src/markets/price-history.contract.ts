import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  ParentPriceHistorySchema,
  PriceHistoryDuelParamsSchema,
  PriceHistoryParentParamsSchema,
  PriceHistoryQuerySchema,
  PriceHistorySchema,
} from './price-history.schemas.js';

const tag = 'Bets';

const bucketing =
  'Each point is the last price snapshot of its time bucket (30M: 1 min, 1H: 2 min, 6H: 10 min, 1D: 30 min, ' +
  '1W: 3 h, 1M: 12 h, ALL: adaptive), oldest first; the first point carries in the price at the window start. ' +
  'See docs/price-history.md.';

/** §4.11 price history ("yes-percentage snapshots") of a duel or of every child of a parent market. */
export const priceHistoryContract = c.router({
  duel: {
    method: 'GET',
    path: '/svc/user/bets/yes-percentage-snapshots/:duelId',
    pathParams: PriceHistoryDuelParamsSchema,
    query: PriceHistoryQuerySchema,
    responses: { 200: PriceHistorySchema },
    summary: 'Price history of a duel; a private duel for its creator and members',
    description: `${bucketing} PRIVATE_MARKET (403) when the duel is private and the caller may not see it.`,
    metadata: meta(tag, '4.11', 'bearer'),
  },
  parent: {
    method: 'GET',
    path: '/svc/user/bets/yes-percentage-snapshots/parent/:parentMarketId',
    pathParams: PriceHistoryParentParamsSchema,
    query: PriceHistoryQuerySchema,
    responses: { 200: ParentPriceHistorySchema },
    summary: 'Price histories of every child duel of a parent market, one series each',
    description:
      `${bucketing} Private children the caller may not see are left out; PRIVATE_MARKET (403) when that leaves none, ` +
      'NOT_FOUND when no duel has this parent.',
    metadata: meta(tag, '4.11', 'bearer'),
  },
  publicDuel: {
    method: 'GET',
    path: '/svc/public/bets/yes-percentage-snapshots/:duelId',
    pathParams: PriceHistoryDuelParamsSchema,
    query: PriceHistoryQuerySchema,
    responses: { 200: PriceHistorySchema },
    summary: 'Price history of a public duel',
    description: `${bucketing} A private duel answers PRIVATE_MARKET (403) unless a bearer token of its creator or a member is sent.`,
    metadata: meta(tag, '4.11', 'public', { personalised: true }),
  },
});
