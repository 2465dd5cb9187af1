import { afterEach, describe, expect, it, vi } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import type { EventBusPort } from '../../adapters/event-bus/event-bus.port.js';
import { createLogger } from '../../logger.js';
import type { EventLogRepository, NumberedHook } from './event-log.repository.js';
import { EventRelay } from './event-relay.service.js';
import type { EventBatch, StoredEvent } from './event.types.js';

const event = (id: string): StoredEvent => ({
  id,
  seq: null,
  type: 'bet.confirmed',
  version: 1,
  builderAppId: 'app-1',
  duelId: 'duel-1',
  isPrivate: false,
  data: {},
  createdAt: '2026-06-01T12:00:00.000Z',
});

/**
 * The outbox in memory, numbered as the repository's statement numbers it (in order, after the
 * high-water mark, at most `limit`, hooks in the same step); a bus that keeps what it was given.
 */
function setup(options: { batchSize?: number; hooks?: NumberedHook[] } = {}) {
  const pending: StoredEvent[] = [];
  let lastSeq = 0n;
  const log = repositoryMock<EventLogRepository>();
  const hookCalls: string[][] = [];
  log.numberPending.mockImplementation(async (limit, hooks) => {
    const taken = pending.splice(0, limit);
    const prev = lastSeq.toString();
    const events = taken.map((e) => ({ ...e, seq: (++lastSeq).toString() }));
    for (const hook of hooks) await hook(() => Promise.resolve([]), events);
    return { prev, last: lastSeq.toString(), events };
  });
  const published: EventBatch[] = [];
  let busDown = false;
  const bus: EventBusPort = {
    publish(batch) {
      if (busDown) return Promise.reject(new Error('redis down'));
      published.push(batch);
      return Promise.resolve();
    },
    subscribe: () => Promise.reject(new Error('unused')),
    close: () => Promise.resolve(),
  };
  const warnings: string[] = [];
  const logger = createLogger('warn', { write: (line: string) => void warnings.push(line) });
  const hooks = options.hooks ?? [
    (_sql, events) => {
      hookCalls.push(events.map((e) => `${e.id}#${e.seq}`));
      return Promise.resolve();
    },
  ];
  const relay = new EventRelay(log, bus, hooks, logger, options.batchSize ?? 500);
  return {
    log,
    relay,
    published,
    warnings,
    hookCalls,
    add: (...ids: string[]) => pending.push(...ids.map(event)),
    busDown: (down: boolean) => (busDown = down),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('EventRelay', () => {
  it('numbers what committed, in order after the last number, runs the hooks on it and publishes the batch', async () => {
    const { relay, published, hookCalls, add } = setup();
    add('a', 'b');

    expect(await relay.runOnce()).toBe(2);
    add('c');
    expect(await relay.runOnce()).toBe(1);

    expect(published.map((b) => [b.prev, b.last, b.events.map((e) => e.seq)])).toEqual([
      ['0', '2', ['1', '2']],
      ['2', '3', ['3']],
    ]);
    expect(hookCalls).toEqual([['a#1', 'b#2'], ['c#3']]);
  });

  it('publishes nothing when nothing is pending', async () => {
    const { relay, published } = setup();

    expect(await relay.runOnce()).toBe(0);
    expect(published).toEqual([]);
  });

  it('numbers at most a batch per run', async () => {
    const { relay, published, add } = setup({ batchSize: 2 });
    add('a', 'b', 'c');

    expect(await relay.runOnce()).toBe(2);
    expect(await relay.runOnce()).toBe(1);
    expect(published.map((b) => b.events.length)).toEqual([2, 1]);
  });

  it('keeps the numbering when the bus is down: the run counts its events and the next batch starts after them', async () => {
    const { relay, published, warnings, add, busDown } = setup();
    add('a');
    busDown(true);

    expect(await relay.runOnce()).toBe(1);
    expect(warnings.join('')).toContain('event batch not published');

    busDown(false);
    add('b');
    await relay.runOnce();
    // Streams notice prev 1 is past what they saw and read event 1 from the log.
    expect(published).toMatchObject([{ prev: '1', last: '2' }]);
  });

  it('publishes a batch the bus refused again at the next run with nothing newer, and only once', async () => {
    const { relay, published, add, busDown } = setup();
    add('a', 'b');
    busDown(true);
    await relay.runOnce();
    add('c');
    await relay.runOnce();

    busDown(false);
    expect(await relay.runOnce()).toBe(0);
    // The newest refused batch: its prev tells the streams to read 1 and 2 from the log.
    expect(published.map((b) => [b.prev, b.last])).toEqual([['2', '3']]);
    await relay.runOnce();
    expect(published).toHaveLength(1);
  });

  it('fails the run and publishes nothing when a hook of the numbering fails', async () => {
    const { relay, published, add } = setup({ hooks: [() => Promise.reject(new Error('deliveries insert failed'))] });
    add('a');

    await expect(relay.runOnce()).rejects.toThrow('deliveries insert failed');
    expect(published).toEqual([]);
  });

  it('runs on its interval once started, one run at a time, survives a failed run, and stops', async () => {
    vi.useFakeTimers();
    const { relay, log, published, warnings, add } = setup();
    add('a');
    relay.start(1_000);
    relay.start(1_000); // a second start adds no timer

    await vi.advanceTimersByTimeAsync(999);
    expect(published).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(published).toHaveLength(1);

    log.numberPending.mockRejectedValueOnce(new Error('database down'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(warnings.join('')).toContain('event relay run failed');

    add('b');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(published.map((b) => b.events.map((e) => e.id))).toEqual([['a'], ['b']]);
    const runs = log.numberPending.mock.calls.length;

    await relay.stop();
    add('c');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(log.numberPending.mock.calls.length).toBe(runs);
  });

  it('does not start a run while the previous one is still going', async () => {
    vi.useFakeTimers();
    const { relay, log } = setup();
    let finish: (b: EventBatch) => void = () => undefined;
    log.numberPending.mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
    relay.start(100);

    await vi.advanceTimersByTimeAsync(500);
    expect(log.numberPending.mock.calls).toHaveLength(1);

    finish({ prev: '0', last: '0', events: [] });
    await vi.advanceTimersByTimeAsync(0);
    // The ticks that fired meanwhile were queued behind it, not run beside it.
    expect(log.numberPending.mock.calls.length).toBeGreaterThan(1);
    const stopped = relay.stop();
    await vi.runAllTimersAsync();
    await stopped;
  });
});
