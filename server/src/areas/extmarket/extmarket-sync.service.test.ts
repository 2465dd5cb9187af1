import { describe, expect, it } from 'vitest';
import type { ExtEvent } from '../../adapters/extmarket/external-exchange.port.js';
import { ManualClock } from '../../platform/clock.js';
import type { ExtSyncStore, PairedDuel, UnpairedDuel } from './extmarket-sync.repository.js';
import type { JobEngine } from '../../platform/jobs/job-engine.js';
import {
  CANONICAL_SYNC_JOB,
  EXTMARKET_QUEUE,
  ExtSyncService,
  normalizeQuestion,
  volumeBaseUnits,
} from './extmarket-sync.service.js';

interface Row {
  duelId: string;
  question: string;
  extMarketId: string | null;
  volume24h: bigint;
  live: boolean;
  canonical: boolean;
  endTime: number;
}

class MemoryStore implements ExtSyncStore {
  readonly rows = new Map<string, Row>();
  readonly seenNow: Date[] = [];

  add(row: Partial<Row> & { duelId: string }): void {
    this.rows.set(row.duelId, {
      question: row.duelId,
      extMarketId: null,
      volume24h: 0n,
      live: false,
      canonical: false,
      endTime: Date.UTC(2027, 0, 1),
      ...row,
    });
  }

  async paired(now: Date): Promise<PairedDuel[]> {
    this.seenNow.push(now);
    return [...this.rows.values()]
      .filter((r) => r.canonical && r.extMarketId && r.endTime > now.getTime())
      .map((r) => ({ duelId: r.duelId, extMarketId: r.extMarketId!, volume24h: r.volume24h, live: r.live }));
  }

  async unpaired(now: Date, limit: number): Promise<UnpairedDuel[]> {
    return [...this.rows.values()]
      .filter((r) => !r.extMarketId && r.endTime > now.getTime())
      .slice(0, limit)
      .map((r) => ({ duelId: r.duelId, question: r.question }));
  }

  async refresh(duelId: string, extMarketId: string, volume24h: bigint, live: boolean): Promise<boolean> {
    const r = this.rows.get(duelId);
    if (!r || r.extMarketId !== extMarketId) return false;
    Object.assign(r, { volume24h, live });
    return true;
  }

  async pair(duelId: string, extMarketId: string, volume24h: bigint, live: boolean): Promise<boolean> {
    const r = this.rows.get(duelId);
    if (!r || r.extMarketId) return false;
    Object.assign(r, { extMarketId, volume24h, live, canonical: true });
    return true;
  }
}

const market = (question: string, closed = false) => ({
  conditionId: `0x${question.length.toString(16)}`,
  question,
  slug: question,
  tokenIds: ['1', '2'],
  outcomes: ['Yes', 'No'],
  outcomePrices: ['0.5', '0.5'],
  negRisk: false,
  tickSize: '0.01',
  minOrderSize: '5',
  active: !closed,
  closed,
});

const event = (id: string, over: Partial<ExtEvent> = {}): ExtEvent => ({
  id,
  slug: `e-${id}`,
  title: `Event ${id}`,
  startDate: '2026-01-02T00:00:00Z',
  live: false,
  volume24hr: 0,
  tags: [],
  markets: [market(`Question ${id}?`)],
  ...over,
});

class FakeExchange {
  readonly events = new Map<string, ExtEvent>();
  failing = false;
  searches: string[] = [];

  async eventById(id: string): Promise<ExtEvent | null> {
    if (this.failing) throw new Error('gamma is down');
    return this.events.get(id) ?? null;
  }

  async search(q: string) {
    this.searches.push(q);
    if (this.failing) throw new Error('gamma is down');
    const needle = normalizeQuestion(q);
    const events = [...this.events.values()].filter((e) =>
      e.markets.some((m) => normalizeQuestion(m.question).includes(needle)),
    );
    return { events, tags: [] };
  }
}

function setup() {
  const store = new MemoryStore();
  const exchange = new FakeExchange();
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let changes = 0;
  const warnings: unknown[] = [];
  const sync = new ExtSyncService({
    store,
    exchange,
    clock,
    onChange: () => void changes++,
    logger: { warn: (o: unknown) => void warnings.push(o) },
  });
  return { store, exchange, clock, sync, changes: () => changes, warnings };
}

describe('volumeBaseUnits', () => {
  it('turns the upstream USD number into pUSD base units without float drift', () => {
    expect(volumeBaseUnits(125000)).toBe(125_000_000_000n);
    expect(volumeBaseUnits(0.1)).toBe(100_000n);
    expect(volumeBaseUnits(1234.5678901)).toBe(1_234_567_890n);
    expect(volumeBaseUnits(-1)).toBeNull();
    expect(volumeBaseUnits(Number.NaN)).toBeNull();
  });
});

describe('external market sync: paired duels', () => {
  it('refreshes the 24 h volume and turns the live flag on and off', async () => {
    const t = setup();
    t.store.add({ duelId: 'd1', extMarketId: '9001', canonical: true, volume24h: 1n });
    t.exchange.events.set('9001', event('9001', { volume24hr: 480000, live: true }));

    expect(await t.sync.run()).toMatchObject({ refreshed: 1, paired: 0, failed: 0 });
    expect(t.store.rows.get('d1')).toMatchObject({ volume24h: 480_000_000_000n, live: true });
    expect(t.changes()).toBe(1);

    t.exchange.events.set('9001', event('9001', { volume24hr: 500000.25, live: false }));
    t.clock.advance(60_000);
    await t.sync.run();
    expect(t.store.rows.get('d1')).toMatchObject({ volume24h: 500_000_250_000n, live: false });
    expect(t.changes()).toBe(2);
    expect(t.store.seenNow.map((d) => d.getTime())).toEqual([Date.UTC(2026, 5, 1), Date.UTC(2026, 5, 1) + 60_000]);
  });

  it('writes nothing and keeps the cache when nothing moved', async () => {
    const t = setup();
    t.store.add({ duelId: 'd1', extMarketId: '9001', canonical: true, volume24h: 2_000_000n, live: false });
    t.exchange.events.set('9001', event('9001', { volume24hr: 2 }));
    expect(await t.sync.run()).toMatchObject({ refreshed: 0 });
    expect(t.changes()).toBe(0);
  });

  it('is not live when the upstream says live but every market is closed', async () => {
    const t = setup();
    t.store.add({ duelId: 'd1', extMarketId: '9001', canonical: true, live: true });
    t.exchange.events.set('9001', event('9001', { live: true, markets: [market('Q?', true)] }));
    await t.sync.run();
    expect(t.store.rows.get('d1')!.live).toBe(false);
  });

  it('takes an event the upstream no longer has as no volume and not live', async () => {
    const t = setup();
    t.store.add({ duelId: 'd1', extMarketId: '404', canonical: true, volume24h: 9n, live: true });
    await t.sync.run();
    expect(t.store.rows.get('d1')).toMatchObject({ volume24h: 0n, live: false });
  });

  it('keeps a hand-made pairing whose id is not a Gamma event id', async () => {
    const t = setup();
    t.store.add({ duelId: 'd1', extMarketId: 'manual-ars', canonical: true, volume24h: 9n, live: true });
    expect(await t.sync.run()).toMatchObject({ refreshed: 0, failed: 0 });
    expect(t.store.rows.get('d1')).toMatchObject({ volume24h: 9n, live: true });
  });

  it('leaves the old values when the upstream fails, and the run still returns', async () => {
    const t = setup();
    t.store.add({ duelId: 'd1', extMarketId: '9001', canonical: true, volume24h: 7n, live: true });
    t.store.add({ duelId: 'd2', question: 'Question 9002?' });
    t.exchange.events.set('9001', event('9001', { volume24hr: 1, live: false }));
    t.exchange.events.set('9002', event('9002'));
    t.exchange.failing = true;

    await expect(t.sync.run()).resolves.toMatchObject({ refreshed: 0, paired: 0, failed: 2 });
    expect(t.store.rows.get('d1')).toMatchObject({ volume24h: 7n, live: true });
    expect(t.store.rows.get('d2')!.extMarketId).toBeNull();
    expect(t.changes()).toBe(0);
    expect(t.warnings).toHaveLength(2);

    t.exchange.failing = false;
    expect(await t.sync.run()).toMatchObject({ refreshed: 1, paired: 1, failed: 0 });
  });

  it('does not touch duels that have ended by the clock', async () => {
    const t = setup();
    t.store.add({ duelId: 'd1', extMarketId: '9001', canonical: true, endTime: Date.UTC(2026, 5, 1) + 1_000 });
    t.exchange.events.set('9001', event('9001', { volume24hr: 10 }));
    t.clock.advance(1_000);
    expect(await t.sync.run()).toMatchObject({ refreshed: 0 });
    expect(t.store.rows.get('d1')!.volume24h).toBe(0n);
  });
});

describe('external market sync: pairing rule', () => {
  it('pairs a duel whose question is the question of exactly one open external market', async () => {
    const t = setup();
    t.store.add({ duelId: 'd1', question: '  will ARSENAL   win ' });
    t.exchange.events.set('9001', event('9001', { volume24hr: 125000, markets: [market('Will Arsenal win?')] }));

    expect(await t.sync.run()).toMatchObject({ paired: 1 });
    expect(t.store.rows.get('d1')).toMatchObject({
      extMarketId: '9001',
      canonical: true,
      volume24h: 125_000_000_000n,
      live: false,
    });
    expect(t.changes()).toBe(1);
  });

  it('does not pair on a partial match, an ambiguous match or a closed market', async () => {
    const t = setup();
    t.store.add({ duelId: 'partial', question: 'Will Arsenal' });
    t.store.add({ duelId: 'twice', question: 'Who wins?' });
    t.store.add({ duelId: 'closed', question: 'Is it over?' });
    t.exchange.events.set('1', event('1', { markets: [market('Will Arsenal win?')] }));
    t.exchange.events.set('2', event('2', { markets: [market('Who wins?')] }));
    t.exchange.events.set('3', event('3', { markets: [market('Who wins?')] }));
    t.exchange.events.set('4', event('4', { markets: [market('Is it over?', true)] }));

    expect(await t.sync.run()).toMatchObject({ paired: 0, failed: 0 });
    for (const id of ['partial', 'twice', 'closed']) expect(t.store.rows.get(id)!.extMarketId).toBeNull();
    expect(t.changes()).toBe(0);
  });

  it('pairs an external event with one duel only', async () => {
    const t = setup();
    t.store.add({ duelId: 'd0', extMarketId: '9001', canonical: true });
    t.store.add({ duelId: 'd1', question: 'Question 9001?' });
    t.store.add({ duelId: 'd2', question: 'Question 9002?' });
    t.store.add({ duelId: 'd3', question: 'question 9002' });
    t.exchange.events.set('9001', event('9001'));
    t.exchange.events.set('9002', event('9002'));

    expect(await t.sync.run()).toMatchObject({ paired: 1 });
    expect(t.store.rows.get('d1')!.extMarketId).toBeNull();
    expect(t.store.rows.get('d2')!.extMarketId).toBe('9002');
    expect(t.store.rows.get('d3')!.extMarketId).toBeNull();
  });
});

describe('external market sync: the job', () => {
  it('is scheduled every interval on its queue and runs the sync when it fires', async () => {
    const t = setup();
    t.store.add({ duelId: 'd1', extMarketId: '9001', canonical: true });
    t.exchange.events.set('9001', event('9001', { volume24hr: 3, live: true }));
    const scheduled: unknown[][] = [];
    let handler: ((data: unknown, job: { name: string }) => Promise<void>) | undefined;
    const jobs = {
      every: async (...args: unknown[]) => void scheduled.push(args),
      work: (spec: { queue: string; handler: typeof handler }) => {
        expect(spec.queue).toBe(EXTMARKET_QUEUE);
        handler = spec.handler;
      },
    } as unknown as JobEngine;

    await t.sync.attach(jobs, 120_000);
    expect(scheduled).toEqual([[EXTMARKET_QUEUE, CANONICAL_SYNC_JOB, 120_000, {}]]);
    await handler!({}, { name: 'something-else' });
    expect(t.store.rows.get('d1')!.volume24h).toBe(0n);
    await handler!({}, { name: CANONICAL_SYNC_JOB });
    expect(t.store.rows.get('d1')).toMatchObject({ volume24h: 3_000_000n, live: true });
  });
});
