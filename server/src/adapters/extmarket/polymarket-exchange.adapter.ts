import { createHmac } from 'node:crypto';
import type { ApiError, ClobClient, OrderType, SignedOrder } from '@polymarket/clob-client-v2';
import {
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  getAddress,
  hashTypedData,
  http,
  type Address,
  type Hex,
  type LocalAccount,
  type WalletClient,
} from 'viem';
import { DomainError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import {
  text,
  EXT_CALL_ABI,
  EXT_CONTRACTS,
  POLYGON_CHAIN_ID,
  depositWalletAddressOf,
  safeAddressOf,
} from './extmarket.protocol.js';
import {
  ExtOrderRejected,
  type ExtBridgeAddresses,
  type ExtBridgeTx,
  type ExtCancelResult,
  type ExtCredentials,
  type ExtEvent,
  type ExtLiveScore,
  type ExtMarketInfo,
  type ExtOpenOrder,
  type ExtOrderRefusal,
  type ExtOrderRequest,
  type ExtOrderResult,
  type ExtPosition,
  type ExtPreparedRelayerTx,
  type ExtRelayerKind,
  type ExtRelayerRequest,
  type ExtRelayerTx,
  type ExtSession,
  type ExtSide,
  type ExtSignedOrder,
  type ExtSport,
  type ExtTrade,
  type ExternalExchange,
} from './external-exchange.port.js';
import { LiveScoreFeed } from './live-scores.client.js';
import { BATCH_TYPES, CREATE_PROXY_TYPES, SAFE_FACTORY_DOMAIN, batchDomain } from './local-exchange/local-relayer.js';
import { UpstreamFailure, UpstreamHttp, type UpstreamPolicy } from './upstream-http.client.js';

export interface PolymarketConfig {
  readonly clobUrl: string;
  readonly gammaUrl: string;
  readonly dataUrl: string;
  readonly relayerUrl: string;
  readonly bridgeUrl: string;
  readonly rpcUrl: string;
  readonly sportsWsUrl: string;
  /** Builder credentials for the relayer's HMAC headers. */
  readonly builder: { key: string; secret: string; passphrase: string };
  readonly policy: UpstreamPolicy;
}

const ORDER_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
    { name: 'timestamp', type: 'uint256' },
    { name: 'metadata', type: 'bytes32' },
    { name: 'builder', type: 'bytes32' },
  ],
} as const;

/** How long a relayer batch stays valid after it is signed. */
const BATCH_DEADLINE_SEC = 600;

const REFUSALS: readonly [RegExp, ExtOrderRefusal][] = [
  [/not enough balance/i, 'insufficient-balance'],
  [/order_version_mismatch/i, 'version-mismatch'],
  [/post-only/i, 'post-only-crosses'],
  [/lower than the minimum/i, 'below-minimum'],
  [/invalid price|tick/i, 'invalid-tick'],
  [/FOK|FAK/, 'not-filled'],
  [/duplicated/i, 'duplicate'],
  [/maker address not allowed/i, 'wallet-not-allowed'],
];

function walletOf(account: LocalAccount): WalletClient {
  // The official client signs through a viem wallet client; a local account never uses its transport.
  return createWalletClient({
    account,
    transport: custom({ request: () => Promise.reject(new Error('the CLOB signer has no RPC')) }),
  });
}

type ClobLibrary = typeof import('@polymarket/clob-client-v2');
let loading: Promise<ClobLibrary> | undefined;
let loaded: ClobLibrary | undefined;

/**
 * The official client, loaded on first use: with its dependencies it is the largest part of the
 * server's start-up, and a server whose users never trade externally never needs it.
 */
function clobLibrary(): Promise<ClobLibrary> {
  return (loading ??= import('@polymarket/clob-client-v2').then((m) => (loaded = m)));
}

/** An error of the official client. Only its calls throw one, and they run after it has loaded. */
function isApiError(err: unknown): err is ApiError {
  return loaded !== undefined && err instanceof loaded.ApiError;
}

/**
 * Polygon PoS as the reads need it (its id and currency). Defined here: importing it from
 * `viem/chains` loads the index of every chain viem knows, 742 modules, at the server's start.
 */
const POLYGON = defineChain({
  id: POLYGON_CHAIN_ID,
  name: 'Polygon',
  nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

/**
 * The external exchange (Polymarket CLOB V2) through its official client, `@polymarket/clob-client-v2`,
 * for the CLOB, and plain fetch for the relayer, bridge, Gamma and Data APIs. Every call goes
 * through a breaker per host with timeouts and Retry-After-honouring retries.
 */
export class PolymarketExchangeAdapter implements ExternalExchange {
  private readonly http: UpstreamHttp;
  private readonly scores: LiveScoreFeed;
  private readonly rpc;

  constructor(
    private readonly config: PolymarketConfig,
    private readonly clock: Clock,
    wallClock: Clock,
  ) {
    this.http = new UpstreamHttp(config.policy, wallClock);
    this.scores = new LiveScoreFeed(config.sportsWsUrl, config.policy.timeoutMs);
    this.rpc = createPublicClient({
      chain: POLYGON,
      transport: http(config.rpcUrl, { retryCount: 0, timeout: config.policy.timeoutMs }),
    });
  }

  breakerOf(host: string) {
    return this.http.breaker(host).snapshot();
  }

  private async client(signer: LocalAccount, session?: ExtSession): Promise<ClobClient> {
    const { ClobClient, Chain } = await clobLibrary();
    return new ClobClient({
      host: this.config.clobUrl,
      chain: Chain.POLYGON,
      signer: walletOf(signer),
      ...(session
        ? {
            creds: session.creds,
            signatureType: session.signatureType,
            funderAddress: session.funder,
          }
        : {}),
      useServerTime: true,
      throwOnError: true,
    });
  }

  /** A CLOB call through the client: an answer of the exchange that is not a failure of it stays an ApiError. */
  private clob<T>(call: () => Promise<T>): Promise<T> {
    return this.http.guard('clob', async () => {
      try {
        return await call();
      } catch (err) {
        if (isApiError(err) && (err.status === undefined || err.status === 429 || err.status >= 500))
          throw new UpstreamFailure('clob', err.status === 429 ? 'rate-limited' : 'down', undefined, err.message);
        throw err;
      }
    });
  }

  private upstreamRefusal(host: string, status: number, body: unknown): DomainError {
    return new DomainError('UPSTREAM_ERROR', `The external exchange (${host}) refused the request`, {
      details: {
        host,
        status,
        error: typeof body === 'object' && body && 'error' in body ? String(body.error) : String(body),
      },
    });
  }

  private async get(host: 'gamma' | 'data' | 'bridge' | 'relayer', path: string): Promise<unknown> {
    const base = {
      gamma: this.config.gammaUrl,
      data: this.config.dataUrl,
      bridge: this.config.bridgeUrl,
      relayer: this.config.relayerUrl,
    }[host];
    const res = await this.http.json(host, `${base}${path}`);
    if (res.status >= 400) throw this.upstreamRefusal(host, res.status, res.body);
    return res.body;
  }

  private async post(host: 'bridge' | 'relayer', path: string, body: unknown): Promise<unknown> {
    const base = host === 'bridge' ? this.config.bridgeUrl : this.config.relayerUrl;
    const text = JSON.stringify(body);
    const headers = host === 'relayer' ? this.builderHeaders('POST', path, text) : {};
    const res = await this.http.json(host, `${base}${path}`, { method: 'POST', headers, body: text });
    if (res.status >= 400) throw this.upstreamRefusal(host, res.status, res.body);
    return res.body;
  }

  private builderHeaders(method: string, path: string, body: string): Record<string, string> {
    const ts = String(Math.floor(this.clock.now() / 1000));
    const sig = createHmac('sha256', Buffer.from(this.config.builder.secret, 'base64url'))
      .update(`${ts}${method}${path}${body}`)
      .digest('base64url');
    return {
      POLY_BUILDER_API_KEY: this.config.builder.key,
      POLY_BUILDER_PASSPHRASE: this.config.builder.passphrase,
      POLY_BUILDER_TIMESTAMP: ts,
      POLY_BUILDER_SIGNATURE: sig,
    };
  }

  // ---- CLOB: credentials -------------------------------------------------------------------

  async deriveCredentials(signer: LocalAccount, nonce: number): Promise<ExtCredentials> {
    const c = await this.client(signer);
    return this.clob(async () => {
      try {
        return await c.createApiKey(nonce);
      } catch (err) {
        // A key already exists for this nonce: derive it (the same key comes back).
        if (isApiError(err) && err.status !== undefined && err.status < 500 && err.status !== 429)
          return c.deriveApiKey(nonce);
        throw err;
      }
    });
  }

  async deleteCredentials(session: ExtSession): Promise<void> {
    await this.clob(async (): Promise<unknown> => (await this.client(session.signer, session)).deleteApiKey());
  }

  async apiKeys(session: ExtSession): Promise<{ apiKeys: readonly string[]; closedOnly: boolean }> {
    const c = await this.client(session.signer, session);
    const keys = (await this.clob(() => c.getApiKeys())) as unknown as { apiKeys?: string[] };
    const ban = (await this.clob(() => c.getClosedOnlyMode())) as { closed_only?: boolean };
    return { apiKeys: keys.apiKeys ?? [], closedOnly: ban.closed_only === true };
  }

  // ---- CLOB: public ------------------------------------------------------------------------

  async marketInfo(tokenId: string): Promise<ExtMarketInfo> {
    const res = await this.http.json('clob', `${this.config.clobUrl}/markets-by-token/${encodeURIComponent(tokenId)}`);
    if (res.status === 404 || res.status === 400)
      throw new DomainError('EXTMARKET_TOKEN_UNKNOWN', 'The external exchange has no market for this token', {
        details: { tokenId },
      });
    const cid = (res.body as { condition_id?: string }).condition_id ?? '';
    const info = await this.http.json('clob', `${this.config.clobUrl}/clob-markets/${cid}`);
    if (info.status >= 400) throw this.upstreamRefusal('clob', info.status, info.body);
    const b = info.body as { mts: number; mos?: number; nr?: boolean };
    return {
      tokenId,
      conditionId: cid,
      tickSize: String(b.mts),
      minOrderSize: String(b.mos ?? 0),
      negRisk: b.nr === true,
    };
  }

  async prices(items: readonly { tokenId: string; side: ExtSide }[]) {
    const res = await this.http.json('clob', `${this.config.clobUrl}/prices`, {
      method: 'POST',
      body: JSON.stringify(items.map((i) => ({ token_id: i.tokenId, side: i.side }))),
    });
    if (res.status === 404) throw new DomainError('EXTMARKET_TOKEN_UNKNOWN', 'A token of the request has no market');
    if (res.status >= 400) throw this.upstreamRefusal('clob', res.status, res.body);
    return res.body as Record<string, Partial<Record<ExtSide, string>>>;
  }

  async midpoints(tokenIds: readonly string[]) {
    const res = await this.http.json('clob', `${this.config.clobUrl}/midpoints`, {
      method: 'POST',
      body: JSON.stringify(tokenIds.map((t) => ({ token_id: t }))),
    });
    if (res.status === 404) throw new DomainError('EXTMARKET_TOKEN_UNKNOWN', 'A token of the request has no market');
    if (res.status >= 400) throw this.upstreamRefusal('clob', res.status, res.body);
    return res.body as Record<string, string>;
  }

  // ---- CLOB: orders ------------------------------------------------------------------------

  async signOrder(session: ExtSession, order: ExtOrderRequest, market: ExtMarketInfo): Promise<ExtSignedOrder> {
    const c = await this.client(session.signer, session);
    const { Side } = await clobLibrary();
    const signed = (await this.clob(() =>
      c.createOrder(
        {
          tokenID: order.tokenId,
          // The client's API takes numbers; both were checked as short decimals on the tick grid.
          price: Number(order.price),
          size: Number(order.size),
          side: order.side === 'BUY' ? Side.BUY : Side.SELL,
          ...(order.expiration ? { expiration: order.expiration } : {}),
        },
        { tickSize: market.tickSize as never, negRisk: market.negRisk },
      ),
    )) as SignedOrder & Record<string, string | number>;
    const orderId = hashTypedData({
      domain: {
        name: 'Polymarket CTF Exchange',
        version: '2',
        chainId: POLYGON_CHAIN_ID,
        verifyingContract: market.negRisk ? EXT_CONTRACTS.negRiskExchangeV2 : EXT_CONTRACTS.exchangeV2,
      },
      types: ORDER_TYPES,
      primaryType: 'Order',
      message: {
        salt: BigInt(signed['salt']),
        maker: signed['maker'] as Address,
        signer: signed['signer'] as Address,
        tokenId: BigInt(signed['tokenId']),
        makerAmount: BigInt(signed['makerAmount']),
        takerAmount: BigInt(signed['takerAmount']),
        side: signed['side'] === Side.BUY ? 0 : 1,
        signatureType: Number(signed['signatureType']),
        timestamp: BigInt(signed['timestamp']),
        metadata: signed['metadata'] as Hex,
        builder: signed['builder'] as Hex,
      },
    });
    return { orderId, payload: { order: signed, orderType: order.orderType, postOnly: order.postOnly } };
  }

  async postOrder(session: ExtSession, signed: ExtSignedOrder): Promise<ExtOrderResult> {
    const c = await this.client(session.signer, session);
    const p = signed.payload as { order: SignedOrder; orderType: string; postOnly: boolean };
    try {
      const res = (await this.clob(() => c.postOrder(p.order, p.orderType as OrderType, p.postOnly))) as {
        orderID: string;
        status: string;
        makingAmount: string;
        takingAmount: string;
        tradeIDs?: string[];
        transactionsHashes?: string[];
      };
      return {
        orderId: res.orderID,
        status: res.status,
        makingAmount: res.makingAmount,
        takingAmount: res.takingAmount,
        tradeIds: res.tradeIDs ?? [],
        transactionHashes: res.transactionsHashes ?? [],
      };
    } catch (err) {
      if (isApiError(err)) {
        const refusal = REFUSALS.find(([re]) => re.test(err.message))?.[1] ?? 'invalid';
        throw new ExtOrderRejected(refusal, err.message);
      }
      throw err;
    }
  }

  async getOrder(session: ExtSession, orderId: string): Promise<ExtOpenOrder | null> {
    const res = await this.clob(async () =>
      (await this.client(session.signer, session)).getOrder(orderId).catch((err: unknown) => {
        if (isApiError(err) && err.status === 404) return null;
        throw err;
      }),
    );
    return res ?? null;
  }

  async openOrders(session: ExtSession, f: { market?: string; assetId?: string }) {
    const params = { ...(f.market ? { market: f.market } : {}), ...(f.assetId ? { asset_id: f.assetId } : {}) };
    return (await this.clob(async () =>
      (await this.client(session.signer, session)).getOpenOrders(params),
    )) as readonly ExtOpenOrder[];
  }

  async trades(session: ExtSession, f: { market?: string; assetId?: string }) {
    const params = { ...(f.market ? { market: f.market } : {}), ...(f.assetId ? { asset_id: f.assetId } : {}) };
    return (await this.clob(async () =>
      (await this.client(session.signer, session)).getTrades(params),
    )) as unknown as readonly ExtTrade[];
  }

  private cancelled(res: unknown): ExtCancelResult {
    const r = res as { canceled?: string[]; not_canceled?: Record<string, string> };
    return { canceled: r.canceled ?? [], notCanceled: r.not_canceled ?? {} };
  }

  async cancelOrder(session: ExtSession, orderId: string): Promise<ExtCancelResult> {
    return this.cancelled(
      await this.clob(async (): Promise<unknown> =>
        (await this.client(session.signer, session)).cancelOrder({ orderID: orderId }),
      ),
    );
  }

  async cancelAll(session: ExtSession): Promise<ExtCancelResult> {
    return this.cancelled(
      await this.clob(async (): Promise<unknown> => (await this.client(session.signer, session)).cancelAll()),
    );
  }

  async collateral(session: ExtSession) {
    const r = (await this.clob(async () =>
      (await this.client(session.signer, session)).getBalanceAllowance({ asset_type: 'COLLATERAL' as never }),
    )) as { balance: string; allowances?: Record<string, string> };
    return { balance: r.balance, allowances: r.allowances ?? {} };
  }

  async conditional(session: ExtSession, tokenId: string) {
    const r = (await this.clob(async () =>
      (await this.client(session.signer, session)).getBalanceAllowance({
        asset_type: 'CONDITIONAL' as never,
        token_id: tokenId,
      }),
    )) as { balance: string; allowances?: Record<string, string> };
    return {
      balance: r.balance,
      approved: Object.fromEntries(Object.entries(r.allowances ?? {}).map(([k, v]) => [k, v !== '0'])),
    };
  }

  // ---- relayer -----------------------------------------------------------------------------

  async isDeployed(wallet: Address, kind: ExtRelayerKind): Promise<boolean> {
    const body = (await this.get('relayer', `/deployed?address=${wallet}&type=${kind}`)) as { deployed?: boolean };
    return body.deployed === true;
  }

  private tx(body: unknown): ExtRelayerTx {
    const t = body as Record<string, string>;
    return {
      transactionId: t['transactionID'] ?? '',
      transactionHash: t['transactionHash'] ?? '',
      state: t['state'] ?? 'STATE_NEW',
      type: t['type'] ?? '',
      createdAt: t['createdAt'] ?? new Date(this.clock.now()).toISOString(),
      updatedAt: t['updatedAt'] ?? new Date(this.clock.now()).toISOString(),
    };
  }

  async prepareRelayerTx(signer: LocalAccount, request: ExtRelayerRequest): Promise<ExtPreparedRelayerTx> {
    if ('deploy' in request) {
      if (request.deploy === 'WALLET')
        return {
          type: 'WALLET-CREATE',
          from: signer.address,
          wallet: depositWalletAddressOf(signer.address),
          nonce: null,
          deadline: null,
          calls: [],
          signature: null,
          metadata: 'deploy-wallet',
        };
      const zero = '0x0000000000000000000000000000000000000000';
      const signature = await signer.signTypedData({
        domain: SAFE_FACTORY_DOMAIN,
        types: CREATE_PROXY_TYPES,
        primaryType: 'CreateProxy',
        message: { paymentToken: zero, payment: 0n, paymentReceiver: zero },
      });
      return {
        type: 'SAFE-CREATE',
        from: signer.address,
        wallet: safeAddressOf(signer.address),
        nonce: null,
        deadline: null,
        calls: [],
        signature,
        metadata: 'deploy-safe',
      };
    }
    const { kind, wallet, calls, metadata } = request;
    const { nonce } = (await this.get('relayer', `/nonce?address=${wallet}&type=${kind}`)) as { nonce: string };
    const deadline = BigInt(Math.floor(this.clock.now() / 1000) + BATCH_DEADLINE_SEC);
    const signature = await signer.signTypedData({
      domain: batchDomain(kind, wallet),
      types: BATCH_TYPES,
      primaryType: 'Batch',
      message: {
        wallet,
        nonce: BigInt(nonce),
        deadline,
        calls: calls.map((c) => ({ target: c.target, value: BigInt(c.value), data: c.data })),
      },
    });
    return {
      type: kind,
      from: signer.address,
      wallet,
      nonce: String(nonce),
      deadline: deadline.toString(),
      calls: [...calls],
      signature,
      metadata,
    };
  }

  async submitRelayerTx(p: ExtPreparedRelayerTx): Promise<ExtRelayerTx> {
    const body =
      p.type === 'WALLET-CREATE'
        ? { type: p.type, from: p.from, to: EXT_CONTRACTS.depositWalletFactory }
        : p.type === 'SAFE-CREATE'
          ? { type: p.type, from: p.from, to: EXT_CONTRACTS.safeFactory, signature: p.signature }
          : {
              type: p.type,
              from: p.from,
              to: p.wallet,
              proxyWallet: p.wallet,
              nonce: p.nonce,
              deadline: p.deadline,
              calls: p.calls,
              signature: p.signature,
              metadata: p.metadata,
            };
    const res = await this.post('relayer', '/submit', body);
    return this.tx({ ...(res as object), type: p.type });
  }

  async findRelayerTx(p: ExtPreparedRelayerTx): Promise<ExtRelayerTx | undefined> {
    // The relayer lists the builder's transactions to the builder's own HMAC headers.
    const res = await this.http.json('relayer', `${this.config.relayerUrl}/transactions`, {
      headers: this.builderHeaders('GET', '/transactions', ''),
    });
    if (res.status >= 400) throw this.upstreamRefusal('relayer', res.status, res.body);
    const list = (Array.isArray(res.body) ? res.body : []) as Record<string, unknown>[];
    const wallet = p.wallet.toLowerCase();
    const found = list.find(
      (t) =>
        t['type'] === p.type &&
        (typeof t['proxyAddress'] === 'string' ? t['proxyAddress'] : '').toLowerCase() === wallet &&
        // A batch by its nonce and its signature: another batch may have taken that nonce.
        (p.nonce === null ||
          (String(t['nonce']) === p.nonce &&
            (typeof t['signature'] === 'string' ? t['signature'] : '').toLowerCase() === p.signature?.toLowerCase())),
    );
    return found ? this.tx(found) : undefined;
  }

  async relayerTransaction(id: string): Promise<ExtRelayerTx | undefined> {
    const res = await this.http.json('relayer', `${this.config.relayerUrl}/transaction?id=${encodeURIComponent(id)}`);
    if (res.status === 404 || res.status === 400) return undefined;
    if (res.status >= 400) throw this.upstreamRefusal('relayer', res.status, res.body);
    const first = (res.body as unknown[])[0];
    return first ? this.tx(first) : undefined;
  }

  // ---- bridge, data, gamma -----------------------------------------------------------------

  async bridgeDeposit(wallet: Address): Promise<ExtBridgeAddresses> {
    return ((await this.post('bridge', '/deposit', { address: wallet })) as { address: ExtBridgeAddresses }).address;
  }

  async bridgeWithdraw(
    wallet: Address,
    to: { chainId: string; tokenAddress: string; recipient: string },
  ): Promise<ExtBridgeAddresses> {
    const res = await this.post('bridge', '/withdraw', {
      address: wallet,
      toChainId: to.chainId,
      toTokenAddress: to.tokenAddress,
      recipientAddr: to.recipient,
    });
    return (res as { address: ExtBridgeAddresses }).address;
  }

  async bridgeStatus(address: string): Promise<readonly ExtBridgeTx[]> {
    return (
      ((await this.get('bridge', `/status/${encodeURIComponent(address)}`)) as { transactions?: ExtBridgeTx[] })
        .transactions ?? []
    );
  }

  async positions(user: Address, f: { market?: string; redeemable?: boolean }): Promise<readonly ExtPosition[]> {
    const q = new URLSearchParams({ user, sizeThreshold: '0', limit: '500' });
    if (f.market) q.set('market', f.market);
    if (f.redeemable !== undefined) q.set('redeemable', String(f.redeemable));
    return (await this.get('data', `/positions?${q.toString()}`)) as ExtPosition[];
  }

  private event(raw: unknown): ExtEvent {
    const e = raw as Record<string, unknown>;
    const list = (v: unknown): string[] => {
      try {
        return typeof v === 'string' ? (JSON.parse(v) as unknown[]).map(String) : Array.isArray(v) ? v.map(String) : [];
      } catch {
        return [];
      }
    };
    return {
      id: String(e['id']),
      slug: text(e['slug'], ''),
      title: text(e['title'], ''),
      startDate: text(e['startDate'], ''),
      live: e['live'] === true,
      volume24hr: Number(e['volume24hr'] ?? 0),
      tags: ((e['tags'] as { id: unknown; label: unknown; slug: unknown }[] | undefined) ?? []).map((t) => ({
        id: String(t.id),
        label: String(t.label),
        slug: String(t.slug),
      })),
      markets: ((e['markets'] as Record<string, unknown>[] | undefined) ?? []).map((m) => ({
        conditionId: String(m['conditionId']),
        question: text(m['question'], ''),
        slug: text(m['slug'], ''),
        tokenIds: list(m['clobTokenIds']),
        outcomes: list(m['outcomes']),
        outcomePrices: list(m['outcomePrices']),
        negRisk: m['negRisk'] === true,
        tickSize: text(m['orderPriceMinTickSize'], '0.01'),
        minOrderSize: text(m['orderMinSize'], '0'),
        active: m['active'] !== false,
        closed: m['closed'] === true,
      })),
    };
  }

  async events(f: { tagIds: readonly string[]; limit: number; offset: number }): Promise<readonly ExtEvent[]> {
    const q = new URLSearchParams({
      active: 'true',
      closed: 'false',
      order: 'volume24hr',
      ascending: 'false',
      limit: String(f.limit),
      offset: String(f.offset),
    });
    for (const t of f.tagIds) q.append('tag_id', t);
    return ((await this.get('gamma', `/events?${q.toString()}`)) as unknown[]).map((e) => this.event(e));
  }

  async eventById(id: string): Promise<ExtEvent | null> {
    if (!/^[0-9]+$/.test(id)) return null;
    const res = await this.http.json('gamma', `${this.config.gammaUrl}/events/${id}`);
    if (res.status === 404) return null;
    if (res.status >= 400) throw this.upstreamRefusal('gamma', res.status, res.body);
    return this.event(res.body);
  }

  async sports(): Promise<readonly ExtSport[]> {
    return ((await this.get('gamma', '/sports')) as Record<string, unknown>[]).map((s) => ({
      sport: String(s['sport']),
      image: text(s['image'], ''),
      resolution: text(s['resolution'], ''),
      ordering: text(s['ordering'], ''),
      tagIds: text(s['tags'], '').split(',').filter(Boolean),
      series: text(s['series'], ''),
    }));
  }

  async search(q: string, limitPerType: number) {
    const res = (await this.get(
      'gamma',
      `/public-search?${new URLSearchParams({ q, limit_per_type: String(limitPerType) }).toString()}`,
    )) as {
      events?: unknown[];
      tags?: { id: unknown; label: unknown; slug: unknown }[];
    };
    return {
      events: (res.events ?? []).map((e) => this.event(e)),
      tags: (res.tags ?? []).map((t) => ({ id: String(t.id), label: String(t.label), slug: String(t.slug) })),
    };
  }

  liveScores(): Promise<readonly ExtLiveScore[]> {
    return this.scores.snapshot();
  }

  async polygonBalances(addresses: readonly Address[]) {
    const tokens = [EXT_CONTRACTS.pUsd, EXT_CONTRACTS.usdcE, EXT_CONTRACTS.usdc];
    const out: Record<string, Record<string, string>> = {};
    await this.http.guard('rpc', async () => {
      try {
        for (const a of addresses) {
          const row: Record<string, string> = { POL: (await this.rpc.getBalance({ address: a })).toString() };
          for (const t of tokens)
            row[t] = (
              await this.rpc.readContract({ address: t, abi: EXT_CALL_ABI, functionName: 'balanceOf', args: [a] })
            ).toString();
          out[getAddress(a)] = row;
        }
      } catch (err) {
        throw new UpstreamFailure('rpc', 'down', undefined, err instanceof Error ? err.message : 'rpc failed');
      }
    });
    return out;
  }

  async approvals(wallet: Address, spenders: readonly Address[]) {
    return this.http.guard('rpc', async () => {
      try {
        const out = [];
        for (const spender of spenders) {
          const allowance = await this.rpc.readContract({
            address: EXT_CONTRACTS.pUsd,
            abi: EXT_CALL_ABI,
            functionName: 'allowance',
            args: [wallet, spender],
          });
          const approved = await this.rpc.readContract({
            address: EXT_CONTRACTS.ctf,
            abi: EXT_CALL_ABI,
            functionName: 'isApprovedForAll',
            args: [wallet, spender],
          });
          out.push({ spender, allowance, approved });
        }
        return out;
      } catch (err) {
        throw new UpstreamFailure('rpc', 'down', undefined, err instanceof Error ? err.message : 'rpc failed');
      }
    });
  }

  async close(): Promise<void> {
    this.scores.close();
  }
}

export { depositWalletAddressOf, safeAddressOf };
