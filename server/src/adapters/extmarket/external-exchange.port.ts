import type { Address, Hex, LocalAccount } from 'viem';

/** The exchange's API credentials of one signer (CLOB L2). */
export interface ExtCredentials {
  readonly key: string;
  readonly secret: string;
  readonly passphrase: string;
}

/** 2 = Safe, 3 = deposit wallet (POLY_1271), as the exchange numbers signature types. */
export type ExtSignatureType = 2 | 3;

/** Who an authenticated CLOB call is made for: the signer, its credentials and its trading wallet. */
export interface ExtSession {
  readonly signer: LocalAccount;
  readonly creds: ExtCredentials;
  readonly signatureType: ExtSignatureType;
  readonly funder: Address;
}

export type ExtSide = 'BUY' | 'SELL';
export type ExtOrderType = 'GTC' | 'GTD' | 'FOK' | 'FAK';

export interface ExtMarketInfo {
  readonly tokenId: string;
  readonly conditionId: string;
  /** Decimal strings, as the exchange publishes them. */
  readonly tickSize: string;
  readonly minOrderSize: string;
  readonly negRisk: boolean;
}

export interface ExtOrderRequest {
  readonly tokenId: string;
  readonly side: ExtSide;
  /** Decimal strings already checked against the market's tick and minimum. */
  readonly price: string;
  readonly size: string;
  readonly orderType: ExtOrderType;
  readonly postOnly: boolean;
  /** Unix seconds, GTD only. */
  readonly expiration?: number;
}

/** A V2 order signed by the service, kept so that a retry posts the very same order again. */
export interface ExtSignedOrder {
  readonly orderId: Hex;
  readonly payload: Record<string, unknown>;
}

export interface ExtOrderResult {
  readonly orderId: string;
  readonly status: string;
  readonly makingAmount: string;
  readonly takingAmount: string;
  readonly tradeIds: readonly string[];
  readonly transactionHashes: readonly string[];
}

export interface ExtOpenOrder {
  readonly id: string;
  readonly status: string;
  readonly market: string;
  readonly asset_id: string;
  readonly side: string;
  readonly original_size: string;
  readonly size_matched: string;
  readonly price: string;
  readonly outcome: string;
  readonly created_at: number;
  readonly expiration: string;
  readonly order_type: string;
  readonly maker_address: string;
}

export interface ExtTrade {
  readonly id: string;
  readonly taker_order_id: string;
  readonly market: string;
  readonly asset_id: string;
  readonly side: string;
  readonly size: string;
  readonly price: string;
  readonly status: string;
  readonly match_time: string;
  readonly outcome: string;
  readonly trader_side: string;
  readonly transaction_hash: string;
}

export interface ExtCancelResult {
  readonly canceled: readonly string[];
  readonly notCanceled: Readonly<Record<string, string>>;
}

export interface ExtRelayerCall {
  readonly target: Address;
  readonly value: string;
  readonly data: Hex;
}

export type ExtRelayerKind = 'WALLET' | 'SAFE';

export interface ExtRelayerTx {
  readonly transactionId: string;
  readonly transactionHash: string;
  readonly state: string;
  readonly type: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * A relayer transaction signed but not yet sent: plain JSON, so it can be recorded before it is
 * submitted and submitted again as the very same request. A batch carries the wallet's nonce, so
 * the relayer executes it at most once however often it is sent.
 */
export interface ExtPreparedRelayerTx {
  readonly type: 'WALLET' | 'SAFE' | 'WALLET-CREATE' | 'SAFE-CREATE';
  readonly from: Address;
  /** The trading wallet the transaction deploys or runs in. */
  readonly wallet: Address;
  /** The wallet's relayer nonce the batch was signed for; null for a deploy. */
  readonly nonce: string | null;
  readonly deadline: string | null;
  readonly calls: readonly ExtRelayerCall[];
  readonly signature: Hex | null;
  readonly metadata: string;
}

/** What a relayer transaction is meant to do: deploy the trading wallet, or run calls in it. */
export type ExtRelayerRequest =
  | { readonly deploy: ExtRelayerKind }
  | {
      readonly kind: ExtRelayerKind;
      readonly wallet: Address;
      readonly calls: readonly ExtRelayerCall[];
      readonly metadata: string;
    };

export interface ExtBridgeAddresses {
  readonly evm: string;
  readonly svm: string;
  readonly btc: string;
}

export interface ExtBridgeTx {
  readonly fromChainId: string;
  readonly fromTokenAddress: string;
  readonly fromAmountBaseUnit: string;
  readonly toChainId: string;
  readonly toTokenAddress: string;
  readonly status: string;
  readonly txHash?: string;
  readonly createdTimeMs?: number;
}

export interface ExtPosition {
  readonly asset: string;
  readonly conditionId: string;
  readonly size: string;
  readonly avgPrice: string;
  readonly initialValue: string;
  readonly currentValue: string;
  readonly cashPnl: string;
  readonly realizedPnl: string;
  readonly curPrice: string;
  readonly redeemable: boolean;
  readonly title: string;
  readonly outcome: string;
  readonly outcomeIndex: number;
  readonly eventSlug: string;
  readonly negativeRisk: boolean;
}

export interface ExtEventMarket {
  readonly conditionId: string;
  readonly question: string;
  readonly slug: string;
  readonly tokenIds: readonly string[];
  readonly outcomes: readonly string[];
  readonly outcomePrices: readonly string[];
  readonly negRisk: boolean;
  readonly tickSize: string;
  readonly minOrderSize: string;
  readonly active: boolean;
  readonly closed: boolean;
}

export interface ExtEvent {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly startDate: string;
  readonly live: boolean;
  readonly volume24hr: number;
  readonly tags: readonly { id: string; label: string; slug: string }[];
  readonly markets: readonly ExtEventMarket[];
}

export interface ExtSport {
  readonly sport: string;
  readonly image: string;
  readonly resolution: string;
  readonly ordering: string;
  readonly tagIds: readonly string[];
  readonly series: string;
}

export interface ExtLiveScore {
  readonly gameId: number;
  readonly leagueAbbreviation: string;
  readonly slug: string;
  readonly homeTeam: string;
  readonly awayTeam: string;
  readonly status: string;
  readonly score: string;
  readonly period: string;
  readonly elapsed: string;
  readonly live: boolean;
  readonly ended: boolean;
}

/** Why the exchange refused an order, mapped to a stable code by the service. */
export type ExtOrderRefusal =
  | 'insufficient-balance'
  | 'invalid-tick'
  | 'below-minimum'
  | 'version-mismatch'
  | 'post-only-crosses'
  | 'not-filled'
  | 'duplicate'
  | 'wallet-not-allowed'
  | 'invalid';

export class ExtOrderRejected extends Error {
  constructor(
    readonly refusal: ExtOrderRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'ExtOrderRejected';
  }
}

/**
 * The external prediction market as the service uses it: its CLOB (L1/L2), relayer, bridge,
 * Gamma, Data, a Polygon RPC and the live-score feed. Failures of the exchange surface as
 * `DomainError` UPSTREAM_* (with a Retry-After) or `ExtOrderRejected` for an order it refused.
 */
export interface ExternalExchange {
  deriveCredentials(signer: LocalAccount, nonce: number): Promise<ExtCredentials>;
  deleteCredentials(session: ExtSession): Promise<void>;
  apiKeys(session: ExtSession): Promise<{ apiKeys: readonly string[]; closedOnly: boolean }>;

  marketInfo(tokenId: string): Promise<ExtMarketInfo>;
  prices(
    items: readonly { tokenId: string; side: ExtSide }[],
  ): Promise<Record<string, Partial<Record<ExtSide, string>>>>;
  midpoints(tokenIds: readonly string[]): Promise<Record<string, string>>;

  signOrder(session: ExtSession, order: ExtOrderRequest, market: ExtMarketInfo): Promise<ExtSignedOrder>;
  postOrder(session: ExtSession, order: ExtSignedOrder): Promise<ExtOrderResult>;
  getOrder(session: ExtSession, orderId: string): Promise<ExtOpenOrder | null>;
  openOrders(session: ExtSession, filter: { market?: string; assetId?: string }): Promise<readonly ExtOpenOrder[]>;
  trades(session: ExtSession, filter: { market?: string; assetId?: string }): Promise<readonly ExtTrade[]>;
  cancelOrder(session: ExtSession, orderId: string): Promise<ExtCancelResult>;
  cancelAll(session: ExtSession): Promise<ExtCancelResult>;
  /** pUSD of the trading wallet free for new orders, and its allowances per spender (base units). */
  collateral(session: ExtSession): Promise<{ balance: string; allowances: Record<string, string> }>;
  conditional(session: ExtSession, tokenId: string): Promise<{ balance: string; approved: Record<string, boolean> }>;

  isDeployed(wallet: Address, kind: ExtRelayerKind): Promise<boolean>;
  /** Signs a relayer transaction (reading the wallet's nonce for a batch) without sending it. */
  prepareRelayerTx(signer: LocalAccount, request: ExtRelayerRequest): Promise<ExtPreparedRelayerTx>;
  /** Sends a prepared transaction to the relayer (`POST /submit`). */
  submitRelayerTx(prepared: ExtPreparedRelayerTx): Promise<ExtRelayerTx>;
  /**
   * The relayer's transaction for a prepared one, if the relayer has it: a deploy of that wallet,
   * or a batch of that wallet at that nonce. How a retry learns whether an earlier send landed.
   */
  findRelayerTx(prepared: ExtPreparedRelayerTx): Promise<ExtRelayerTx | undefined>;
  relayerTransaction(transactionId: string): Promise<ExtRelayerTx | undefined>;

  bridgeDeposit(wallet: Address): Promise<ExtBridgeAddresses>;
  bridgeWithdraw(
    wallet: Address,
    to: { chainId: string; tokenAddress: string; recipient: string },
  ): Promise<ExtBridgeAddresses>;
  bridgeStatus(address: string): Promise<readonly ExtBridgeTx[]>;

  positions(user: Address, filter: { market?: string; redeemable?: boolean }): Promise<readonly ExtPosition[]>;
  events(filter: { tagIds: readonly string[]; limit: number; offset: number }): Promise<readonly ExtEvent[]>;
  /** One event by its Gamma id, with its current 24 h volume and live flag; null when the upstream has none. */
  eventById(id: string): Promise<ExtEvent | null>;
  sports(): Promise<readonly ExtSport[]>;
  search(
    q: string,
    limitPerType: number,
  ): Promise<{ events: readonly ExtEvent[]; tags: readonly { id: string; label: string; slug: string }[] }>;
  liveScores(): Promise<readonly ExtLiveScore[]>;

  /** pUSD allowance and CTF operator approval of a wallet for each spender, read on Polygon. */
  approvals(
    wallet: Address,
    spenders: readonly Address[],
  ): Promise<{ spender: Address; allowance: bigint; approved: boolean }[]>;

  /** ERC-20 balances (and POL) of addresses on Polygon, base units by token address. */
  polygonBalances(addresses: readonly Address[]): Promise<Record<string, Record<string, string>>>;

  close(): Promise<void>;
}
