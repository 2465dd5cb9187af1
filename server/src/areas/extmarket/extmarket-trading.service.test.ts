import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ExtOrderRejected,
  type ExtMarketInfo,
  type ExtOpenOrder,
  type ExtOrderRequest,
  type ExtSignedOrder,
  type ExternalExchange,
} from '../../adapters/extmarket/external-exchange.port.js';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../platform/clock.js';
import { SecretBox } from '../identity/secret-box.js';
import { ExtAccounts } from './extmarket-accounts.port.js';
import { MemoryExtStore as MemoryStore } from './extmarket-store.test-kit.js';
import { ExtTradingService } from './extmarket-trading.service.js';

const MARKET: ExtMarketInfo = {
  tokenId: '42',
  conditionId: `0x${'1'.repeat(64)}`,
  tickSize: '0.01',
  minOrderSize: '5',
  negRisk: false,
};

/** An exchange that books posted orders by id and can fail the next post as an outage would. */
class FakeExchange {
  signed = 0;
  posts: string[] = [];
  book = new Map<string, ExtOpenOrder>();
  failNextPost: Error | undefined;
  refuse: ExtOrderRejected | undefined;

  asPort(): ExternalExchange {
    return this as unknown as ExternalExchange;
  }
  async marketInfo(tokenId: string) {
    if (tokenId !== MARKET.tokenId) throw new DomainError('EXTMARKET_TOKEN_UNKNOWN', 'unknown');
    return MARKET;
  }
  async signOrder(_s: unknown, order: ExtOrderRequest): Promise<ExtSignedOrder> {
    this.signed++;
    return { orderId: `0x${String(this.signed).padStart(64, '0')}`, payload: { ...order } };
  }
  async postOrder(_s: unknown, order: ExtSignedOrder) {
    this.posts.push(order.orderId);
    if (this.refuse) throw this.refuse;
    if (this.book.has(order.orderId))
      throw new ExtOrderRejected('duplicate', `order ${order.orderId} is invalid. Duplicated.`);
    const p = order.payload as unknown as ExtOrderRequest;
    this.book.set(order.orderId, {
      id: order.orderId,
      status: 'LIVE',
      market: MARKET.conditionId,
      asset_id: p.tokenId,
      side: p.side,
      original_size: p.size,
      size_matched: '0',
      price: p.price,
      outcome: 'Yes',
      created_at: 0,
      expiration: '0',
      order_type: p.orderType,
      maker_address: '0x',
    });
    if (this.failNextPost) {
      const err = this.failNextPost;
      this.failNextPost = undefined;
      throw err; // accepted upstream, but the answer was lost
    }
    return {
      orderId: order.orderId,
      status: 'live',
      makingAmount: '0',
      takingAmount: '0',
      tradeIds: [],
      transactionHashes: [],
    };
  }
  async getOrder(_s: unknown, id: string) {
    return this.book.get(id) ?? null;
  }
  async trades() {
    return [];
  }
  async deriveCredentials() {
    return { key: 'k', secret: 's', passphrase: 'p' };
  }
}

async function setup() {
  const store = new MemoryStore();
  const exchange = new FakeExchange();
  const box = new SecretBox(randomBytes(32));
  const deps = { store, exchange: exchange.asPort(), box };
  const clock = new ManualClock(Date.UTC(2026, 10, 28));
  const caller = { userId: 'u1', managedAddress: '0x000000000000000000000000000000000000dEaD' };
  const accounts = new ExtAccounts(deps);
  const row = await accounts.ensure(caller, 'deposit-wallet', new Date(clock.now()));
  await accounts.storeCredentials(row, { key: 'k', secret: 's', passphrase: 'p' }, 0, new Date(clock.now()));
  return { store, exchange, service: new ExtTradingService(deps, clock), caller, clock };
}

const order = (
  over: Partial<{
    price: string;
    size: string;
    orderType: 'GTC' | 'GTD' | 'FOK' | 'FAK';
    postOnly: boolean;
    expiration: number;
  }> = {},
) => ({
  tokenId: '42',
  side: 'BUY' as const,
  price: '0.40',
  size: '10',
  orderType: 'GTC' as const,
  postOnly: false,
  ...over,
});

describe('ExtTradingService.placeOrder', () => {
  it('refuses a price off the tick or outside [tick, 1 − tick] before signing', async () => {
    const { service, caller, exchange } = await setup();
    for (const price of ['0.405', '0', '0.995', '1']) {
      await expect(service.placeOrder(caller, order({ price }), undefined)).rejects.toMatchObject({
        code: 'EXTMARKET_INVALID_TICK',
      });
    }
    expect(exchange.signed).toBe(0);
  });

  it('refuses a size below the market minimum or with too many decimals', async () => {
    const { service, caller } = await setup();
    await expect(service.placeOrder(caller, order({ size: '4.99' }), undefined)).rejects.toMatchObject({
      code: 'EXTMARKET_BELOW_MIN_SIZE',
    });
    await expect(service.placeOrder(caller, order({ size: '5.001' }), undefined)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('needs a future expiration on GTD orders only', async () => {
    const { service, caller, clock } = await setup();
    const past = Math.floor(clock.now() / 1000) - 1;
    await expect(
      service.placeOrder(caller, order({ orderType: 'GTD', expiration: past }), undefined),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(service.placeOrder(caller, order({ expiration: past + 100 }), undefined)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    const ok = await service.placeOrder(caller, order({ orderType: 'GTD', expiration: past + 100 }), undefined);
    expect(ok.status).toBe('live');
  });

  it('posts the same signed order on a retry after a lost answer, never a second order', async () => {
    const { service, caller, exchange } = await setup();
    exchange.failNextPost = new DomainError('UPSTREAM_TIMEOUT', 'lost', { retryAfterMs: 1000 });
    await expect(service.placeOrder(caller, order(), 'key-1')).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    const retried = await service.placeOrder(caller, order(), 'key-1');
    expect(exchange.signed).toBe(1);
    expect(exchange.posts).toEqual([retried.orderId, retried.orderId]);
    expect(exchange.book.size).toBe(1);
    expect(retried.status).toBe('live');
  });

  it('signs a new order for a new key', async () => {
    const { service, caller, exchange } = await setup();
    const a = await service.placeOrder(caller, order(), 'a');
    const b = await service.placeOrder(caller, order(), 'b');
    expect(a.orderId).not.toBe(b.orderId);
    expect(exchange.book.size).toBe(2);
  });

  it('maps the exchange’s refusals to stable codes', async () => {
    const { service, caller, exchange } = await setup();
    const cases = [
      ['insufficient-balance', 'EXTMARKET_INSUFFICIENT_BALANCE'],
      ['post-only-crosses', 'EXTMARKET_POST_ONLY_CROSSES'],
      ['version-mismatch', 'EXTMARKET_VERSION_MISMATCH'],
      ['not-filled', 'EXTMARKET_ORDER_NOT_FILLED'],
      ['invalid', 'EXTMARKET_ORDER_REJECTED'],
    ] as const;
    for (const [refusal, code] of cases) {
      exchange.refuse = new ExtOrderRejected(refusal, refusal);
      await expect(service.placeOrder(caller, order(), undefined)).rejects.toMatchObject({
        code,
        details: { refusal },
      });
    }
  });

  it('asks for credentials before anything else', async () => {
    const { service } = await setup();
    await expect(
      service.placeOrder({ userId: 'nobody', managedAddress: '0x0' }, order(), undefined),
    ).rejects.toMatchObject({
      code: 'EXTMARKET_NO_CREDENTIALS',
    });
  });
});
