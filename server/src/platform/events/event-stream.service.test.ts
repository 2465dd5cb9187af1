import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import type { EventBusPort } from '../../adapters/event-bus/event-bus.port.js';
import { createLogger } from '../../logger.js';
import type { EventFilter, EventLogRepository } from './event-log.repository.js';
import { EventStreamService, type StreamRequest, type StreamSink } from './event-stream.service.js';
import type { EventBatch, StoredEvent } from './event.types.js';

const SETTINGS = { heartbeatMs: 15_000, pricePerSecond: 2 };

/**
 * The numbered log in memory, read as the repository reads it (by app, after a seq, private
 * markets by the filter, in order, a page at a time); a bus that hands batches to subscribers.
 */
function setup() {
  const log: StoredEvent[] = [];
  const repo = repositoryMock<EventLogRepository>();
  repo.lastSeq.mockImplementation(() => Promise.resolve(log.at(-1)?.seq ?? '0'));
  repo.after.mockImplementation((seq: string, f: EventFilter, limit: number) =>
    Promise.resolve(
      log
        .filter(
          (e) =>
            e.builderAppId === f.builderAppId &&
            BigInt(e.seq!) > BigInt(seq) &&
            (f.privateDuels === 'all' || !e.isPrivate || f.privateDuels.includes(e.duelId ?? '')),
        )
        .slice(0, limit),
    ),
  );
  const handlers = new Set<(batch: EventBatch) => void>();
  const resumers = new Set<() => void>();
  let subscriptions = 0;
  let subscribeFails = false;
  const bus: EventBusPort = {
    publish(batch) {
      for (const h of handlers) h(batch);
      return Promise.resolve();
    },
    subscribe(handler, onResumed) {
      if (subscribeFails) return Promise.reject(new Error('redis down'));
      subscriptions++;
      handlers.add(handler);
      if (onResumed) resumers.add(onResumed);
      return Promise.resolve(() => {
        handlers.delete(handler);
        if (onResumed) resumers.delete(onResumed);
      });
    },
    close: () => Promise.resolve(),
  };
  const streams = new EventStreamService(repo, bus, createLogger('silent'), SETTINGS);

  let seq = 0;
  /** Numbers events into the log (as the relay does) without publishing them; answers the batch. */
  const number = (...events: Partial<StoredEvent>[]): EventBatch => {
    const prev = String(seq);
    const numbered = events.map((e): StoredEvent => ({
      id: `e${seq + 1}`,
      seq: String(++seq),
      type: 'duel.created',
      version: 1,
      builderAppId: 'app-1',
      duelId: 'duel-1',
      isPrivate: false,
      data: {},
      createdAt: '2026-06-01T12:00:00.000Z',
      ...e,
    }));
    log.push(...numbered);
    return { prev, last: String(seq), events: numbered };
  };
  /** Hands a batch to the bus and lets the streams take it. */
  const deliver = async (batch: EventBatch) => {
    await bus.publish(batch);
    await vi.advanceTimersByTimeAsync(0);
  };
  /** Numbers events and publishes their batch. */
  const publish = (...events: Partial<StoredEvent>[]) => deliver(number(...events));

  const open = async (req: Partial<StreamRequest> = {}) => {
    const seen: string[] = [];
    const prices: { duelId: string; yesBps: unknown; seq: string | null }[] = [];
    const comments: string[] = [];
    let ended = false;
    const sink: StreamSink = {
      event: (e) => seen.push(e.seq!),
      price: (p) => prices.push({ duelId: p.duelId, yesBps: p.yesBps, seq: p.seq }),
      comment: (c) => comments.push(c),
      end: () => (ended = true),
    };
    const close = await streams.open(
      {
        filter: { builderAppId: 'app-1', privateDuels: [] },
        after: undefined,
        prices: false,
        ...req,
      },
      sink,
    );
    return { seen, prices, comments, close, ended: () => ended };
  };
  return {
    log,
    streams,
    number,
    deliver,
    publish,
    open,
    subscriptions: () => subscriptions,
    listeners: () => handlers.size,
    failSubscribe: (f: boolean) => (subscribeFails = f),
    /** The bus is subscribed again after losing its connection (what was published meanwhile is lost). */
    resume: async () => {
      for (const r of resumers) r();
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

beforeEach(() => {
  // The fake performance clock starts at 0, as a new process's does: a market's first price update
  // still goes out at once.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('EventStreamService', () => {
  it('replays the log after Last-Event-ID, then sends live batches, each event once and in order', async () => {
    const { number, publish, open } = setup();
    number({}, {}, {});

    const s = await open({ after: '1' });
    expect(s.seen).toEqual(['2', '3']);

    await publish({}, {});
    expect(s.seen).toEqual(['2', '3', '4', '5']);
    s.close();
  });

  it('without Last-Event-ID, starts from now: nothing before the stream opened is sent', async () => {
    const { number, publish, open } = setup();
    number({}, {});

    const s = await open();
    await publish({});

    expect(s.seen).toEqual(['3']);
    s.close();
  });

  it('reads a gap from the log before a batch that starts past what the stream has', async () => {
    const { number, publish, open } = setup();
    const s = await open();

    number({}, {}); // numbered, but its batch never reached the bus
    await publish({});

    expect(s.seen).toEqual(['1', '2', '3']);
    s.close();
  });

  it('never repeats an event a batch carries again (a replay and a batch overlapping)', async () => {
    const { number, deliver, open } = setup();
    const batch = number({}, {});
    const s = await open({ after: '0' });

    // The bus brings the batch the stream already replayed from the log.
    await deliver(batch);

    expect(s.seen).toEqual(['1', '2']);
    s.close();
  });

  it('sends only what the filter lets through: its app, its types and markets, private markets it may see; never webhook tests', async () => {
    const { publish, open } = setup();
    const s = await open({
      filter: {
        builderAppId: 'app-1',
        types: ['bet.confirmed'],
        duelIds: ['duel-1', 'duel-p'],
        privateDuels: ['duel-p'],
      },
    });

    await publish(
      { type: 'bet.confirmed' }, // 1 sent
      { type: 'duel.created' }, // 2 other type
      { type: 'bet.confirmed', builderAppId: 'app-2' }, // 3 other app
      { type: 'bet.confirmed', duelId: 'duel-2' }, // 4 other market
      { type: 'bet.confirmed', duelId: 'duel-p', isPrivate: true }, // 5 its private market
      { type: 'bet.confirmed', duelId: 'duel-1', isPrivate: true }, // 6 a private market it may not see
      { type: 'webhook.test', duelId: 'duel-1' }, // 7 never streamed
      { type: 'bet.confirmed' }, // 8 sent
    );

    expect(s.seen).toEqual(['1', '5', '8']);
    s.close();
  });

  it('a builder stream sees every private market', async () => {
    const { publish, open } = setup();
    const s = await open({ filter: { builderAppId: 'app-1', privateDuels: 'all' } });

    await publish({ isPrivate: true, duelId: 'duel-x' }, { isPrivate: true, duelId: null });

    expect(s.seen).toEqual(['1', '2']);
    s.close();
  });

  it('comments a heartbeat every interval and, with it, catches up what was numbered but never published', async () => {
    const { number, open } = setup();
    const s = await open();
    number({}, {});

    await vi.advanceTimersByTimeAsync(SETTINGS.heartbeatMs - 1);
    expect(s.comments).toEqual([]);
    expect(s.seen).toEqual([]);

    await vi.advanceTimersByTimeAsync(1);
    expect(s.comments).toEqual(['heartbeat']);
    expect(s.seen).toEqual(['1', '2']);

    await vi.advanceTimersByTimeAsync(SETTINGS.heartbeatMs);
    expect(s.comments).toEqual(['heartbeat', 'heartbeat']);
    s.close();
  });

  it('reads what the bus lost while its connection was down as soon as it is back, not at the next heartbeat', async () => {
    const { number, open, publish, resume } = setup();
    const s = await open();
    const other = await open();
    other.close();
    number({}, {}); // published while the bus was away: never delivered

    await vi.advanceTimersByTimeAsync(1_000);
    expect(s.seen).toEqual([]);
    await resume();
    expect(s.seen).toEqual(['1', '2']);
    expect(other.seen).toEqual([]);

    // And live batches after it, once each.
    await publish({});
    await resume();
    expect(s.seen).toEqual(['1', '2', '3']);
    s.close();
  });

  describe('price channel', () => {
    const bet = (duelId: string, yesBps: number) => ({ type: 'bet.confirmed', duelId, data: { yesBps } });

    it('sends a market’s first update at once, then at most pricePerSecond, only the newest of those waiting', async () => {
      const { publish, open } = setup();
      const s = await open({ prices: true });

      await publish(bet('duel-1', 5000));
      expect(s.prices).toEqual([{ duelId: 'duel-1', yesBps: 5000, seq: '1' }]);

      await publish(bet('duel-1', 5100), bet('duel-1', 5200));
      await publish(bet('duel-2', 3000)); // another market is not held back
      expect(s.prices.map((p) => p.yesBps)).toEqual([5000, 3000]);

      await vi.advanceTimersByTimeAsync(499);
      expect(s.prices).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(s.prices.map((p) => p.yesBps)).toEqual([5000, 3000, 5200]);
      expect(s.seen).toEqual(['1', '2', '3', '4']); // the events themselves all go out

      await vi.advanceTimersByTimeAsync(500);
      await publish(bet('duel-1', 5300));
      expect(s.prices.at(-1)).toEqual({ duelId: 'duel-1', yesBps: 5300, seq: '5' });
      s.close();
    });

    it('sends no prices unless asked, and none for other events', async () => {
      const { publish, open } = setup();
      const without = await open({ prices: false });
      const withPrices = await open({ prices: true });

      await publish(bet('duel-1', 5000), { type: 'duel.resolved', duelId: 'duel-1' });

      expect(without.prices).toEqual([]);
      expect(withPrices.prices).toEqual([{ duelId: 'duel-1', yesBps: 5000, seq: '1' }]);
      without.close();
      withPrices.close();
    });

    it('drops a waiting update when the stream closes', async () => {
      const { publish, open } = setup();
      const s = await open({ prices: true });
      await publish(bet('duel-1', 5000), bet('duel-1', 5100));

      s.close();
      await vi.advanceTimersByTimeAsync(1_000);

      expect(s.prices.map((p) => p.yesBps)).toEqual([5000]);
    });
  });

  describe('lifecycle', () => {
    it('sends nothing after close, and no heartbeats', async () => {
      const { publish, open } = setup();
      const s = await open();

      s.close();
      await publish({});
      await vi.advanceTimersByTimeAsync(SETTINGS.heartbeatMs * 2);

      expect(s.seen).toEqual([]);
      expect(s.comments).toEqual([]);
      expect(s.ended()).toBe(false);
    });

    it('ends every open stream before a shutdown, so clients reconnect with Last-Event-ID', async () => {
      const { publish, open, streams } = setup();
      const a = await open();
      const b = await open();
      a.close();

      streams.endAll();
      await publish({});

      expect(a.ended()).toBe(false);
      expect(b.ended()).toBe(true);
      expect(b.seen).toEqual([]);
    });

    it('on close, ends its streams and leaves the bus; a later stream subscribes afresh', async () => {
      const { open, streams, publish, subscriptions, listeners } = setup();
      const a = await open();

      streams.close();
      await vi.advanceTimersByTimeAsync(0);

      expect(a.ended()).toBe(true);
      expect(listeners()).toBe(0);
      const b = await open();
      await publish({});
      expect(subscriptions()).toBe(2);
      expect(a.seen).toEqual([]);
      expect(b.seen).toEqual(['1']);
      b.close();
    });

    it('shares one bus subscription among streams, and subscribes again after a failed attempt', async () => {
      const { open, subscriptions, failSubscribe, publish } = setup();
      failSubscribe(true);
      await expect(open()).rejects.toThrow('redis down');

      failSubscribe(false);
      const a = await open();
      const b = await open();
      await publish({});

      expect(subscriptions()).toBe(1);
      expect(a.seen).toEqual(['1']);
      expect(b.seen).toEqual(['1']);
      a.close();
      b.close();
    });
  });
});
