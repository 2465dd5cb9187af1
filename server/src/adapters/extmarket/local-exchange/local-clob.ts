import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  getAddress,
  hashTypedData,
  isAddress,
  keccak256,
  recoverTypedDataAddress,
  toHex,
  type Address,
  type Hex,
} from 'viem';
import type { Clock } from '../../../platform/clock.js';
import {
  text,
  EXT_CONTRACTS,
  EXT_UNIT,
  POLYGON_CHAIN_ID,
  depositWalletAddressOf,
  fromMicro,
  safeAddressOf,
} from '../extmarket.protocol.js';
import type { Ledger } from './ledger.js';
import type { SimEvent, SimMarket } from './local-catalog.js';
import { bad, ok, type SimRequest, type SimResponse } from './local-exchange.types.js';
import { OrderBook, notional, type BookOrder, type BookSide, type TimeInForce } from './matching-engine.js';

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

const TYPED_DATA_SIGN = [
  { name: 'contents', type: 'Order' },
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
] as const;

const CLOB_AUTH_TYPES = {
  ClobAuth: [
    { name: 'address', type: 'address' },
    { name: 'timestamp', type: 'string' },
    { name: 'nonce', type: 'uint256' },
    { name: 'message', type: 'string' },
  ],
} as const;
const CLOB_AUTH_MESSAGE = 'This message attests that I control the given wallet';
/** How far a signed timestamp may be from the exchange's clock. */
const AUTH_WINDOW_SEC = 300;

interface ApiKey {
  readonly key: string;
  readonly secret: string;
  readonly passphrase: string;
  readonly address: Address;
  readonly nonce: number;
}

interface Trade {
  readonly id: string;
  readonly takerOrder: BookOrder;
  readonly market: SimMarket;
  readonly outcome: string;
  readonly size: bigint;
  readonly price: bigint;
  readonly matchMs: number;
  readonly makers: readonly { order: BookOrder; size: bigint; price: bigint }[];
  readonly txHash: string;
}

/** Registered trading wallets: which EOA owns a Safe or deposit wallet, and whether it exists yet. */
export interface WalletRegistry {
  ownerOf(wallet: string): string | undefined;
}

export interface ClobTimings {
  /** MATCHED → MINED after this long; MINED → CONFIRMED after `confirmMs` more. */
  readonly mineMs: number;
  readonly confirmMs: number;
}

/**
 * The CLOB of the local exchange: L1/L2 authentication as upstream, V2 order intake with the
 * tick, size, balance and allowance checks, one order book per token and trades whose status
 * moves on the injected clock. Fills settle on the ledger when they match.
 */
export class LocalClob {
  readonly version = 2;
  private readonly keys = new Map<string, ApiKey>();
  private readonly books = new Map<string, OrderBook>();
  private readonly orders = new Map<string, BookOrder>();
  private readonly trades: Trade[] = [];
  private readonly lastPrice = new Map<string, { price: bigint; side: BookSide }>();
  private readonly costBasis = new Map<string, { bought: bigint; cost: bigint; realized: bigint }>();
  private seq = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly events: () => readonly SimEvent[],
    private readonly wallets: WalletRegistry,
    private readonly seed: string,
    private readonly timings: ClobTimings,
  ) {}

  private nowSec(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  market(tokenId: string): { market: SimMarket; index: 0 | 1 } | undefined {
    for (const e of this.events())
      for (const m of e.markets) {
        const i = m.tokens.findIndex((t) => t.tokenId === tokenId);
        if (i >= 0) return { market: m, index: i as 0 | 1 };
      }
    return undefined;
  }

  marketByCondition(conditionId: string): SimMarket | undefined {
    return this.events()
      .flatMap((e) => e.markets)
      .find((m) => m.conditionId.toLowerCase() === conditionId.toLowerCase());
  }

  private book(tokenId: string): OrderBook {
    let b = this.books.get(tokenId);
    if (!b) this.books.set(tokenId, (b = new OrderBook(tokenId)));
    return b;
  }

  /** Collateral and shares held back by an address's resting orders. */
  reserved(maker: string, asset: string): bigint {
    let sum = 0n;
    for (const o of this.orders.values()) {
      if (o.status !== 'live' || o.maker.toLowerCase() !== maker.toLowerCase()) continue;
      const left = o.originalSize - o.sizeMatched;
      if (o.side === 'BUY' && asset.toLowerCase() === EXT_CONTRACTS.pUsd.toLowerCase()) sum += notional(left, o.price);
      if (o.side === 'SELL' && asset === o.tokenId) sum += left;
    }
    return sum;
  }

  midpoint(tokenId: string): bigint | undefined {
    const b = this.books.get(tokenId);
    const bid = b?.bestPrice('BUY');
    const ask = b?.bestPrice('SELL');
    if (bid !== undefined && ask !== undefined) return (bid + ask) / 2n;
    return this.lastPrice.get(tokenId)?.price ?? bid ?? ask;
  }

  /** Per wallet and token: shares bought, what they cost, and the profit realised by selling. */
  basis(wallet: string, tokenId: string): { bought: bigint; cost: bigint; realized: bigint } {
    return this.costBasis.get(`${wallet.toLowerCase()}|${tokenId}`) ?? { bought: 0n, cost: 0n, realized: 0n };
  }

  // ---- authentication ----------------------------------------------------------------------

  private deriveKey(address: string, nonce: number): ApiKey {
    const h = (label: string) => keccak256(toHex(`${this.seed}|${label}|${address.toLowerCase()}|${nonce}`));
    const k = h('key').slice(2);
    return {
      key: `${k.slice(0, 8)}-${k.slice(8, 12)}-4${k.slice(13, 16)}-a${k.slice(17, 20)}-${k.slice(20, 32)}`,
      secret: Buffer.from(h('secret').slice(2), 'hex').toString('base64url'),
      passphrase: h('passphrase').slice(2, 66),
      address: getAddress(address),
      nonce,
    };
  }

  private async l1(req: SimRequest): Promise<{ address: Address; nonce: number } | SimResponse> {
    const address = req.headers['poly_address'];
    const signature = req.headers['poly_signature'];
    const ts = req.headers['poly_timestamp'];
    const nonce = Number(req.headers['poly_nonce'] ?? '0');
    if (!address || !signature || !ts || !isAddress(address) || !Number.isInteger(nonce) || nonce < 0)
      return bad('Invalid L1 Request headers', 401);
    if (Math.abs(Number(ts) - this.nowSec()) > AUTH_WINDOW_SEC) return bad('Invalid L1 Request headers', 401);
    try {
      const signer = await recoverTypedDataAddress({
        domain: { name: 'ClobAuthDomain', version: '1', chainId: POLYGON_CHAIN_ID },
        types: CLOB_AUTH_TYPES,
        primaryType: 'ClobAuth',
        message: { address, timestamp: ts, nonce: BigInt(nonce), message: CLOB_AUTH_MESSAGE },
        signature: signature as Hex,
      });
      if (signer.toLowerCase() !== address.toLowerCase()) return bad('Invalid L1 Request headers', 401);
    } catch {
      return bad('Invalid L1 Request headers', 401);
    }
    return { address: getAddress(address), nonce };
  }

  private l2(req: SimRequest): ApiKey | SimResponse {
    const h = req.headers;
    const key = h['poly_api_key'] ? this.keys.get(h['poly_api_key']) : undefined;
    const ts = h['poly_timestamp'];
    if (!key || !ts || !h['poly_signature'] || h['poly_passphrase'] !== key.passphrase)
      return bad('Unauthorized/Invalid api key', 401);
    if (h['poly_address']?.toLowerCase() !== key.address.toLowerCase()) return bad('Unauthorized/Invalid api key', 401);
    if (Math.abs(Number(ts) - this.nowSec()) > AUTH_WINDOW_SEC) return bad('Unauthorized/Invalid api key', 401);
    const expected = createHmac('sha256', Buffer.from(key.secret, 'base64url'))
      .update(`${ts}${req.method}${req.path}${req.body}`)
      .digest();
    const given = Buffer.from(h['poly_signature'].replace(/\+/g, '-').replace(/\//g, '_'), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return bad('Unauthorized/Invalid api key', 401);
    return key;
  }

  // ---- routing -----------------------------------------------------------------------------

  async handle(req: SimRequest): Promise<SimResponse> {
    const { method, path, query } = req;
    const route = `${method} ${path}`;
    if (route === 'GET /ok') return ok('OK');
    if (route === 'GET /time') return ok(this.nowSec());
    if (route === 'GET /version') return ok({ version: this.version });
    if (route === 'GET /fee-rate') return ok({ base_fee: 0 });
    if (route === 'GET /tick-size' || route === 'GET /neg-risk') {
      const m = this.market(query.get('token_id') ?? '');
      if (!m) return bad('market not found', 404);
      return ok(
        route === 'GET /tick-size' ? { minimum_tick_size: Number(m.market.tickSize) } : { neg_risk: m.market.negRisk },
      );
    }
    if (method === 'GET' && path.startsWith('/markets-by-token/')) {
      const m = this.market(path.slice('/markets-by-token/'.length));
      return m ? ok({ condition_id: m.market.conditionId }) : bad('market not found', 404);
    }
    if (method === 'GET' && path.startsWith('/clob-markets/')) {
      const m = this.marketByCondition(path.slice('/clob-markets/'.length));
      if (!m) return bad('market not found', 404);
      return ok({
        t: m.tokens.map((t) => ({ t: t.tokenId, o: t.outcome })),
        mts: Number(m.tickSize),
        nr: m.negRisk,
        fd: { r: 0, e: 0 },
        mos: Number(fromMicro(m.minOrderSize)),
      });
    }
    if (route === 'GET /book') return this.bookOf(query.get('token_id') ?? '');
    if (method === 'POST' && ['/prices', '/midpoints', '/last-trades-prices', '/books'].includes(path))
      return this.batchPrices(path, req.body);

    if (route === 'POST /auth/api-key' || route === 'GET /auth/derive-api-key') {
      const auth = await this.l1(req);
      if ('status' in auth) return auth;
      const existing = [...this.keys.values()].find(
        (k) => k.address.toLowerCase() === auth.address.toLowerCase() && k.nonce === auth.nonce,
      );
      if (route === 'POST /auth/api-key') {
        if (existing) return bad('Could not create api key');
        const key = this.deriveKey(auth.address, auth.nonce);
        this.keys.set(key.key, key);
        return ok({ apiKey: key.key, secret: key.secret, passphrase: key.passphrase });
      }
      if (!existing) return bad('Could not derive api key!');
      return ok({ apiKey: existing.key, secret: existing.secret, passphrase: existing.passphrase });
    }

    const key = this.l2(req);
    if ('status' in key) return key;
    if (route === 'GET /auth/api-keys')
      return ok({ apiKeys: [...this.keys.values()].filter((k) => k.address === key.address).map((k) => k.key) });
    if (route === 'DELETE /auth/api-key') {
      this.keys.delete(key.key);
      return ok('OK');
    }
    if (route === 'GET /auth/ban-status/closed-only') return ok({ closed_only: false });
    if (route === 'POST /order') return this.placeOrder(key, req.body);
    if (route === 'DELETE /order') {
      const id = (JSON.parse(req.body || '{}') as { orderID?: unknown }).orderID;
      return ok(this.cancel(key, typeof id === 'string' ? [id] : []));
    }
    if (route === 'DELETE /cancel-all')
      return ok(
        this.cancel(
          key,
          [...this.orders.values()].filter((o) => o.owner === key.key && o.status === 'live').map((o) => o.id),
        ),
      );
    if (route === 'GET /data/orders') return ok(this.page(this.openOrders(key, query)));
    if (method === 'GET' && path.startsWith('/data/order/')) {
      const o = this.orders.get(path.slice('/data/order/'.length));
      return ok(o && o.owner === key.key ? this.openOrderJson(o) : null);
    }
    if (route === 'GET /data/trades') return ok(this.page(this.tradesOf(key, query)));
    if (route === 'GET /balance-allowance' || route === 'GET /balance-allowance/update')
      return this.balanceAllowance(key, query);
    return bad('not found', 404);
  }

  private page<T>(data: T[]): { data: T[]; next_cursor: string; limit: number; count: number } {
    return { data, next_cursor: 'LTE=', limit: data.length, count: data.length };
  }

  private bookOf(tokenId: string): SimResponse {
    const m = this.market(tokenId);
    if (!m) return bad('No orderbook exists for the requested token id', 404);
    const b = this.book(tokenId);
    b.expire(this.nowSec());
    const levels = (side: BookSide) => {
      const agg = new Map<bigint, bigint>();
      for (const o of b.levels(side)) agg.set(o.price, (agg.get(o.price) ?? 0n) + o.originalSize - o.sizeMatched);
      return [...agg.entries()].map(([p, s]) => ({ price: fromMicro(p), size: fromMicro(s) }));
    };
    return ok({
      market: m.market.conditionId,
      asset_id: tokenId,
      timestamp: String(this.clock.now()),
      bids: levels('BUY').reverse(),
      asks: levels('SELL').reverse(),
      min_order_size: fromMicro(m.market.minOrderSize),
      tick_size: m.market.tickSize,
      neg_risk: m.market.negRisk,
      hash: keccak256(toHex(`${tokenId}|${this.seq}`)).slice(2, 42),
    });
  }

  private batchPrices(path: string, body: string): SimResponse {
    let items: { token_id?: unknown; side?: unknown }[];
    try {
      items = JSON.parse(body || '[]') as typeof items;
      if (!Array.isArray(items)) throw new Error('not an array');
    } catch {
      return bad('Invalid payload');
    }
    const ids = items.map((i) => text(i.token_id, ''));
    if (ids.some((id) => !this.market(id))) return bad('market not found', 404);
    if (path === '/books') return ok(ids.map((id) => this.bookOf(id).body));
    if (path === '/last-trades-prices')
      return ok(
        ids.map((id) => {
          const l = this.lastPrice.get(id);
          return { token_id: id, price: l ? fromMicro(l.price) : '0', side: l?.side ?? '' };
        }),
      );
    if (path === '/midpoints') return ok(Object.fromEntries(ids.map((id) => [id, fromMicro(this.midpoint(id) ?? 0n)])));
    const out: Record<string, Record<string, string>> = {};
    for (const [i, id] of ids.entries()) {
      const side = items[i]!.side === 'SELL' ? 'SELL' : 'BUY';
      // A buyer pays the best ask; a seller receives the best bid.
      const price = this.book(id).bestPrice(side === 'BUY' ? 'SELL' : 'BUY');
      (out[id] ??= {})[side] = price === undefined ? '0' : fromMicro(price);
    }
    return ok(out);
  }

  // ---- orders ------------------------------------------------------------------------------

  private async placeOrder(key: ApiKey, raw: string): Promise<SimResponse> {
    let payload: { order?: Record<string, unknown>; owner?: unknown; orderType?: unknown; postOnly?: unknown };
    try {
      payload = JSON.parse(raw) as typeof payload;
    } catch {
      return bad('Invalid order payload');
    }
    const o = payload.order;
    if (!o || typeof o !== 'object') return bad('Invalid order payload');
    if (payload.owner !== key.key) return bad('the order owner has to be the owner of the API KEY');
    const orderType = text(payload.orderType, 'GTC') as TimeInForce;
    if (!['GTC', 'GTD', 'FOK', 'FAK'].includes(orderType)) return bad('Invalid order payload');
    const postOnly = payload.postOnly === true;
    if (postOnly && (orderType === 'FOK' || orderType === 'FAK'))
      return bad('invalid post-only order: only GTC and GTD orders may be post only');
    const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
    const side = str(o['side']) as BookSide;
    const sigType = Number(o['signatureType']);
    let tokenId: bigint, makerAmount: bigint, takerAmount: bigint, salt: bigint, timestamp: bigint, expiration: number;
    try {
      tokenId = BigInt(str(o['tokenId']));
      makerAmount = BigInt(str(o['makerAmount']));
      takerAmount = BigInt(str(o['takerAmount']));
      salt = BigInt(str(o['salt']));
      timestamp = BigInt(str(o['timestamp']));
      expiration = Number(str(o['expiration']) || '0');
    } catch {
      return bad('Invalid order payload');
    }
    const maker = str(o['maker']);
    const signer = str(o['signer']);
    const signature = str(o['signature']) as Hex;
    if (
      (side !== 'BUY' && side !== 'SELL') ||
      !isAddress(maker) ||
      !isAddress(signer) ||
      ![0, 1, 2, 3].includes(sigType)
    )
      return bad('Invalid order payload');
    if (makerAmount <= 0n || takerAmount <= 0n) return bad('invalid amounts');
    if ('nonce' in o || 'feeRateBps' in o) return bad('order_version_mismatch');
    const found = this.market(tokenId.toString());
    if (!found) return bad('Invalid order payload: unknown token id');
    const { market } = found;

    const message = {
      salt,
      maker: getAddress(maker),
      signer: getAddress(signer),
      tokenId,
      makerAmount,
      takerAmount,
      side: side === 'BUY' ? 0 : 1,
      signatureType: sigType,
      timestamp,
      metadata: (str(o['metadata']) || `0x${'0'.repeat(64)}`) as Hex,
      builder: (str(o['builder']) || `0x${'0'.repeat(64)}`) as Hex,
    };
    const exchange = market.negRisk ? EXT_CONTRACTS.negRiskExchangeV2 : EXT_CONTRACTS.exchangeV2;
    const domainOf = (version: string) => ({
      name: 'Polymarket CTF Exchange',
      version,
      chainId: POLYGON_CHAIN_ID,
      verifyingContract: exchange,
    });
    const owner = await this.orderSigner(sigType, message, signature, domainOf(String(this.version)));
    if (!owner) {
      const other = await this.orderSigner(sigType, message, signature, domainOf(this.version === 2 ? '1' : '2'));
      return bad(other ? 'order_version_mismatch' : 'invalid signature');
    }
    if (owner.toLowerCase() !== key.address.toLowerCase())
      return bad('the order signer address has to be the address of the API KEY');
    const funder = this.funderOf(owner, sigType);
    if (funder.toLowerCase() !== maker.toLowerCase())
      return bad('maker address not allowed, please use the deposit wallet flow');

    // Price and size from the signed amounts, as the exchange reads them.
    const shares = side === 'BUY' ? takerAmount : makerAmount;
    const collateral = side === 'BUY' ? makerAmount : takerAmount;
    const tick = BigInt(Math.round(Number(market.tickSize) * 1e6));
    const exact = (collateral * EXT_UNIT) % shares === 0n;
    let price = (collateral * EXT_UNIT) / shares;
    const limit = orderType === 'GTC' || orderType === 'GTD';
    if (limit && (!exact || price % tick !== 0n))
      return bad(`invalid price (${fromMicro(price)}), tick size ${market.tickSize}`);
    // A market order's worst price is rounded to the tick in the taker's favour of filling.
    if (!limit) price = side === 'BUY' ? ((price + tick - 1n) / tick) * tick : (price / tick) * tick;
    if (price < tick || price > EXT_UNIT - tick)
      return bad(`invalid price (${fromMicro(price)}), min: ${market.tickSize} - max: ${fromMicro(EXT_UNIT - tick)}`);
    if (shares < market.minOrderSize)
      return bad(`Size (${fromMicro(shares)}) lower than the minimum: ${fromMicro(market.minOrderSize)}`);
    if (orderType === 'GTD' && expiration <= this.nowSec()) return bad('invalid expiration');
    if (orderType !== 'GTD' && expiration !== 0) return bad('invalid expiration: only GTD orders expire');

    const id = hashTypedData({ domain: domainOf('2'), types: ORDER_TYPES, primaryType: 'Order', message });
    if (this.orders.has(id)) return bad(`order ${id} is invalid. Duplicated.`);

    const pusd = EXT_CONTRACTS.pUsd;
    if (side === 'BUY') {
      const need = notional(shares, price);
      const free = this.ledger.balance(maker, pusd) - this.reserved(maker, pusd);
      if (free < need || this.ledger.allowance(maker, pusd, exchange) < need)
        return bad('not enough balance / allowance');
    } else {
      const free = this.ledger.balance(maker, tokenId.toString()) - this.reserved(maker, tokenId.toString());
      if (free < shares || !this.ledger.isApprovedForAll(maker, exchange)) return bad('not enough balance / allowance');
    }

    const order: BookOrder = {
      id,
      owner: key.key,
      maker: getAddress(maker),
      tokenId: tokenId.toString(),
      side,
      price,
      originalSize: shares,
      sizeMatched: 0n,
      orderType,
      expiration,
      createdAt: this.nowSec(),
      seq: ++this.seq,
      status: 'live',
    };
    const result = this.book(order.tokenId).submit(order, this.nowSec(), postOnly);
    if (!result.ok) {
      const why = {
        'post-only-crosses': 'invalid post-only order: order crosses book',
        'fok-not-filled': "order couldn't be fully filled. FOK orders are fully filled or killed.",
        'fak-no-match':
          'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.',
      }[result.refusal];
      return bad(why);
    }
    this.orders.set(id, order);
    let making = 0n;
    let taking = 0n;
    const tradeIds: string[] = [];
    const hashes: string[] = [];
    if (result.fills.length > 0) {
      for (const f of result.fills) {
        const cash = notional(f.size, f.price);
        const buyer = side === 'BUY' ? order.maker : f.maker.maker;
        const seller = side === 'BUY' ? f.maker.maker : order.maker;
        this.ledger.transfer(buyer, seller, pusd, cash);
        this.ledger.transfer(seller, buyer, order.tokenId, f.size);
        this.account(buyer, order.tokenId, f.size, cash, 'buy');
        this.account(seller, order.tokenId, f.size, cash, 'sell');
        making += side === 'BUY' ? cash : f.size;
        taking += side === 'BUY' ? f.size : cash;
      }
      const size = result.fills.reduce((s, f) => s + f.size, 0n);
      const trade: Trade = {
        id: keccak256(toHex(`${this.seed}|trade|${id}|${this.trades.length}`)).slice(2, 38),
        takerOrder: order,
        market,
        outcome: found.market.tokens[found.index].outcome,
        size,
        price: result.fills[0]!.price,
        matchMs: this.clock.now(),
        makers: result.fills.map((f) => ({ order: f.maker, size: f.size, price: f.price })),
        txHash: keccak256(toHex(`${this.seed}|tx|${id}`)),
      };
      this.trades.push(trade);
      this.lastPrice.set(order.tokenId, { price: result.fills.at(-1)!.price, side });
      tradeIds.push(trade.id);
      hashes.push(trade.txHash);
    }
    return ok({
      success: true,
      errorMsg: '',
      orderID: id,
      status: result.status,
      makingAmount: fromMicro(making),
      takingAmount: fromMicro(taking),
      tradeIDs: tradeIds,
      transactionsHashes: hashes,
    });
  }

  private account(wallet: string, tokenId: string, size: bigint, cash: bigint, kind: 'buy' | 'sell'): void {
    const k = `${wallet.toLowerCase()}|${tokenId}`;
    const b = this.basis(wallet, tokenId);
    if (kind === 'buy') this.costBasis.set(k, { ...b, bought: b.bought + size, cost: b.cost + cash });
    else {
      const avg = b.bought === 0n ? 0n : (b.cost * EXT_UNIT) / b.bought;
      this.costBasis.set(k, { ...b, realized: b.realized + cash - notional(size, avg) });
    }
  }

  /** The EOA whose signature the order carries, or undefined when it does not verify. */
  private async orderSigner(
    sigType: number,
    message: { signer: Address; maker: Address } & Record<string, unknown>,
    signature: Hex,
    domain: { name: string; version: string; chainId: number; verifyingContract: Address },
  ): Promise<Address | undefined> {
    try {
      if (sigType !== 3) {
        const who = await recoverTypedDataAddress({
          domain,
          types: ORDER_TYPES,
          primaryType: 'Order',
          message: message as never,
          signature,
        });
        return who.toLowerCase() === message.signer.toLowerCase() ? who : undefined;
      }
      // POLY_1271: an ERC-7739 TypedDataSign envelope; its first 65 bytes are the owner's signature.
      const inner = signature.slice(0, 132) as Hex;
      const who = await recoverTypedDataAddress({
        domain,
        types: { TypedDataSign: TYPED_DATA_SIGN, ...ORDER_TYPES },
        primaryType: 'TypedDataSign',
        message: {
          contents: message as never,
          name: 'DepositWallet',
          version: '1',
          chainId: BigInt(POLYGON_CHAIN_ID),
          verifyingContract: message.signer,
          salt: `0x${'0'.repeat(64)}`,
        },
        signature: inner,
      });
      return this.wallets.ownerOf(message.maker)?.toLowerCase() === who.toLowerCase() ? who : undefined;
    } catch {
      return undefined;
    }
  }

  /** The wallet an EOA trades from for a signature type: itself, its Safe or its deposit wallet. */
  funderOf(owner: Address, sigType: number): Address {
    if (sigType === 2) return safeAddressOf(owner);
    if (sigType === 3) return depositWalletAddressOf(owner);
    return owner;
  }

  private cancel(key: ApiKey, ids: string[]): { canceled: string[]; not_canceled: Record<string, string> } {
    const canceled: string[] = [];
    const notCanceled: Record<string, string> = {};
    for (const id of ids) {
      const o = this.orders.get(id);
      if (!o || o.owner !== key.key) notCanceled[id] = 'Order not found or already canceled';
      else if (o.status !== 'live')
        notCanceled[id] = o.status === 'matched' ? 'Order already matched' : 'Order not found or already canceled';
      else {
        this.book(o.tokenId).remove(id);
        canceled.push(id);
      }
    }
    return { canceled, not_canceled: notCanceled };
  }

  private openOrderJson(o: BookOrder) {
    const m = this.market(o.tokenId)!;
    return {
      id: o.id,
      status: o.status.toUpperCase() === 'LIVE' ? 'LIVE' : o.status.toUpperCase(),
      owner: o.owner,
      maker_address: o.maker,
      market: m.market.conditionId,
      asset_id: o.tokenId,
      side: o.side,
      original_size: fromMicro(o.originalSize),
      size_matched: fromMicro(o.sizeMatched),
      price: fromMicro(o.price),
      associate_trades: this.trades
        .filter((t) => t.takerOrder === o || t.makers.some((x) => x.order === o))
        .map((t) => t.id),
      outcome: m.market.tokens[m.index].outcome,
      created_at: o.createdAt,
      expiration: String(o.expiration),
      order_type: o.orderType,
    };
  }

  private openOrders(key: ApiKey, q: URLSearchParams) {
    for (const b of this.books.values()) b.expire(this.nowSec());
    return [...this.orders.values()]
      .filter((o) => o.owner === key.key && o.status === 'live')
      .filter((o) => !q.get('id') || o.id === q.get('id'))
      .filter((o) => !q.get('asset_id') || o.tokenId === q.get('asset_id'))
      .filter((o) => !q.get('market') || this.market(o.tokenId)?.market.conditionId === q.get('market'))
      .map((o) => this.openOrderJson(o));
  }

  /** Status of a trade on the injected clock: MATCHED, then MINED, then CONFIRMED. */
  private tradeStatus(t: Trade): string {
    const age = this.clock.now() - t.matchMs;
    if (age < this.timings.mineMs) return 'MATCHED';
    if (age < this.timings.mineMs + this.timings.confirmMs) return 'MINED';
    return 'CONFIRMED';
  }

  private tradesOf(key: ApiKey, q: URLSearchParams) {
    const out = [];
    for (const t of this.trades) {
      const asTaker = t.takerOrder.owner === key.key;
      const mine = t.makers.filter((m) => m.order.owner === key.key);
      if (!asTaker && mine.length === 0) continue;
      if (q.get('id') && t.id !== q.get('id')) continue;
      if (q.get('market') && t.market.conditionId !== q.get('market')) continue;
      if (q.get('asset_id') && t.takerOrder.tokenId !== q.get('asset_id')) continue;
      out.push({
        id: t.id,
        taker_order_id: t.takerOrder.id,
        market: t.market.conditionId,
        asset_id: t.takerOrder.tokenId,
        side: asTaker ? t.takerOrder.side : t.takerOrder.side === 'BUY' ? 'SELL' : 'BUY',
        size: fromMicro(asTaker ? t.size : mine.reduce((s, m) => s + m.size, 0n)),
        fee_rate_bps: '0',
        price: fromMicro(asTaker ? t.price : mine[0]!.price),
        status: this.tradeStatus(t),
        match_time: String(Math.floor(t.matchMs / 1000)),
        last_update: String(Math.floor(t.matchMs / 1000)),
        outcome: t.outcome,
        owner: key.key,
        maker_address: asTaker ? t.takerOrder.maker : mine[0]!.order.maker,
        bucket_index: 0,
        maker_orders: t.makers.map((m) => ({
          order_id: m.order.id,
          owner: m.order.owner,
          maker_address: m.order.maker,
          matched_amount: fromMicro(m.size),
          price: fromMicro(m.price),
          fee_rate_bps: '0',
          asset_id: m.order.tokenId,
          outcome: t.outcome,
          side: m.order.side,
        })),
        transaction_hash: t.txHash,
        trader_side: asTaker ? 'TAKER' : 'MAKER',
      });
    }
    return out;
  }

  private balanceAllowance(key: ApiKey, q: URLSearchParams): SimResponse {
    const sigType = Number(q.get('signature_type') ?? '0');
    const wallet = this.funderOf(key.address, sigType);
    const assetType = q.get('asset_type');
    if (assetType === 'COLLATERAL') {
      const spenders = [EXT_CONTRACTS.exchangeV2, EXT_CONTRACTS.negRiskExchangeV2, EXT_CONTRACTS.negRiskAdapter];
      return ok({
        balance: (
          this.ledger.balance(wallet, EXT_CONTRACTS.pUsd) - this.reserved(wallet, EXT_CONTRACTS.pUsd)
        ).toString(),
        allowances: Object.fromEntries(
          spenders.map((s) => [s, this.ledger.allowance(wallet, EXT_CONTRACTS.pUsd, s).toString()]),
        ),
      });
    }
    if (assetType === 'CONDITIONAL') {
      const token = q.get('token_id') ?? '';
      if (!this.market(token)) return bad('market not found', 404);
      const spenders = [EXT_CONTRACTS.exchangeV2, EXT_CONTRACTS.negRiskExchangeV2, EXT_CONTRACTS.negRiskAdapter];
      return ok({
        balance: (this.ledger.balance(wallet, token) - this.reserved(wallet, token)).toString(),
        allowances: Object.fromEntries(spenders.map((s) => [s, this.ledger.isApprovedForAll(wallet, s) ? 'max' : '0'])),
      });
    }
    return bad('Invalid asset type');
  }
}
