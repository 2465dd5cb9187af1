import { EXT_UNIT } from '../extmarket.protocol.js';

export type BookSide = 'BUY' | 'SELL';
export type TimeInForce = 'GTC' | 'GTD' | 'FOK' | 'FAK';
export type OrderStatus = 'live' | 'matched' | 'cancelled' | 'expired' | 'unmatched';

/** An order the book holds or matched. Prices and sizes are 6-decimal base units. */
export interface BookOrder {
  readonly id: string;
  /** API key of the account that placed it. */
  readonly owner: string;
  /** The funder (trading wallet). */
  readonly maker: string;
  readonly tokenId: string;
  readonly side: BookSide;
  readonly price: bigint;
  readonly originalSize: bigint;
  sizeMatched: bigint;
  readonly orderType: TimeInForce;
  /** Unix seconds; 0 means none (only GTD orders expire). */
  readonly expiration: number;
  readonly createdAt: number;
  /** Arrival order: the time half of price-time priority. */
  readonly seq: number;
  status: OrderStatus;
}

/** One maker order's part of a match, at the maker's price. */
export interface Fill {
  readonly maker: BookOrder;
  readonly size: bigint;
  readonly price: bigint;
}

export type MatchRefusal = 'post-only-crosses' | 'fok-not-filled' | 'fak-no-match';

export type MatchResult =
  | { readonly ok: true; readonly fills: readonly Fill[]; readonly status: OrderStatus; readonly rested: boolean }
  | { readonly ok: false; readonly refusal: MatchRefusal };

/** Collateral for `size` shares at `price`, rounded down to the base unit. */
export function notional(size: bigint, price: bigint): bigint {
  return (size * price) / EXT_UNIT;
}

const remaining = (o: BookOrder) => o.originalSize - o.sizeMatched;

/**
 * One token's order book with price-time priority: the best price first, then the earlier order.
 * A taker fills at the resting makers' prices.
 */
export class OrderBook {
  private readonly bids: BookOrder[] = [];
  private readonly asks: BookOrder[] = [];

  constructor(readonly tokenId: string) {}

  /** Resting orders of a side, best first. */
  levels(side: BookSide): readonly BookOrder[] {
    return side === 'BUY' ? this.bids : this.asks;
  }

  bestPrice(side: BookSide): bigint | undefined {
    return this.levels(side)[0]?.price;
  }

  /** Removes GTD orders whose expiration has passed and returns them, marked expired. */
  expire(nowSec: number): BookOrder[] {
    const out: BookOrder[] = [];
    for (const list of [this.bids, this.asks]) {
      for (let i = list.length - 1; i >= 0; i--) {
        const o = list[i]!;
        if (o.expiration > 0 && o.expiration <= nowSec) {
          o.status = 'expired';
          out.push(o);
          list.splice(i, 1);
        }
      }
    }
    return out;
  }

  /** Takes an order off the book (a cancel); false when it is not resting here. */
  remove(id: string): BookOrder | undefined {
    for (const list of [this.bids, this.asks]) {
      const i = list.findIndex((o) => o.id === id);
      if (i >= 0) {
        const [o] = list.splice(i, 1);
        o!.status = 'cancelled';
        return o;
      }
    }
    return undefined;
  }

  /**
   * Matches an incoming order against the book. FOK fills completely or changes nothing; FAK fills
   * what it can and cancels the rest; GTC and GTD rest what is left. A post-only order that would
   * cross is refused without any change.
   */
  submit(taker: BookOrder, nowSec: number, postOnly = false): MatchResult {
    this.expire(nowSec);
    const opposite = taker.side === 'BUY' ? this.asks : this.bids;
    const crosses = (maker: BookOrder) =>
      taker.side === 'BUY' ? maker.price <= taker.price : maker.price >= taker.price;
    if (postOnly && opposite[0] && crosses(opposite[0])) return { ok: false, refusal: 'post-only-crosses' };

    const fills: Fill[] = [];
    let left = remaining(taker);
    for (const maker of opposite) {
      if (left === 0n || !crosses(maker)) break;
      const size = remaining(maker) < left ? remaining(maker) : left;
      fills.push({ maker, size, price: maker.price });
      left -= size;
    }
    if (taker.orderType === 'FOK' && left > 0n) return { ok: false, refusal: 'fok-not-filled' };
    if (taker.orderType === 'FAK' && fills.length === 0) return { ok: false, refusal: 'fak-no-match' };

    for (const f of fills) {
      f.maker.sizeMatched += f.size;
      taker.sizeMatched += f.size;
      if (remaining(f.maker) === 0n) {
        f.maker.status = 'matched';
        opposite.splice(opposite.indexOf(f.maker), 1);
      }
    }
    const rests = left > 0n && (taker.orderType === 'GTC' || taker.orderType === 'GTD');
    if (rests) {
      this.insert(taker);
      taker.status = 'live';
    } else {
      taker.status = left === 0n || fills.length > 0 ? 'matched' : 'unmatched';
    }
    return { ok: true, fills, status: fills.length > 0 && !rests ? 'matched' : taker.status, rested: rests };
  }

  private insert(o: BookOrder): void {
    const list = o.side === 'BUY' ? this.bids : this.asks;
    const better = (a: BookOrder, b: BookOrder) =>
      a.price === b.price ? a.seq < b.seq : o.side === 'BUY' ? a.price > b.price : a.price < b.price;
    let i = list.findIndex((x) => better(o, x));
    if (i < 0) i = list.length;
    list.splice(i, 0, o);
  }
}
