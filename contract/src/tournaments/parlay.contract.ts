import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  ParlayAddressParamsSchema,
  ParlayConditionListSchema,
  ParlayConditionsQuerySchema,
  ParlayEuropeanSaturdaySchema,
  ParlayFeePreviewParamsSchema,
  ParlayFeePreviewSchema,
  ParlayFeesConfigSchema,
  ParlayLegsBodySchema,
  ParlayLegsValidationSchema,
  ParlayMarketDetailSchema,
  ParlayMarketIdSchema,
  ParlayMarketListSchema,
  ParlayNonceSchema,
  ParlayOddsParamsSchema,
  ParlayOddsSchema,
  ParlayPlayerPropsSchema,
  ParlayQuoteParamsSchema,
  ParlayQuoteRequestSchema,
  ParlayQuoteSchema,
  ParlayQuoteValidateBodySchema,
  ParlayQuoteValidationSchema,
  ParlaySameTeamRunQuerySchema,
  ParlaySameTeamRunSchema,
  ParlaySgpMenuSchema,
} from './parlay.schemas.js';
import { z } from 'zod';

const tag = 'Parlay';
const base = '/api/parlay';
const read = meta(tag, '4.17', 'optional-bearer');
const check = meta(tag, '4.17', 'jwt-or-wallet', { repeatable: true });
const MarketParams = z.object({ marketId: ParlayMarketIdSchema });

/**
 * §4.17 parlays: the catalogue (games of the sports provider as markets with conditions), the
 * same-game menu, ready-made builders, leg checks and EIP-712 signed quotes held against the
 * liquidity pool's risk limits. The rules and formulas are in docs/parlays.md.
 */
export const parlayContract = c.router({
  markets: {
    method: 'GET',
    path: `${base}/markets`,
    responses: { 200: ParlayMarketListSchema },
    summary: 'Games open to parlays, earliest first',
    description:
      'Games of the configured leagues kicking off within the catalogue window; `status` closes a lead before kick-off.',
    metadata: read,
  },
  market: {
    method: 'GET',
    path: `${base}/markets/:marketId`,
    pathParams: MarketParams,
    responses: { 200: ParlayMarketDetailSchema },
    summary: 'A game with its conditions and their odds',
    description: '404 NOT_FOUND for a fixture the provider does not know or of a league outside the catalogue.',
    metadata: read,
  },
  playerProps: {
    method: 'GET',
    path: `${base}/markets/:marketId/player-props`,
    pathParams: MarketParams,
    responses: { 200: ParlayPlayerPropsSchema },
    summary: 'A game’s player props (anytime goalscorer)',
    description: 'One condition per player with outcome 0 (scores); 404 NOT_FOUND for a market outside the catalogue.',
    metadata: read,
  },
  sgpMenu: {
    method: 'GET',
    path: `${base}/markets/:marketId/sgp-menu`,
    pathParams: MarketParams,
    responses: { 200: ParlaySgpMenuSchema },
    summary: 'The legs of one game that may share a ticket, and the same-game rules',
    description:
      'The full-time result and goalscorer props of distinct players combine; the goals line combines only with other games. 404 NOT_FOUND for a market outside the catalogue.',
    metadata: read,
  },
  conditions: {
    method: 'GET',
    path: `${base}/conditions`,
    query: ParlayConditionsQuerySchema,
    responses: { 200: ParlayConditionListSchema },
    summary: 'Bettable conditions (bytes32 ids) of the catalogue, or of one market',
    description:
      'Every condition of the games in the catalogue window, or of `marketId` alone; each `conditionId` is a left-padded bytes32.',
    metadata: read,
  },
  odds: {
    method: 'GET',
    path: `${base}/odds/:marketId`,
    pathParams: ParlayOddsParamsSchema,
    responses: { 200: ParlayOddsSchema },
    summary: 'Current odds of a market’s conditions, or of one condition',
    description:
      'Odds as the provider prices them now (before the ticket margin). 404 NOT_FOUND for a market outside the catalogue or a condition the game does not have.',
    metadata: read,
  },
  europeanSaturday: {
    method: 'GET',
    path: `${base}/builders/european-saturday`,
    responses: { 200: ParlayEuropeanSaturdaySchema },
    summary: 'A ready Saturday accumulator: the favourite of each of the day’s first open games',
    description:
      'Up to four games on the next Saturday (UTC), leagues taken in turn, one leg per game. See docs/parlays.md.',
    metadata: read,
  },
  sameTeamRun: {
    method: 'GET',
    path: `${base}/builders/same-team-run`,
    query: ParlaySameTeamRunQuerySchema,
    responses: { 200: ParlaySameTeamRunSchema },
    summary: 'A ready run: one team to win each of its next open games (up to three)',
    description: '404 NOT_FOUND when the team has no open game in the next seven days.',
    metadata: read,
  },
  validateLegs: {
    method: 'POST',
    path: `${base}/legs/validate`,
    body: ParlayLegsBodySchema,
    responses: { 200: ParlayLegsValidationSchema },
    summary: 'Whether legs may go on one ticket, with every problem per leg',
    description:
      '422 LEGS_INVALID with `fieldErrors` naming each problem: count, unknown or closed conditions, unknown outcomes, duplicates, two outcomes of one condition, same-game combinations outside the menu.',
    metadata: check,
  },
  quote: {
    method: 'POST',
    path: `${base}/quote`,
    body: ParlayQuoteRequestSchema,
    responses: { 201: ParlayQuoteSchema },
    summary: 'A signed quote bound to the bettor, a nonce and an expiry',
    description:
      'The bettor must be the caller’s wallet (403 QUOTE_NOT_YOURS). The quote holds its exposure on the pool until it expires. ' +
      '422 LEGS_INVALID, 422 PARLAY_LIMIT (`details.limit`: minStake, maxOdds, maxPayout), 409 EXPOSURE_LIMIT (`details.limit`: perOutcome, perGame, poolShare); ' +
      '503 SERVICE_UNAVAILABLE when no ticket contract is configured.',
    metadata: meta(tag, '4.17', 'jwt-or-wallet', { idempotent: true }),
  },
  validateQuote: {
    method: 'POST',
    path: `${base}/quote/validate`,
    body: ParlayQuoteValidateBodySchema,
    responses: { 200: ParlayQuoteValidationSchema },
    summary: 'Re-check a signed quote before placing it',
    description:
      'QUOTE_INVALID (a field changed after signing, or never issued), QUOTE_NOT_YOURS (another bettor), NONCE_USED, QUOTE_EXPIRED, LEGS_INVALID (a leg closed), ODDS_DRIFTED.',
    metadata: check,
  },
  getQuote: {
    method: 'GET',
    path: `${base}/quote/:quoteId`,
    pathParams: ParlayQuoteParamsSchema,
    responses: { 200: ParlayQuoteSchema },
    summary: 'A quote as issued, with its status',
    description: '`status` is quoted, expired (the clock passed expiresAt) or placed. 404 NOT_FOUND for an unknown id.',
    metadata: read,
  },
  nonce: {
    method: 'GET',
    path: `${base}/users/:address/nonce`,
    pathParams: ParlayAddressParamsSchema,
    responses: { 200: ParlayNonceSchema },
    summary: 'The nonce the bettor’s next quote will carry',
    description: 'Each quote takes the next nonce; a ticket contract accepts a nonce once.',
    metadata: read,
  },
  feesConfig: {
    method: 'GET',
    path: `${base}/fees/config`,
    responses: { 200: ParlayFeesConfigSchema },
    summary: 'Fee, margin and ticket limits',
    description:
      'The protocol fee on a stake and the margin on a ticket’s odds (basis points), with the ticket limits a quote enforces.',
    metadata: read,
  },
  feesPreview: {
    method: 'GET',
    path: `${base}/fees/preview/:amount`,
    pathParams: ParlayFeePreviewParamsSchema,
    responses: { 200: ParlayFeePreviewSchema },
    summary: 'The fee on a stake and what remains, to the base unit',
    description: 'fee = ⌊amount × feeBps / 10000⌋, netStake = amount − fee; 400 for an amount that is not base units.',
    metadata: read,
  },
});
