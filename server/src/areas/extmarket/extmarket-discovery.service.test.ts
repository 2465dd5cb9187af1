import { describe, expect, it } from 'vitest';
import type {
  ExtEvent,
  ExtLiveScore,
  ExtSide,
  ExtSport,
  ExternalExchange,
} from '../../adapters/extmarket/external-exchange.port.js';
import { ManualClock } from '../../platform/clock.js';
import { DISCOVERY_TTL, ExtDiscoveryService } from './extmarket-discovery.service.js';

const START = Date.UTC(2026, 10, 28, 12);

function event(id: string): ExtEvent {
  return {
    id,
    slug: `event-${id}`,
    title: `Event ${id}`,
    startDate: '2026-11-29T18:00:00Z',
    live: false,
    volume24hr: 1234.5,
    tags: [{ id: '1', label: 'Soccer', slug: 'soccer' }],
    markets: [
      {
        conditionId: `0xc${id}`,
        question: 'Who wins?',
        slug: `market-${id}`,
        tokenIds: ['11', '12'],
        outcomes: ['Yes', 'No'],
        outcomePrices: ['0.4', '0.6'],
        negRisk: false,
        tickSize: '0.01',
        minOrderSize: '5',
        active: true,
        closed: false,
      },
    ],
  };
}

/** The exchange's discovery endpoints, counting the calls each answer cost. */
class FakeExchange {
  calls = { events: 0, sports: 0, search: 0, liveScores: 0, prices: 0, midpoints: 0 };
  eventFilters: { tagIds: readonly string[]; limit: number; offset: number }[] = [];
  priceItems: (readonly { tokenId: string; side: ExtSide }[])[] = [];
  quotes: Record<string, Partial<Record<ExtSide, string>>> = {};
  mids: Record<string, string> = {};
  sportsList: ExtSport[] = [
    { sport: 'epl', image: '', resolution: '', ordering: 'home', tagIds: ['1', '82'], series: '10188' },
  ];
  scores: ExtLiveScore[] = [];

  events(filter: { tagIds: readonly string[]; limit: number; offset: number }) {
    this.calls.events++;
    this.eventFilters.push(filter);
    return Promise.resolve([event(`${this.calls.events}`)]);
  }
  sports() {
    this.calls.sports++;
    return Promise.resolve(this.sportsList);
  }
  search(q: string) {
    this.calls.search++;
    return Promise.resolve({ events: [event(q)], tags: [{ id: '1', label: q, slug: q }] });
  }
  liveScores() {
    this.calls.liveScores++;
    return Promise.resolve(this.scores);
  }
  prices(items: readonly { tokenId: string; side: ExtSide }[]) {
    this.calls.prices++;
    this.priceItems.push(items);
    return Promise.resolve(this.quotes);
  }
  midpoints() {
    this.calls.midpoints++;
    return Promise.resolve(this.mids);
  }
  asPort(): ExternalExchange {
    return this as unknown as ExternalExchange;
  }
}

function setup() {
  const clock = new ManualClock(START);
  const exchange = new FakeExchange();
  return { clock, exchange, service: new ExtDiscoveryService(exchange.asPort(), clock) };
}

describe('ExtDiscoveryService', () => {
  it('keeps the documented cache windows: 30 s events and search, 1 h sports, 2 s card prices', () => {
    expect(DISCOVERY_TTL).toEqual({ events: 30_000, search: 30_000, sports: 3_600_000, cardPrices: 2_000 });
  });

  it('reuses an events answer for 30 s, stamped with when it was fetched, then fetches again', async () => {
    const { clock, exchange, service } = setup();
    const first = await service.eventsByTags({ tagIds: '1,82', limit: 10, offset: 0 });
    expect(exchange.eventFilters).toEqual([{ tagIds: ['1', '82'], limit: 10, offset: 0 }]);
    clock.advance(DISCOVERY_TTL.events - 1);
    const again = await service.eventsByTags({ tagIds: '1,82', limit: 10, offset: 0 });
    expect(again).toEqual(first);
    expect(again.cachedAt).toBe(new Date(START).toISOString());
    expect(exchange.calls.events).toBe(1);
    clock.advance(1);
    const fresh = await service.eventsByTags({ tagIds: '1,82', limit: 10, offset: 0 });
    expect(exchange.calls.events).toBe(2);
    expect(fresh.cachedAt).toBe(new Date(START + DISCOVERY_TTL.events).toISOString());
    expect(fresh.events[0]!.id).toBe('2');
  });

  it('caches each page of events apart: tags, limit and offset all name the entry', async () => {
    const { exchange, service } = setup();
    await service.eventsByTags({ tagIds: '1', limit: 10, offset: 0 });
    await service.eventsByTags({ tagIds: '1', limit: 10, offset: 10 });
    await service.eventsByTags({ tagIds: '1', limit: 20, offset: 0 });
    await service.eventsByTags({ tagIds: '2', limit: 10, offset: 0 });
    await service.eventsByTags({ tagIds: '1', limit: 10, offset: 10 });
    expect(exchange.calls.events).toBe(4);
  });

  it('writes the 24 h volume as a decimal string and copies markets out of the exchange’s answer', async () => {
    const { service } = setup();
    const { events } = await service.eventsByTags({ tagIds: '1', limit: 1, offset: 0 });
    expect(events[0]).toMatchObject({
      id: '1',
      volume24hr: '1234.5',
      markets: [{ tokenIds: ['11', '12'], outcomes: ['Yes', 'No'], outcomePrices: ['0.4', '0.6'] }],
    });
  });

  it('keeps the sports map an hour', async () => {
    const { clock, exchange, service } = setup();
    expect((await service.sportsMap()).sports).toEqual([exchange.sportsList[0]]);
    clock.advance(DISCOVERY_TTL.sports - 1);
    await service.sportsMap();
    expect(exchange.calls.sports).toBe(1);
    clock.advance(1);
    await service.sportsMap();
    expect(exchange.calls.sports).toBe(2);
  });

  it('shares a search answer between spellings that differ only in case, not between limits', async () => {
    const { clock, exchange, service } = setup();
    const first = await service.publicSearch({ q: 'Arsenal', limitPerType: 5 });
    expect(first).toMatchObject({ events: [{ id: 'Arsenal' }], tags: [{ label: 'Arsenal' }] });
    await service.publicSearch({ q: 'arsenal', limitPerType: 5 });
    expect(exchange.calls.search).toBe(1);
    await service.publicSearch({ q: 'arsenal', limitPerType: 6 });
    expect(exchange.calls.search).toBe(2);
    clock.advance(DISCOVERY_TTL.search);
    await service.publicSearch({ q: 'ARSENAL', limitPerType: 5 });
    expect(exchange.calls.search).toBe(3);
  });

  it('asks for live scores every time, stamped with the clock', async () => {
    const { clock, exchange, service } = setup();
    exchange.scores = [
      {
        gameId: 1,
        leagueAbbreviation: 'epl',
        slug: 'ars-che',
        homeTeam: 'Arsenal',
        awayTeam: 'Chelsea',
        status: 'InProgress',
        score: '1-0',
        period: '2H',
        elapsed: '61',
        live: true,
        ended: false,
      },
    ];
    await service.liveScores();
    clock.advance(5);
    const res = await service.liveScores();
    expect(exchange.calls.liveScores).toBe(2);
    expect(res).toEqual({ scores: [exchange.scores[0]], asOf: new Date(START + 5).toISOString() });
  });

  it('prices each distinct token once, in one batch of both sides, and nulls missing or zero quotes', async () => {
    const { exchange, service } = setup();
    exchange.quotes = { '11': { BUY: '0.42', SELL: '0.40' }, '12': { BUY: '0', SELL: '0.58' } };
    exchange.mids = { '11': '0.41' };
    const res = await service.cardPrices({ tokenIds: ['11', '12', '11'] });
    expect(exchange.priceItems).toEqual([
      [
        { tokenId: '11', side: 'BUY' },
        { tokenId: '11', side: 'SELL' },
        { tokenId: '12', side: 'BUY' },
        { tokenId: '12', side: 'SELL' },
      ],
    ]);
    expect(res.prices).toEqual([
      { tokenId: '11', buy: '0.42', sell: '0.40', mid: '0.41' },
      { tokenId: '12', buy: null, sell: '0.58', mid: null },
    ]);
  });

  it('reuses card prices for 2 s only', async () => {
    const { clock, exchange, service } = setup();
    exchange.quotes = { '11': { BUY: '0.42' } };
    await service.cardPrices({ tokenIds: ['11'] });
    clock.advance(DISCOVERY_TTL.cardPrices - 1);
    await service.cardPrices({ tokenIds: ['11'] });
    expect(exchange.calls).toMatchObject({ prices: 1, midpoints: 1 });
    clock.advance(1);
    exchange.quotes = { '11': { BUY: '0.50' } };
    expect((await service.cardPrices({ tokenIds: ['11'] })).prices[0]!.buy).toBe('0.50');
    expect(exchange.calls).toMatchObject({ prices: 2, midpoints: 2 });
  });

  it('bounds each cache to 500 entries, dropping the oldest first', async () => {
    const { exchange, service } = setup();
    for (let i = 0; i <= 500; i++) await service.publicSearch({ q: `q${i}`, limitPerType: 1 });
    expect(exchange.calls.search).toBe(501);
    await service.publicSearch({ q: 'q500', limitPerType: 1 });
    await service.publicSearch({ q: 'q1', limitPerType: 1 });
    expect(exchange.calls.search).toBe(501);
    await service.publicSearch({ q: 'q0', limitPerType: 1 });
    expect(exchange.calls.search).toBe(502);
  });
});
