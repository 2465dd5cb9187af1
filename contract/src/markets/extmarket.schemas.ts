import { z } from 'zod';
import { AddressSchema, Bytes32Schema, TimestampSchema, TxHashSchema } from '../common/primitives.js';

/** Collateral and outcome shares upstream have 6 decimals: amounts here are 6-decimal base units. */
export const ExtAmountSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/, 'must be a non-negative integer in 6-decimal base units, as a decimal string')
  .describe('Amount in 6-decimal base units (pUSD, USDC.e, shares) as a decimal string, e.g. "1500000" = 1.5');

const PositiveExtAmountSchema = ExtAmountSchema.refine((v) => v !== '0', 'must be more than 0');

/** A decimal as the exchange writes prices and sizes ("0.42", "10", "12.5"). */
export const ExtDecimalSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,11})(\.[0-9]{1,6})?$/, 'must be a decimal with at most 6 decimals, e.g. "0.42"')
  .describe('Decimal string with at most 6 decimals');

export const ExtTokenIdSchema = z
  .string()
  .regex(/^[0-9]{1,78}$/, 'must be an outcome token id (a uint256 in decimal)')
  .describe('Outcome token id of the external market (uint256, decimal)');

export const ExtWalletKindSchema = z
  .enum(['deposit-wallet', 'safe'])
  .describe('Trading wallet: a deposit wallet (new users, signature type 3) or a Safe (existing users, type 2)');

export const ExtAuthStatusSchema = z
  .object({
    signerAddress: AddressSchema.nullable().describe(
      'The service-held EOA that signs for the caller upstream (null: none yet)',
    ),
    walletKind: ExtWalletKindSchema.nullable(),
    tradingWallet: AddressSchema.nullable().describe('The wallet that holds pUSD and shares upstream (null: none yet)'),
    hasCredentials: z.boolean().describe('Whether exchange credentials are stored (they are never returned)'),
    credentialsVersion: z.number().int().nonnegative().describe('Rotations so far (the L1 nonce of the current key)'),
    apiKeyActive: z
      .boolean()
      .nullable()
      .describe('Whether the exchange still lists the stored key (null: no credentials)'),
    closedOnly: z
      .boolean()
      .nullable()
      .describe('Whether the exchange restricts the account to closing orders (null: no credentials)'),
  })
  .strict();

export const ExtDeriveCredentialsRequestSchema = z
  .object({
    walletKind: ExtWalletKindSchema.optional().describe('Only on the first call; default deposit-wallet'),
  })
  .strict();

export const ExtEmptyRequestSchema = z.object({}).strict();

export const ExtWalletStatusSchema = z
  .object({
    walletKind: ExtWalletKindSchema,
    address: AddressSchema,
    deployed: z.boolean(),
    isTradingWallet: z.boolean().describe('Whether the caller trades from this wallet'),
  })
  .strict();

export const ExtRelayerStateSchema = z
  .enum(['STATE_NEW', 'STATE_EXECUTED', 'STATE_MINED', 'STATE_CONFIRMED', 'STATE_FAILED', 'STATE_INVALID'])
  .describe('Relayer state: NEW → EXECUTED → MINED → CONFIRMED (final), or FAILED / INVALID');

export const ExtRelayerTxSchema = z
  .object({
    transactionId: z.string().min(1).describe('Poll GET relayer-tx/{txId} until MINED or CONFIRMED'),
    transactionHash: TxHashSchema.nullable(),
    state: ExtRelayerStateSchema,
    type: z.string().describe('WALLET-CREATE, SAFE-CREATE, WALLET or SAFE'),
    operation: z
      .enum([
        'deploy-wallet',
        'deploy-safe',
        'approve-trading',
        'wrap-legacy-collateral',
        'withdraw',
        'withdraw-clob',
        'recover-funds',
        'redeem',
      ])
      .describe('Which route started it'),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .strict();

export const ExtTxIdParamsSchema = z.object({ txId: z.string().min(1).max(128) }).strict();

export const ExtApprovalStatusSchema = z
  .object({
    tradingWallet: AddressSchema,
    ready: z.boolean().describe('Every spender may move pUSD and shares: orders can be placed'),
    collateral: z.array(z.object({ spender: AddressSchema, allowance: ExtAmountSchema }).strict()),
    conditional: z.array(z.object({ spender: AddressSchema, approved: z.boolean() }).strict()),
  })
  .strict();

export const ExtBalanceSchema = z
  .object({
    tradingWallet: AddressSchema,
    token: AddressSchema.describe('pUSD'),
    balance: ExtAmountSchema.describe('pUSD free for new orders (held back by resting buy orders excluded)'),
  })
  .strict();

const WalletBalancesSchema = z
  .object({
    address: AddressSchema,
    pol: z
      .string()
      .regex(/^[0-9]+$/)
      .describe('POL in wei (18 decimals)'),
    usdcE: ExtAmountSchema,
    usdc: ExtAmountSchema,
    pUsd: ExtAmountSchema,
  })
  .strict();

export const ExtPolygonBalancesSchema = z
  .object({ signer: WalletBalancesSchema, tradingWallet: WalletBalancesSchema, managedWallet: WalletBalancesSchema })
  .strict();

export const ExtAmountRequestSchema = z.object({ amount: PositiveExtAmountSchema }).strict();

export const ExtDepositSchema = z
  .object({
    depositId: z.string().min(1).describe('The EVM deposit address; pass it to deposit-status'),
    tradingWallet: AddressSchema.describe('Receives the pUSD'),
    addresses: z.object({ evm: AddressSchema, svm: z.string(), btc: z.string() }).strict(),
  })
  .strict();

export const ExtDepositIdParamsSchema = z.object({ depositId: z.string().min(1).max(128) }).strict();

export const ExtBridgeTxSchema = z
  .object({
    fromChainId: z.string(),
    fromTokenAddress: z.string(),
    fromAmountBaseUnit: z.string().regex(/^[0-9]+$/),
    toChainId: z.string(),
    toTokenAddress: z.string(),
    status: z.enum(['DEPOSIT_DETECTED', 'PROCESSING', 'ORIGIN_TX_CONFIRMED', 'SUBMITTED', 'COMPLETED', 'FAILED']),
    txHash: z.string().nullable(),
    createdAt: TimestampSchema.nullable(),
  })
  .strict();

export const ExtDepositStatusSchema = z
  .object({ depositId: z.string(), completed: z.boolean(), transactions: z.array(ExtBridgeTxSchema) })
  .strict();

export const ExtWithdrawRequestSchema = z
  .object({
    amount: PositiveExtAmountSchema.describe('pUSD base units taken from the trading wallet'),
    toChainId: z
      .string()
      .regex(/^[0-9]{1,12}$/)
      .describe('Destination chain id'),
    toTokenAddress: z.string().min(1).max(128).describe('Token received on the destination chain'),
    recipientAddress: z.string().min(1).max(128).describe('Receiver on the destination chain'),
  })
  .strict();

export const ExtWithdrawSchema = z
  .object({
    withdrawalAddress: AddressSchema.describe('The bridge address the pUSD was sent to'),
    transaction: ExtRelayerTxSchema,
  })
  .strict();

export const ExtWithdrawClobRequestSchema = z
  .object({
    amount: PositiveExtAmountSchema.describe('pUSD base units moved from the trading wallet to the managed wallet'),
    unwrap: z.boolean().default(false).describe('Unwrap into USDC.e through the offramp on the way'),
  })
  .strict();

export const ExtRecoverFundsSchema = z
  .object({
    swept: z.array(z.object({ from: AddressSchema, token: AddressSchema, amount: ExtAmountSchema }).strict()),
    transactions: z.array(ExtRelayerTxSchema),
  })
  .strict();

export const ExtRedeemRequestSchema = z.object({ conditionId: Bytes32Schema.describe('The resolved market') }).strict();

export const ExtTickSizeQuerySchema = z.object({ tokenId: ExtTokenIdSchema }).strict();

export const ExtTickSizeSchema = z
  .object({
    tokenId: ExtTokenIdSchema,
    conditionId: Bytes32Schema,
    tickSize: ExtDecimalSchema,
    minOrderSize: ExtDecimalSchema.describe('Smallest order, in shares'),
    negRisk: z.boolean(),
  })
  .strict();

export const ExtSideSchema = z.enum(['BUY', 'SELL']);

export const ExtPlaceOrderRequestSchema = z
  .object({
    tokenId: ExtTokenIdSchema,
    side: ExtSideSchema,
    price: ExtDecimalSchema.describe('Limit price per share, on the market’s tick, within [tick, 1 − tick]'),
    size: ExtDecimalSchema.describe('Shares, at least the market’s minimum'),
    orderType: z.enum(['GTC', 'GTD', 'FOK', 'FAK']).default('GTC'),
    postOnly: z.boolean().default(false).describe('Refused when it would cross the book (GTC and GTD only)'),
    expiration: z.number().int().positive().optional().describe('Unix seconds; GTD only and required there'),
  })
  .strict();

export const ExtOrderPlacedSchema = z
  .object({
    orderId: z.string().min(1),
    status: z.enum(['live', 'matched', 'delayed', 'unmatched']),
    makingAmount: ExtDecimalSchema.describe('What the order gave in its fills (pUSD for a buy, shares for a sell)'),
    takingAmount: ExtDecimalSchema,
    tradeIds: z.array(z.string()),
    transactionHashes: z.array(z.string()),
  })
  .strict();

export const ExtOrderIdParamsSchema = z.object({ orderId: z.string().min(1).max(80) }).strict();

export const ExtCancelResultSchema = z
  .object({ canceled: z.array(z.string()), notCanceled: z.record(z.string(), z.string()) })
  .strict();

export const ExtMarketFilterQuerySchema = z
  .object({ market: Bytes32Schema.optional().describe('Condition id'), assetId: ExtTokenIdSchema.optional() })
  .strict();

export const ExtOpenOrderSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    market: z.string(),
    assetId: z.string(),
    side: ExtSideSchema,
    originalSize: ExtDecimalSchema,
    sizeMatched: ExtDecimalSchema,
    price: ExtDecimalSchema,
    outcome: z.string(),
    orderType: z.string(),
    expiration: z.string(),
    createdAt: TimestampSchema,
  })
  .strict();

export const ExtOrdersSchema = z.object({ orders: z.array(ExtOpenOrderSchema) }).strict();

export const ExtTradeSchema = z
  .object({
    id: z.string(),
    takerOrderId: z.string(),
    market: z.string(),
    assetId: z.string(),
    side: ExtSideSchema,
    size: ExtDecimalSchema,
    price: ExtDecimalSchema,
    status: z.enum(['MATCHED', 'MINED', 'CONFIRMED', 'RETRYING', 'FAILED']),
    matchTime: TimestampSchema,
    outcome: z.string(),
    traderSide: z.enum(['TAKER', 'MAKER']),
    transactionHash: z.string(),
  })
  .strict();

export const ExtTradesSchema = z.object({ trades: z.array(ExtTradeSchema) }).strict();

export const ExtPositionsQuerySchema = z
  .object({
    market: Bytes32Schema.optional(),
    redeemable: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional(),
  })
  .strict();

export const ExtPositionSchema = z
  .object({
    asset: z.string(),
    conditionId: z.string(),
    size: ExtDecimalSchema,
    avgPrice: ExtDecimalSchema,
    initialValue: ExtDecimalSchema,
    currentValue: ExtDecimalSchema,
    cashPnl: z.string().regex(/^-?[0-9]+(\.[0-9]+)?$/),
    realizedPnl: z.string().regex(/^-?[0-9]+(\.[0-9]+)?$/),
    curPrice: ExtDecimalSchema,
    redeemable: z.boolean(),
    title: z.string(),
    outcome: z.string(),
    outcomeIndex: z.number().int().nonnegative(),
    eventSlug: z.string(),
    negativeRisk: z.boolean(),
  })
  .strict();

export const ExtPositionsSchema = z
  .object({ tradingWallet: AddressSchema, positions: z.array(ExtPositionSchema) })
  .strict();

const ExtTagSchema = z.object({ id: z.string(), label: z.string(), slug: z.string() }).strict();

export const ExtEventSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    startDate: z.string(),
    live: z.boolean(),
    volume24hr: z.string().describe('24 h volume in USD, as the exchange reports it (decimal string)'),
    tags: z.array(ExtTagSchema),
    markets: z.array(
      z
        .object({
          conditionId: z.string(),
          question: z.string(),
          slug: z.string(),
          tokenIds: z.array(z.string()),
          outcomes: z.array(z.string()),
          outcomePrices: z.array(z.string()),
          negRisk: z.boolean(),
          tickSize: z.string(),
          minOrderSize: z.string(),
          active: z.boolean(),
          closed: z.boolean(),
        })
        .strict(),
    ),
  })
  .strict();

export const ExtEventsByTagsQuerySchema = z
  .object({
    tagIds: z
      .string()
      .regex(/^[0-9]+(,[0-9]+){0,19}$/, 'must be 1 to 20 comma-separated tag ids')
      .describe('Comma-separated tag ids, e.g. "1,100"'),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    offset: z.coerce.number().int().min(0).max(10_000).default(0),
  })
  .strict();

export const ExtEventsSchema = z.object({ events: z.array(ExtEventSchema), cachedAt: TimestampSchema }).strict();

export const ExtSportsMapSchema = z
  .object({
    sports: z.array(
      z
        .object({
          sport: z.string(),
          image: z.string(),
          resolution: z.string(),
          ordering: z.string(),
          tagIds: z.array(z.string()),
          series: z.string(),
        })
        .strict(),
    ),
    cachedAt: TimestampSchema,
  })
  .strict();

export const ExtPublicSearchQuerySchema = z
  .object({
    q: z.string().trim().min(1).max(100),
    limitPerType: z.coerce.number().int().min(1).max(50).default(5),
  })
  .strict();

export const ExtPublicSearchSchema = z
  .object({ events: z.array(ExtEventSchema), tags: z.array(ExtTagSchema), cachedAt: TimestampSchema })
  .strict();

export const ExtLiveScoresSchema = z
  .object({
    scores: z.array(
      z
        .object({
          gameId: z.number().int(),
          leagueAbbreviation: z.string(),
          slug: z.string(),
          homeTeam: z.string(),
          awayTeam: z.string(),
          status: z.string(),
          score: z.string(),
          period: z.string(),
          elapsed: z.string(),
          live: z.boolean(),
          ended: z.boolean(),
        })
        .strict(),
    ),
    asOf: TimestampSchema,
  })
  .strict();

export const ExtCardPricesRequestSchema = z
  .object({ tokenIds: z.array(ExtTokenIdSchema).min(1).max(100).describe('Up to 100 outcome tokens') })
  .strict();

export const ExtCardPricesSchema = z
  .object({
    prices: z.array(
      z
        .object({
          tokenId: ExtTokenIdSchema,
          buy: ExtDecimalSchema.nullable().describe('Best ask: what a buyer pays now (null: no asks)'),
          sell: ExtDecimalSchema.nullable().describe('Best bid: what a seller receives now (null: no bids)'),
          mid: ExtDecimalSchema.nullable(),
        })
        .strict(),
    ),
  })
  .strict();
