import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  ExtAmountRequestSchema,
  ExtApprovalStatusSchema,
  ExtAuthStatusSchema,
  ExtBalanceSchema,
  ExtCancelResultSchema,
  ExtCardPricesRequestSchema,
  ExtCardPricesSchema,
  ExtDepositIdParamsSchema,
  ExtDepositSchema,
  ExtDepositStatusSchema,
  ExtDeriveCredentialsRequestSchema,
  ExtEmptyRequestSchema,
  ExtEventsByTagsQuerySchema,
  ExtEventsSchema,
  ExtLiveScoresSchema,
  ExtMarketFilterQuerySchema,
  ExtOrderIdParamsSchema,
  ExtOrderPlacedSchema,
  ExtOrdersSchema,
  ExtPlaceOrderRequestSchema,
  ExtPolygonBalancesSchema,
  ExtPositionsQuerySchema,
  ExtPositionsSchema,
  ExtPublicSearchQuerySchema,
  ExtPublicSearchSchema,
  ExtRecoverFundsSchema,
  ExtRedeemRequestSchema,
  ExtRelayerTxSchema,
  ExtSportsMapSchema,
  ExtTickSizeQuerySchema,
  ExtTickSizeSchema,
  ExtTradesSchema,
  ExtTxIdParamsSchema,
  ExtWalletStatusSchema,
  ExtWithdrawClobRequestSchema,
  ExtWithdrawRequestSchema,
  ExtWithdrawSchema,
} from './extmarket.schemas.js';

const BASE = '/svc/user/extmarket';
const TAG = 'External markets';

/**
 * §4.15 the external prediction-market passthrough: the caller trades on the external CLOB
 * (Polymarket V2) through the service, which holds the exchange keys. Refusals of the exchange come
 * back as EXTMARKET_* codes; an exchange that is down or rate limiting answers 503 with Retry-After.
 */
export const extmarketContract = c.router({
  deriveCredentials: {
    method: 'POST',
    path: `${BASE}/derive-credentials`,
    body: ExtDeriveCredentialsRequestSchema,
    responses: { 200: ExtAuthStatusSchema },
    summary: 'Derive and store the caller’s exchange credentials (L1); they are never returned',
    description:
      'Signs the exchange’s L1 (EIP-712) authentication with the caller’s trading signer and stores the L2 API key, secret and passphrase sealed; the answer says they exist, never what they are. Idempotent per caller: a second call answers the stored credentials. 503 EXTMARKET upstream codes when the exchange cannot be reached.',
    metadata: meta(TAG, '4.15', 'bearer', { idempotent: true }),
  },
  refreshCredentials: {
    method: 'POST',
    path: `${BASE}/refresh-credentials`,
    body: ExtEmptyRequestSchema,
    responses: { 200: ExtAuthStatusSchema },
    summary: 'Rotate the exchange credentials: revoke the stored key and derive one with the next nonce',
    description:
      'Revokes the stored API key at the exchange and derives a new one with the next nonce; the old key stops working at once. EXTMARKET_NO_CREDENTIALS (409) when none were derived.',
    metadata: meta(TAG, '4.15', 'bearer', { idempotent: true }),
  },
  authStatus: {
    method: 'GET',
    path: `${BASE}/auth-status`,
    responses: { 200: ExtAuthStatusSchema },
    summary: 'Which exchange credentials and wallets the service holds for the caller',
    description:
      'What the service holds for the caller: whether credentials exist (and since when), the signer address and the trading wallets, without any secret.',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  walletStatus: {
    method: 'GET',
    path: `${BASE}/wallet-status`,
    responses: { 200: ExtWalletStatusSchema },
    summary: 'The caller’s deposit wallet and whether it is deployed',
    description:
      'The caller’s deposit wallet address (derived even before deployment) and whether the relayer has deployed it.',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  safeStatus: {
    method: 'GET',
    path: `${BASE}/safe-status`,
    responses: { 200: ExtWalletStatusSchema },
    summary: 'The caller’s Safe and whether it is deployed',
    description: 'The caller’s Safe address and whether it is deployed; for accounts that trade through a Safe.',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  deployWallet: {
    method: 'POST',
    path: `${BASE}/deploy-wallet`,
    body: ExtEmptyRequestSchema,
    responses: { 200: ExtRelayerTxSchema },
    summary: 'Deploy the caller’s deposit wallet through the relayer',
    description:
      'Asks the relayer to deploy the caller’s deposit wallet and answers the relayer transaction to poll with relayer-tx (accepted, not final). EXTMARKET_WALLET_ALREADY_DEPLOYED (409) once it exists. Accepts Idempotency-Key.',
    metadata: meta(TAG, '4.15', 'bearer', { idempotent: true }),
  },
  deploySafe: {
    method: 'POST',
    path: `${BASE}/deploy-safe`,
    body: ExtEmptyRequestSchema,
    responses: { 200: ExtRelayerTxSchema },
    summary: 'Deploy the caller’s Safe through the relayer',
    description:
      'Asks the relayer to deploy the caller’s Safe and answers the relayer transaction to poll. EXTMARKET_WALLET_ALREADY_DEPLOYED (409) once it exists. Accepts Idempotency-Key.',
    metadata: meta(TAG, '4.15', 'bearer', { idempotent: true }),
  },
  approveTrading: {
    method: 'POST',
    path: `${BASE}/approve-trading`,
    body: ExtEmptyRequestSchema,
    responses: { 200: ExtRelayerTxSchema },
    summary: 'Approve the exchanges to move the trading wallet’s pUSD and shares',
    description:
      'Sends, through the relayer, the pUSD allowances and share operator approvals the exchange contracts need, skipping those already granted; answers the relayer transaction. EXTMARKET_WALLET_NOT_DEPLOYED (409) before deployment.',
    metadata: meta(TAG, '4.15', 'bearer', { idempotent: true }),
  },
  approvalStatus: {
    method: 'GET',
    path: `${BASE}/approval-status`,
    responses: { 200: ExtApprovalStatusSchema },
    summary: 'Allowances and operator approvals of the trading wallet',
    description: 'Each allowance and operator approval the trading wallet needs, and whether it is granted.',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  balance: {
    method: 'GET',
    path: `${BASE}/balance`,
    responses: { 200: ExtBalanceSchema },
    summary: 'pUSD of the trading wallet free for orders, as the exchange sees it',
    description:
      'The trading wallet’s pUSD as the exchange accounts it (6-decimal base units), with what open orders hold.',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  polygonBalances: {
    method: 'GET',
    path: `${BASE}/polygon-balances`,
    responses: { 200: ExtPolygonBalancesSchema },
    summary: 'POL, USDC.e, USDC and pUSD of the signer, trading and managed wallets on Polygon',
    description:
      'On-chain balances (POL, USDC.e, USDC, pUSD) of the caller’s signer, trading and managed wallets, in base units of each token.',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  wrapLegacyCollateral: {
    method: 'POST',
    path: `${BASE}/wrap-legacy-collateral`,
    body: ExtAmountRequestSchema,
    responses: { 200: ExtRelayerTxSchema },
    summary: 'Wrap USDC.e of the trading wallet into pUSD through the onramp',
    description:
      'Wraps the named amount of USDC.e in the trading wallet into pUSD through the onramp, via the relayer; answers the relayer transaction. EXTMARKET_INSUFFICIENT_BALANCE (400) when the wallet holds less.',
    metadata: meta(TAG, '4.15', 'bearer', { idempotent: true }),
  },
  deposit: {
    method: 'POST',
    path: `${BASE}/deposit`,
    body: ExtEmptyRequestSchema,
    responses: { 200: ExtDepositSchema },
    summary: 'Open bridge deposit addresses that credit pUSD to the trading wallet',
    description:
      'Opens (or answers the existing) bridge deposit addresses for the caller; what arrives there is credited to the trading wallet as pUSD. Accepts Idempotency-Key.',
    metadata: meta(TAG, '4.15', 'bearer', { idempotent: true }),
  },
  depositStatus: {
    method: 'GET',
    path: `${BASE}/deposit-status/:depositId`,
    pathParams: ExtDepositIdParamsSchema,
    responses: { 200: ExtDepositStatusSchema },
    summary: 'Bridge transfers seen at one of the caller’s deposit addresses',
    description:
      'The bridge transfers seen at one of the caller’s deposit addresses, with their state. EXTMARKET_DEPOSIT_NOT_FOUND (404) for an address that is not the caller’s.',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  withdraw: {
    method: 'POST',
    path: `${BASE}/withdraw`,
    body: ExtWithdrawRequestSchema,
    responses: { 200: ExtWithdrawSchema },
    summary: 'Send pUSD from the trading wallet out through the bridge',
    description:
      'Sends pUSD from the trading wallet to an outside address through the bridge; answers the bridge transfer to follow. EXTMARKET_INSUFFICIENT_BALANCE (400) when the free balance is short. Accepts Idempotency-Key; a retry never sends twice.',
    metadata: meta(TAG, '4.15', 'bearer', { idempotent: true }),
  },
  withdrawClob: {
    method: 'POST',
    path: `${BASE}/withdraw-clob`,
    body: ExtWithdrawClobRequestSchema,
    responses: { 200: ExtRelayerTxSchema },
    summary: 'Move pUSD from the trading wallet back to the managed wallet',
    description:
      'Moves pUSD from the trading wallet back to the caller’s managed wallet through the relayer. EXTMARKET_INSUFFICIENT_BALANCE (400) when the free balance is short. Accepts Idempotency-Key.',
    metadata: meta(TAG, '4.15', 'bearer', { idempotent: true }),
  },
  recoverFunds: {
    method: 'POST',
    path: `${BASE}/recover-funds`,
    body: ExtEmptyRequestSchema,
    responses: { 200: ExtRecoverFundsSchema },
    summary: 'Sweep USDC.e, USDC and pUSD left in the caller’s trading wallets to the managed wallet',
    description:
      'Sweeps USDC.e, USDC and pUSD left in any of the caller’s deployed trading wallets to the managed wallet, one relayer transaction per wallet with funds. Accepts Idempotency-Key.',
    metadata: meta(TAG, '4.15', 'bearer', { idempotent: true }),
  },
  redeem: {
    method: 'POST',
    path: `${BASE}/redeem`,
    body: ExtRedeemRequestSchema,
    responses: { 200: ExtRelayerTxSchema },
    summary: 'Redeem the trading wallet’s shares of a resolved market for pUSD',
    description:
      'Redeems the trading wallet’s winning shares of a resolved market for pUSD through the relayer. EXTMARKET_NOTHING_TO_REDEEM (409) when it holds none or the market is not resolved.',
    metadata: meta(TAG, '4.15', 'bearer', { idempotent: true }),
  },
  relayerTx: {
    method: 'GET',
    path: `${BASE}/relayer-tx/:txId`,
    pathParams: ExtTxIdParamsSchema,
    responses: { 200: ExtRelayerTxSchema },
    summary: 'State of a relayer transaction the caller started',
    description:
      'The state of a relayer transaction the caller started (NEW, EXECUTED, MINED, CONFIRMED or FAILED) with its hash once known. EXTMARKET_RELAYER_TX_NOT_FOUND (404) for another caller’s transaction.',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  tickSize: {
    method: 'GET',
    path: `${BASE}/tick-size`,
    query: ExtTickSizeQuerySchema,
    responses: { 200: ExtTickSizeSchema },
    summary: 'Tick size, minimum order size and neg-risk flag of an outcome token',
    description:
      'The outcome token’s tick size, minimum order size and neg-risk flag, which place-order checks before signing. EXTMARKET_TOKEN_UNKNOWN (404) for a token the exchange does not list.',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  placeOrder: {
    method: 'POST',
    path: `${BASE}/place-order`,
    body: ExtPlaceOrderRequestSchema,
    responses: { 200: ExtOrderPlacedSchema },
    summary: 'Sign and place an order on the external CLOB for the caller',
    description:
      'Checks price against the tick and size against the minimum (400 with the rule named), signs the V2 order with the caller’s key and posts it; the exchange’s refusals map to EXTMARKET_* codes (insufficient balance or allowance, post-only crossing, version mismatch). Accepts Idempotency-Key: a retry re-posts the same signed order, never a second one.',
    metadata: meta(TAG, '4.15', 'bearer', { idempotent: true }),
  },
  cancelOrder: {
    method: 'DELETE',
    path: `${BASE}/cancel-order/:orderId`,
    pathParams: ExtOrderIdParamsSchema,
    body: null,
    responses: { 200: ExtCancelResultSchema },
    summary: 'Cancel one of the caller’s open orders',
    description:
      'Cancels one of the caller’s open orders. EXTMARKET_ORDER_NOT_FOUND (404) for an unknown order or another caller’s.',
    metadata: meta(TAG, '4.15', 'bearer', { repeatable: true }),
  },
  cancelAll: {
    method: 'DELETE',
    path: `${BASE}/cancel-all`,
    body: null,
    responses: { 200: ExtCancelResultSchema },
    summary: 'Cancel every open order of the caller',
    description: 'Cancels every open order of the caller and answers which were cancelled.',
    metadata: meta(TAG, '4.15', 'bearer', { repeatable: true }),
  },
  orders: {
    method: 'GET',
    path: `${BASE}/orders`,
    query: ExtMarketFilterQuerySchema,
    responses: { 200: ExtOrdersSchema },
    summary: 'The caller’s open orders',
    description: 'The caller’s open orders, optionally for one market or token.',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  trades: {
    method: 'GET',
    path: `${BASE}/trades`,
    query: ExtMarketFilterQuerySchema,
    responses: { 200: ExtTradesSchema },
    summary: 'The caller’s trades with their settlement status',
    description: 'The caller’s trades with their settlement state (MATCHED, MINED, CONFIRMED).',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  positions: {
    method: 'GET',
    path: `${BASE}/positions`,
    query: ExtPositionsQuerySchema,
    responses: { 200: ExtPositionsSchema },
    summary: 'Positions of the caller’s trading wallet',
    description: 'Positions of the caller’s trading wallet: size, average price and current value per outcome token.',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  eventsByTags: {
    method: 'GET',
    path: `${BASE}/discovery/events-by-tags`,
    query: ExtEventsByTagsQuerySchema,
    responses: { 200: ExtEventsSchema },
    summary: 'Active events of the external market with any of the tags, by 24 h volume',
    description:
      'Active events carrying any of the tag ids, ordered by 24 h volume, from the market-data API (cached 30 s).',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  sportsMap: {
    method: 'GET',
    path: `${BASE}/discovery/sports-map`,
    responses: { 200: ExtSportsMapSchema },
    summary: 'Sports of the external market with their tag ids and series',
    description: 'The external market’s sports with their tag ids and series, for building sport filters (cached 1 h).',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  publicSearch: {
    method: 'GET',
    path: `${BASE}/discovery/public-search`,
    query: ExtPublicSearchQuerySchema,
    responses: { 200: ExtPublicSearchSchema },
    summary: 'Search events and tags of the external market',
    description: 'Events and tags matching the query, from the external market’s public search (cached 30 s).',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  liveScores: {
    method: 'GET',
    path: `${BASE}/discovery/live-scores`,
    responses: { 200: ExtLiveScoresSchema },
    summary: 'Snapshot of the external market’s live-score feed',
    description:
      'The latest snapshot of the external market’s live-score feed, kept by one reconnecting socket per server.',
    metadata: meta(TAG, '4.15', 'bearer'),
  },
  cardPrices: {
    method: 'POST',
    path: `${BASE}/discovery/card-prices`,
    body: ExtCardPricesRequestSchema,
    responses: { 200: ExtCardPricesSchema },
    summary: 'Best ask, best bid and midpoint of up to 100 tokens in one call',
    description:
      'Best ask, best bid and midpoint of up to 100 outcome tokens in one call, for price cards (cached 2 s).',
    metadata: meta(TAG, '4.15', 'bearer', { repeatable: true }),
  },
});
