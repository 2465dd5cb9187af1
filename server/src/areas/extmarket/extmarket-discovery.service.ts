import type { ExtEvent, ExternalExchange } from '../../adapters/extmarket/external-exchange.port.js';
import type { Clock } from '../../platform/clock.js';

/** How long discovery answers are reused (ms); documented in docs/external-markets.md. */
export const DISCOVERY_TTL = {
  events: 30_000,
  sports: 3_600_000,
  search: 30_000,
  cardPrices: 2_000,
} as const;

/** A small TTL cache on the injected clock, bounded in entries. */
class TtlCache<T> {
  private readonly entries = new Map<string, { at: number; value: T }>();
  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
    private readonly max = 500,
  ) {}

  async get(key: string, load: () => Promise<T>): Promise<{ value: T; at: number }> {
    const hit = this.entries.get(key);
    if (hit && this.clock.now() - hit.at < this.ttlMs) return hit;
    const entry = { at: this.clock.now(), value: await load() };
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
    return entry;
  }
}

const eventView = (e: ExtEvent) => ({
  id: e.id,
  slug: e.slug,
  title: e.title,
  startDate: e.startDate,
  live: e.live,
  volume24hr: String(e.volume24hr),
  tags: e.tags.map((t) => ({ ...t })),
  markets: e.markets.map((m) => ({
    ...m,
    tokenIds: [...m.tokenIds],
    outcomes: [...m.outcomes],
    outcomePrices: [...m.outcomePrices],
  })),
});

/** Discovery of the external market: events, sports, search, live scores and card prices, cached. */
export class ExtDiscoveryService {
  private readonly events: TtlCache<ReturnType<typeof eventView>[]>;
  private readonly sports: TtlCache<Awaited<ReturnType<ExternalExchange['sports']>>>;
  private readonly search: TtlCache<Awaited<ReturnType<ExternalExchange['search']>>>;
  private readonly prices: TtlCache<{ buy: string | null; sell: string | null; mid: string | null }[]>;

  constructor(
    private readonly exchange: ExternalExchange,
    private readonly clock: Clock,
  ) {
    this.events = new TtlCache(DISCOVERY_TTL.events, clock);
    this.sports = new TtlCache(DISCOVERY_TTL.sports, clock);
    this.search = new TtlCache(DISCOVERY_TTL.search, clock);
    this.prices = new TtlCache(DISCOVERY_TTL.cardPrices, clock);
  }

  async eventsByTags(q: { tagIds: string; limit: number; offset: number }) {
    const tagIds = q.tagIds.split(',');
    const r = await this.events.get(`${q.tagIds}|${q.limit}|${q.offset}`, async () =>
      (await this.exchange.events({ tagIds, limit: q.limit, offset: q.offset })).map(eventView),
    );
    return { events: r.value, cachedAt: new Date(r.at).toISOString() };
  }

  async sportsMap() {
    const r = await this.sports.get('all', () => this.exchange.sports());
    return { sports: r.value.map((s) => ({ ...s, tagIds: [...s.tagIds] })), cachedAt: new Date(r.at).toISOString() };
  }

  async publicSearch(q: { q: string; limitPerType: number }) {
    const r = await this.search.get(`${q.q.toLowerCase()}|${q.limitPerType}`, () =>
      this.exchange.search(q.q, q.limitPerType),
    );
    return {
      events: r.value.events.map(eventView),
      tags: r.value.tags.map((t) => ({ ...t })),
      cachedAt: new Date(r.at).toISOString(),
    };
  }

  async liveScores() {
    const scores = await this.exchange.liveScores();
    return { scores: scores.map((s) => ({ ...s })), asOf: new Date(this.clock.now()).toISOString() };
  }

  /** Best ask, best bid and midpoint of each token, in two batch calls to the exchange. */
  async cardPrices(body: { tokenIds: string[] }) {
    const ids = [...new Set(body.tokenIds)];
    const r = await this.prices.get(ids.join(','), async () => {
      const quotes = await this.exchange.prices(
        ids.flatMap((tokenId) => [
          { tokenId, side: 'BUY' as const },
          { tokenId, side: 'SELL' as const },
        ]),
      );
      const mids = await this.exchange.midpoints(ids);
      const price = (v: string | undefined) => (v === undefined || Number(v) === 0 ? null : v);
      return ids.map((id) => ({ buy: price(quotes[id]?.BUY), sell: price(quotes[id]?.SELL), mid: price(mids[id]) }));
    });
    return { prices: ids.map((tokenId, i) => ({ tokenId, ...r.value[i]! })) };
  }
}
