import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  AddressParamsSchema,
  CreateBetRequestSchema,
  CreateBetResponseSchema,
  DuelIdAddressParamsSchema,
  EstimateBuyRequestSchema,
  EstimateBuyResponseSchema,
  EstimatedWinRequestSchema,
  EstimatedWinResponseSchema,
  EstimateSellRequestSchema,
  EstimateSellResponseSchema,
  SellBetRequestSchema,
  SellBetResponseSchema,
  SellUnlockLiquidityResponseSchema,
  UserBetLimitResponseSchema,
  UserSharesResponseSchema,
} from './bets.schemas.js';
import { DuelIdParamsSchema } from './duels.schemas.js';

const tag = 'Bets';

const estimateNote =
  'A well-formed request the market cannot honour (below the 5-unit minimum, market not tradable, limit exceeded, ' +
  'not enough shares) answers `{ success: false, code, message }`; malformed input is a 400.';

/** §4.11 trading against the market maker: quotes, bets, sells, holdings and limits. */
export const betsContract = c.router({
  estimatedWin: {
    method: 'POST',
    path: '/svc/user/bets/estimated-win',
    body: EstimatedWinRequestSchema,
    responses: { 201: EstimatedWinResponseSchema },
    summary: 'Payout if the option wins, for a stake at the current pool state',
    metadata: meta(tag, '4.11', 'bearer', { repeatable: true }),
  },
  estimateBuy: {
    method: 'POST',
    path: '/svc/user/bets/estimate-buy',
    body: EstimateBuyRequestSchema,
    responses: { 201: EstimateBuyResponseSchema },
    summary: 'Quote a bet: shares out, slippage floor, prices before and after, fee',
    description: estimateNote,
    metadata: meta(tag, '4.11', 'bearer', { repeatable: true, geo: { collateralFrom: 'market' } }),
  },
  estimateSell: {
    method: 'POST',
    path: '/svc/user/bets/estimate-sell',
    body: EstimateSellRequestSchema,
    responses: { 201: EstimateSellResponseSchema },
    summary: 'Quote a sale of shares the caller holds',
    description: estimateNote,
    metadata: meta(tag, '4.11', 'bearer', { repeatable: true, geo: { collateralFrom: 'market' } }),
  },
  sellUnlockLiquidity: {
    method: 'GET',
    path: '/svc/user/bets/sell-unlock-liquidity/:duelId',
    pathParams: DuelIdParamsSchema,
    responses: { 200: SellUnlockLiquidityResponseSchema },
    summary: 'How much collateral sales of each option can release now',
    metadata: meta(tag, '4.11', 'bearer'),
  },
  userShares: {
    method: 'GET',
    path: '/svc/user/bets/user-shares/:duelId/:address',
    pathParams: DuelIdAddressParamsSchema,
    responses: { 200: UserSharesResponseSchema },
    summary: 'Shares a wallet holds in a market (indexed from the chain)',
    metadata: meta(tag, '4.11', 'bearer'),
  },
  userBetLimit: {
    method: 'GET',
    path: '/svc/user/bets/user-bet-limit/:address',
    pathParams: AddressParamsSchema,
    responses: { 200: UserBetLimitResponseSchema },
    summary: 'A wallet’s exposure limit and what remains of it',
    metadata: meta(tag, '4.11', 'bearer'),
  },
  create: {
    method: 'POST',
    path: '/svc/user/bets/create',
    body: CreateBetRequestSchema,
    responses: { 201: CreateBetResponseSchema },
    summary: 'Place a bet from an estimate; accepted, not final',
    description:
      'Re-prices against the live pool and rejects only when the live shares fall below `estimate.minSharesOut` (SLIPPAGE_EXCEEDED). ' +
      'Send an Idempotency-Key: a retry replays the first answer and never places a second bet.',
    metadata: meta(tag, '4.11', 'bearer', { idempotent: true, geo: { collateralFrom: 'market' } }),
  },
  sell: {
    method: 'POST',
    path: '/svc/user/bets/sell',
    body: SellBetRequestSchema,
    responses: { 201: SellBetResponseSchema },
    summary: 'Sell shares from an estimate; accepted, not final',
    description: 'Rejects only when the live return falls below `estimate.minAmountOut`. Honours Idempotency-Key.',
    metadata: meta(tag, '4.11', 'bearer', { idempotent: true, geo: { collateralFrom: 'market' } }),
  },
  publicSellUnlockLiquidity: {
    method: 'GET',
    path: '/svc/public/bets/sell-unlock-liquidity/:duelId',
    pathParams: DuelIdParamsSchema,
    responses: { 200: SellUnlockLiquidityResponseSchema },
    summary: 'How much collateral sales of each option can release now (public markets)',
    metadata: meta(tag, '4.11', 'public', { personalised: true }),
  },
  publicEstimatedWin: {
    method: 'POST',
    path: '/svc/public/bets/estimated-win',
    body: EstimatedWinRequestSchema,
    responses: { 200: EstimatedWinResponseSchema },
    summary: 'Payout if the option wins (public markets)',
    metadata: meta(tag, '4.11', 'public', { repeatable: true, personalised: true }),
  },
  publicEstimateSell: {
    method: 'POST',
    path: '/svc/public/bets/estimate-sell',
    body: EstimateSellRequestSchema,
    responses: { 200: EstimateSellResponseSchema },
    summary: 'Quote a sale of shares (public markets; holdings are not checked)',
    description: estimateNote,
    metadata: meta(tag, '4.11', 'public', { repeatable: true, personalised: true }),
  },
});
