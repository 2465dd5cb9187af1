import { describe, expect, it } from 'vitest';
import { OrderBook, notional, type BookOrder, type BookSide, type TimeInForce } from './matching-engine.js';

let seq = 0;
function order(side: BookSide, price: string, size: string, type: TimeInForce = 'GTC', expiration = 0): BookOrder {
  seq++;
  return {
    id: `o${seq}`,
    owner: `k${seq}`,
    maker: `0x${seq}`,
    tokenId: 't',
    side,
    price: BigInt(Math.round(Number(price) * 1e6)),
    originalSize: BigInt(Math.round(Number(size) * 1e6)),
    sizeMatched: 0n,
    orderType: type,
    expiration,
    createdAt: 0,
    seq,
    status: 'live',
  };
}

describe('OrderBook', () => {
  it('fills a crossing taker at the makers’ prices, best price first', () => {
    const book = new OrderBook('t');
    const a = order('SELL', '0.55', '10');
    const b = order('SELL', '0.50', '10');
    book.submit(a, 0);
    book.submit(b, 0);
    const taker = order('BUY', '0.60', '15');
    const r = book.submit(taker, 0);
    expect(r.ok && r.fills.map((f) => [f.maker.id, f.size, f.price])).toEqual([
      [b.id, 10_000_000n, 500_000n],
      [a.id, 5_000_000n, 550_000n],
    ]);
    expect(r.ok && r.status).toBe('matched');
    expect(book.levels('SELL')).toEqual([a]);
    expect(a.sizeMatched).toBe(5_000_000n);
    expect(b.status).toBe('matched');
  });

  it('gives the earlier order priority at one price', () => {
    const book = new OrderBook('t');
    const first = order('BUY', '0.40', '5');
    const second = order('BUY', '0.40', '5');
    book.submit(first, 0);
    book.submit(second, 0);
    const r = book.submit(order('SELL', '0.40', '5', 'FAK'), 0);
    expect(r.ok && r.fills[0]!.maker.id).toBe(first.id);
    expect(book.levels('BUY')).toEqual([second]);
  });

  it('rests the unfilled part of a GTC order and reports it live', () => {
    const book = new OrderBook('t');
    book.submit(order('SELL', '0.30', '2'), 0);
    const taker = order('BUY', '0.30', '5');
    const r = book.submit(taker, 0);
    expect(r.ok && r.rested).toBe(true);
    expect(taker.status).toBe('live');
    expect(book.levels('BUY')[0]!.id).toBe(taker.id);
    expect(book.bestPrice('BUY')).toBe(300_000n);
  });

  it('refuses a FOK order it cannot fill completely and leaves the book unchanged', () => {
    const book = new OrderBook('t');
    const maker = order('SELL', '0.30', '2');
    book.submit(maker, 0);
    const r = book.submit(order('BUY', '0.30', '3', 'FOK'), 0);
    expect(r).toEqual({ ok: false, refusal: 'fok-not-filled' });
    expect(maker.sizeMatched).toBe(0n);
    expect(book.levels('SELL')).toHaveLength(1);
  });

  it('fills what a FAK order can and cancels the rest; with nothing to match it is refused', () => {
    const book = new OrderBook('t');
    expect(book.submit(order('BUY', '0.30', '3', 'FAK'), 0)).toEqual({ ok: false, refusal: 'fak-no-match' });
    book.submit(order('SELL', '0.30', '2'), 0);
    const taker = order('BUY', '0.30', '3', 'FAK');
    const r = book.submit(taker, 0);
    expect(r.ok && r.rested).toBe(false);
    expect(taker.sizeMatched).toBe(2_000_000n);
    expect(book.levels('BUY')).toHaveLength(0);
  });

  it('refuses a post-only order that would cross and rests one that does not', () => {
    const book = new OrderBook('t');
    book.submit(order('SELL', '0.50', '1'), 0);
    expect(book.submit(order('BUY', '0.50', '1'), 0, true)).toEqual({ ok: false, refusal: 'post-only-crosses' });
    const r = book.submit(order('BUY', '0.49', '1'), 0, true);
    expect(r.ok && r.rested).toBe(true);
  });

  it('expires a GTD order at its expiration and never matches it afterwards', () => {
    const book = new OrderBook('t');
    const gtd = order('SELL', '0.50', '1', 'GTD', 100);
    book.submit(gtd, 0);
    const r = book.submit(order('BUY', '0.50', '1', 'FAK'), 100);
    expect(r).toEqual({ ok: false, refusal: 'fak-no-match' });
    expect(gtd.status).toBe('expired');
  });

  it('cancels a resting order by id', () => {
    const book = new OrderBook('t');
    const o = order('BUY', '0.10', '1');
    book.submit(o, 0);
    expect(book.remove(o.id)?.status).toBe('cancelled');
    expect(book.remove(o.id)).toBeUndefined();
  });

  it('prices collateral in base units, rounding down', () => {
    expect(notional(3_333_333n, 333_333n)).toBe(1_111_109n);
  });
});
