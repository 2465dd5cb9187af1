import { getAddress } from 'viem';
import {
  ExtOrderRejected,
  type ExtOrderRefusal,
  type ExtOrderRequest,
  type ExtSignedOrder,
} from '../../adapters/extmarket/external-exchange.port.js';
import { EXT_UNIT, ROUNDING, fromMicro, toMicro } from '../../adapters/extmarket/extmarket.protocol.js';
import { DomainError } from '../../errors.js';
import type { ErrorCode } from '@duelkit/contract';
import type { Clock } from '../../platform/clock.js';
import { ExtAccounts, type ExtCaller, type ExtDeps } from './extmarket-accounts.port.js';

const REFUSAL_CODES: Record<ExtOrderRefusal, ErrorCode> = {
  'insufficient-balance': 'EXTMARKET_INSUFFICIENT_BALANCE',
  'invalid-tick': 'EXTMARKET_INVALID_TICK',
  'below-minimum': 'EXTMARKET_BELOW_MIN_SIZE',
  'version-mismatch': 'EXTMARKET_VERSION_MISMATCH',
  'post-only-crosses': 'EXTMARKET_POST_ONLY_CROSSES',
  'not-filled': 'EXTMARKET_ORDER_NOT_FILLED',
  duplicate: 'EXTMARKET_ORDER_REJECTED',
  'wallet-not-allowed': 'EXTMARKET_ORDER_REJECTED',
  invalid: 'EXTMARKET_ORDER_REJECTED',
};

type PlacedStatus = 'live' | 'matched' | 'delayed' | 'unmatched';
const PLACED: readonly string[] = ['live', 'matched', 'delayed', 'unmatched'];
const TRADE_STATUSES = ['MATCHED', 'MINED', 'CONFIRMED', 'RETRYING', 'FAILED'] as const;

export interface PlaceOrderBody {
  tokenId: string;
  side: 'BUY' | 'SELL';
  price: string;
  size: string;
  orderType: 'GTC' | 'GTD' | 'FOK' | 'FAK';
  postOnly: boolean;
  expiration?: number | undefined;
}

const isoOfSeconds = (s: number | string) => new Date(Number(s) * 1000).toISOString();

/** Orders on the external CLOB: checked against the market's rules, signed here, posted once. */
export class ExtTradingService {
  private readonly accounts: ExtAccounts;

  constructor(
    private readonly deps: ExtDeps,
    private readonly clock: Clock,
  ) {
    this.accounts = new ExtAccounts(deps);
  }

  tickSize(tokenId: string) {
    return this.deps.exchange.marketInfo(tokenId);
  }

  /** Price on the tick and inside [tick, 1 − tick], size at least the minimum: 4xx naming the rule otherwise. */
  private check(body: PlaceOrderBody, tickSize: string, minOrderSize: string): void {
    const price = toMicro(body.price)!;
    const size = toMicro(body.size)!;
    const tick = toMicro(tickSize) ?? 10_000n;
    if (price % tick !== 0n || price < tick || price > EXT_UNIT - tick)
      throw new DomainError(
        'EXTMARKET_INVALID_TICK',
        `The price must be a multiple of ${tickSize} between ${tickSize} and ${fromMicro(EXT_UNIT - tick)}`,
        {
          details: { tickSize, price: body.price },
          fieldErrors: {
            'body.price': [`must be on the tick ${tickSize}, within [${tickSize}, ${fromMicro(EXT_UNIT - tick)}]`],
          },
        },
      );
    const sizeDecimals = ROUNDING[tickSize]?.size ?? 2;
    if ((body.size.split('.')[1] ?? '').length > sizeDecimals)
      throw new DomainError('VALIDATION_FAILED', `The size has at most ${sizeDecimals} decimals`, {
        fieldErrors: { 'body.size': [`at most ${sizeDecimals} decimals`] },
      });
    const min = toMicro(minOrderSize) ?? 0n;
    if (size < min)
      throw new DomainError(
        'EXTMARKET_BELOW_MIN_SIZE',
        `The size is below the market's minimum of ${minOrderSize} shares`,
        {
          details: { minOrderSize, size: body.size },
          fieldErrors: { 'body.size': [`must be at least ${minOrderSize}`] },
        },
      );
    if (body.orderType === 'GTD' && (body.expiration === undefined || body.expiration * 1000 <= this.clock.now()))
      throw new DomainError('VALIDATION_FAILED', 'A GTD order needs an expiration in the future', {
        fieldErrors: { 'body.expiration': ['required for GTD, in the future (unix seconds)'] },
      });
    if (body.orderType !== 'GTD' && body.expiration !== undefined)
      throw new DomainError('VALIDATION_FAILED', 'Only GTD orders expire', {
        fieldErrors: { 'body.expiration': ['only for GTD orders'] },
      });
    if (body.postOnly && (body.orderType === 'FOK' || body.orderType === 'FAK'))
      throw new DomainError('VALIDATION_FAILED', 'Only GTC and GTD orders can be post-only', {
        fieldErrors: { 'body.postOnly': ['only for GTC and GTD orders'] },
      });
  }

  /**
   * Signs and posts an order. With an Idempotency-Key the signed order is kept under the key
   * before it is posted, so a retry posts that same order again: the exchange refuses the
   * duplicate and the answer is the order as it stands, never a second order.
   */
  async placeOrder(caller: ExtCaller, body: PlaceOrderBody, idempotencyKey: string | undefined) {
    const { session } = await this.accounts.session(caller);
    const market = await this.deps.exchange.marketInfo(body.tokenId);
    this.check(body, market.tickSize, market.minOrderSize);
    const request: ExtOrderRequest = {
      tokenId: body.tokenId,
      side: body.side,
      price: body.price,
      size: body.size,
      orderType: body.orderType,
      postOnly: body.postOnly,
      ...(body.expiration === undefined ? {} : { expiration: body.expiration }),
    };
    let signed: ExtSignedOrder;
    let retry = false;
    if (idempotencyKey) {
      const kept = await this.deps.store.orderIntent(caller.userId, idempotencyKey);
      if (kept) {
        signed = { orderId: kept.orderId as `0x${string}`, payload: kept.payload };
        retry = true;
      } else {
        const fresh = await this.deps.exchange.signOrder(session, request, market);
        const stored = await this.deps.store.keepOrderIntent(
          caller.userId,
          idempotencyKey,
          fresh.orderId,
          fresh.payload,
          new Date(this.clock.now()),
        );
        signed = { orderId: stored.orderId as `0x${string}`, payload: stored.payload };
        retry = stored.orderId !== fresh.orderId;
      }
    } else {
      signed = await this.deps.exchange.signOrder(session, request, market);
    }
    try {
      const r = await this.deps.exchange.postOrder(session, signed);
      return {
        orderId: r.orderId,
        status: (PLACED.includes(r.status) ? r.status : 'live') as PlacedStatus,
        makingAmount: r.makingAmount,
        takingAmount: r.takingAmount,
        tradeIds: [...r.tradeIds],
        transactionHashes: [...r.transactionHashes],
      };
    } catch (err) {
      if (!(err instanceof ExtOrderRejected)) throw err;
      if (err.refusal === 'duplicate' || retry) {
        // The order was placed by an earlier attempt: answer it as it stands.
        const existing = await this.deps.exchange.getOrder(session, signed.orderId);
        if (existing) {
          const trades = (await this.deps.exchange.trades(session, { assetId: body.tokenId })).filter(
            (t) => t.taker_order_id === signed.orderId,
          );
          return {
            orderId: existing.id,
            status: (existing.status.toUpperCase() === 'LIVE' ? 'live' : 'matched') as PlacedStatus,
            makingAmount: '0',
            takingAmount: '0',
            tradeIds: trades.map((t) => t.id),
            transactionHashes: trades.map((t) => t.transaction_hash),
          };
        }
      }
      throw new DomainError(REFUSAL_CODES[err.refusal], `The exchange refused the order: ${err.message}`, {
        details: { reason: err.message, refusal: err.refusal },
      });
    }
  }

  async cancelOrder(caller: ExtCaller, orderId: string) {
    const { session } = await this.accounts.session(caller);
    const order = await this.deps.exchange.getOrder(session, orderId);
    if (!order)
      throw new DomainError('EXTMARKET_ORDER_NOT_FOUND', 'No order of the caller has this id', {
        details: { orderId },
      });
    const r = await this.deps.exchange.cancelOrder(session, orderId);
    return { canceled: [...r.canceled], notCanceled: { ...r.notCanceled } };
  }

  async cancelAll(caller: ExtCaller) {
    const { session } = await this.accounts.session(caller);
    const r = await this.deps.exchange.cancelAll(session);
    return { canceled: [...r.canceled], notCanceled: { ...r.notCanceled } };
  }

  async orders(caller: ExtCaller, q: { market?: string | undefined; assetId?: string | undefined }) {
    const { session } = await this.accounts.session(caller);
    const list = await this.deps.exchange.openOrders(session, {
      ...(q.market ? { market: q.market } : {}),
      ...(q.assetId ? { assetId: q.assetId } : {}),
    });
    return {
      orders: list.map((o) => ({
        id: o.id,
        status: o.status,
        market: o.market,
        assetId: o.asset_id,
        side: o.side === 'SELL' ? ('SELL' as const) : ('BUY' as const),
        originalSize: o.original_size,
        sizeMatched: o.size_matched,
        price: o.price,
        outcome: o.outcome,
        orderType: o.order_type,
        expiration: o.expiration,
        createdAt: isoOfSeconds(o.created_at),
      })),
    };
  }

  async trades(caller: ExtCaller, q: { market?: string | undefined; assetId?: string | undefined }) {
    const { session } = await this.accounts.session(caller);
    const list = await this.deps.exchange.trades(session, {
      ...(q.market ? { market: q.market } : {}),
      ...(q.assetId ? { assetId: q.assetId } : {}),
    });
    return {
      trades: list.map((t) => ({
        id: t.id,
        takerOrderId: t.taker_order_id,
        market: t.market,
        assetId: t.asset_id,
        side: t.side === 'SELL' ? ('SELL' as const) : ('BUY' as const),
        size: t.size,
        price: t.price,
        status: (TRADE_STATUSES as readonly string[]).includes(t.status)
          ? (t.status as (typeof TRADE_STATUSES)[number])
          : 'MATCHED',
        matchTime: isoOfSeconds(t.match_time),
        outcome: t.outcome,
        traderSide: t.trader_side === 'MAKER' ? ('MAKER' as const) : ('TAKER' as const),
        transactionHash: t.transaction_hash,
      })),
    };
  }

  async positions(caller: ExtCaller, q: { market?: string | undefined; redeemable?: boolean | undefined }) {
    const row = await this.accounts.require(caller);
    const wallet = getAddress(row.tradingWallet);
    const list = await this.deps.exchange.positions(wallet, {
      ...(q.market ? { market: q.market } : {}),
      ...(q.redeemable === undefined ? {} : { redeemable: q.redeemable }),
    });
    return {
      tradingWallet: wallet,
      positions: list.map((p) => ({
        asset: p.asset,
        conditionId: p.conditionId,
        size: p.size,
        avgPrice: p.avgPrice,
        initialValue: p.initialValue,
        currentValue: p.currentValue,
        cashPnl: p.cashPnl,
        realizedPnl: p.realizedPnl,
        curPrice: p.curPrice,
        redeemable: p.redeemable,
        title: p.title,
        outcome: p.outcome,
        outcomeIndex: p.outcomeIndex,
        eventSlug: p.eventSlug,
        negativeRisk: p.negativeRisk,
      })),
    };
  }
}
