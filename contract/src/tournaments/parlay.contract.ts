import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  ParlayAddressParamsSchema,
  ParlayClaimSchema,
  ParlayFeeStatsSchema,
  ParlayHistoryQuerySchema,
  ParlayTicketListQuerySchema,
  ParlayTicketListSchema,
  ParlayTicketParamsSchema,
  ParlayTicketSchema,
  ParlayTicketStatusViewSchema,
  ParlayUserStatsSchema,
  ParlayWinningsQuerySchema,
  ParlayWinningsSchema,
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
  feesStats: {
    method: 'GET',
    path: `${base}/fees/stats`,
    responses: { 200: ParlayFeeStatsSchema },
    summary: 'Fees earned, pending and refunded over every indexed ticket',
    description:
      'A ticket’s fee (⌊stake × feeBps / 10000⌋) is earned when it settles won or lost, pending while it is open, and refunded with the stake when every leg is void. Public; never refuses.',
    metadata: read,
  },
  tickets: {
    method: 'GET',
    path: `${base}/tickets`,
    query: ParlayTicketListQuerySchema,
    responses: { 200: ParlayTicketListSchema },
    summary: 'The caller’s tickets (or a bettor’s), newest first',
    description:
      'Tickets indexed from the ticket contract, optionally of one `status`. Without `bettor`, the caller’s wallets (a bearer token’s managed and signing wallets, or a wallet credential’s); ' +
      '400 VALIDATION_FAILED with neither, or for a malformed address or status.',
    metadata: read,
  },
  history: {
    method: 'GET',
    path: `${base}/history`,
    query: ParlayHistoryQuerySchema,
    responses: { 200: ParlayTicketListSchema },
    summary: 'Settled tickets (won, lost, void, claimed), newest first',
    description: 'As /tickets without the open ones; 400 VALIDATION_FAILED without `bettor` or a caller.',
    metadata: read,
  },
  winnings: {
    method: 'GET',
    path: `${base}/winnings`,
    query: ParlayWinningsQuerySchema,
    responses: { 200: ParlayWinningsSchema },
    summary: 'What won and refunded tickets are owed, claimed and still to claim',
    description:
      'Totals over the bettor’s settled tickets and the tickets that can be claimed now; 400 VALIDATION_FAILED without `bettor` or a caller.',
    metadata: read,
  },
  bettor: {
    method: 'GET',
    path: `${base}/bettor/:address`,
    pathParams: ParlayAddressParamsSchema,
    query: ParlayHistoryQuerySchema.omit({ bettor: true }),
    responses: { 200: ParlayTicketListSchema },
    summary: 'A bettor’s tickets, newest first',
    description: 'Public. 400 VALIDATION_FAILED for a malformed address.',
    metadata: read,
  },
  userStats: {
    method: 'GET',
    path: `${base}/users/:address/stats`,
    pathParams: ParlayAddressParamsSchema,
    responses: { 200: ParlayUserStatsSchema },
    summary: 'A bettor’s tickets by status, stakes, fees, winnings and PnL',
    description: 'pnl = won + refunded − staked. Public; 400 VALIDATION_FAILED for a malformed address.',
    metadata: read,
  },
  ticket: {
    method: 'GET',
    path: `${base}/ticket/:ticketId`,
    pathParams: ParlayTicketParamsSchema,
    responses: { 200: ParlayTicketSchema },
    summary: 'A ticket with its legs and their results',
    description: '404 NOT_FOUND until the placement is indexed (or for an unknown id); 400 for a malformed id.',
    metadata: read,
  },
  status: {
    method: 'GET',
    path: `${base}/status/:ticketId`,
    pathParams: ParlayTicketParamsSchema,
    responses: { 200: ParlayTicketStatusViewSchema },
    summary: 'A ticket’s status and how many of its legs have results',
    description: '404 NOT_FOUND until the placement is indexed; 400 for a malformed id.',
    metadata: read,
  },
  claim: {
    method: 'POST',
    path: `${base}/claim/:ticketId`,
    pathParams: ParlayTicketParamsSchema,
    body: z.object({}).strict().optional(),
    responses: { 200: ParlayClaimSchema },
    summary: 'Claim a won or refunded ticket: the platform submits the claim, the contract pays the bettor',
    description:
      'The caller must be the ticket’s bettor (403 FORBIDDEN). 404 NOT_FOUND for an unknown ticket; 409 TICKET_NOT_SETTLED while a leg waits for its result; ' +
      '409 TICKET_NOT_CLAIMABLE for a lost ticket; 409 ALREADY_CLAIMED once paid. Honours Idempotency-Key; answers once the claim is recorded and sent (not yet mined).',
    metadata: meta(tag, '4.17', 'jwt-or-wallet', { idempotent: true }),
  },
  // Last: `/:ticketId` would otherwise shadow the literal paths above.
  byId: {
    method: 'GET',
    path: `${base}/:ticketId`,
    pathParams: ParlayTicketParamsSchema,
    responses: { 200: ParlayTicketSchema },
    summary: 'A ticket by id (the same as /ticket/{ticketId})',
    description: '404 NOT_FOUND until the placement is indexed; 400 for a malformed id.',
    metadata: read,
  },
});
