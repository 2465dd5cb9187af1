import type { EventBusPort } from '../../adapters/event-bus/event-bus.port.js';
import type { Logger } from '../../logger.js';
import type { EventFilter, EventLogRepository } from './event-log.repository.js';
import type { EventBatch, StoredEvent } from './event.types.js';

export interface StreamSettings {
  /** A comment line this often keeps proxies from closing an idle stream; each also catches up from the log. */
  readonly heartbeatMs: number;
  /** The price channel sends at most this many updates per second per market. */
  readonly pricePerSecond: number;
}

export const DEFAULT_STREAM: StreamSettings = { heartbeatMs: 15_000, pricePerSecond: 2 };

/** Where a stream writes: one SSE message, or a comment. */
export interface StreamSink {
  event(e: StoredEvent): void;
  price(update: { duelId: string; yesBps: unknown; poolBalances: unknown; seq: string | null }): void;
  comment(text: string): void;
  /** Ends the stream (the instance shuts down; the client reconnects with Last-Event-ID). */
  end(): void;
}

export interface StreamRequest {
  readonly filter: EventFilter;
  /** The last `seq` the client saw (Last-Event-ID); from now on when undefined. */
  readonly after: string | undefined;
  /** Also send the coalesced price channel. */
  readonly prices: boolean;
  /**
   * Who may see each event that passes the filter, asked when it is about to be sent (a user's
   * stream: membership can change while it is open): the event itself, only its market's price
   * (another user's trade on a market the reader may see), or nothing. Everything when absent.
   */
  readonly access?: (e: StoredEvent) => Promise<EventAccess>;
}

/** What a reader may see of one event. */
export type EventAccess = 'event' | 'price' | 'none';

const big = (s: string | null) => BigInt(s ?? '0');

function passes(e: StoredEvent, f: EventFilter): boolean {
  if (e.builderAppId !== f.builderAppId || e.type === 'webhook.test') return false;
  if (f.types?.length && !f.types.includes(e.type)) return false;
  if (f.duelIds?.length && (!e.duelId || !f.duelIds.includes(e.duelId))) return false;
  if (e.isPrivate && f.privateDuels !== 'all' && (!e.duelId || !f.privateDuels.includes(e.duelId))) return false;
  return true;
}

/**
 * The live event stream (docs/events.md): a replay from the event log after the client's
 * Last-Event-ID, then the batches the bus brings, each event once and in `seq` order. Events are
 * read and sent strictly after the last `seq` sent, so a reconnect with Last-Event-ID misses
 * nothing and repeats nothing; a batch nobody published (a relay that died after its commit) is
 * read from the log at the next heartbeat, and batches the bus lost while its connection was down
 * as soon as it is back.
 */
export class EventStreamService {
  private readonly subscribers = new Set<(batch: EventBatch) => void>();
  private readonly streams = new Set<() => void>();
  /** Each open stream's catch-up from the log, run when the bus lost batches (see `ensureSubscribed`). */
  private readonly catchUps = new Set<() => void>();
  private subscription: Promise<() => void> | undefined;

  constructor(
    private readonly log: EventLogRepository,
    private readonly bus: EventBusPort,
    private readonly logger: Logger,
    private readonly settings: StreamSettings = DEFAULT_STREAM,
  ) {}

  /** Streams to `sink` until the returned close is called. */
  async open(req: StreamRequest, sink: StreamSink): Promise<() => void> {
    let last = req.after ?? (await this.log.lastSeq());
    let closed = false;
    // Serialises log reads and live batches: every event goes out once, in order.
    let chain: Promise<void> = Promise.resolve();
    const prices = new Map<
      string,
      { at: number; pending: StoredEvent | undefined; timer?: NodeJS.Timeout | undefined }
    >();
    const minGapMs = 1000 / this.settings.pricePerSecond;

    const sendPrice = (e: StoredEvent) => {
      const d = e.data as { yesBps?: unknown; poolBalances?: unknown };
      sink.price({ duelId: e.duelId ?? '', yesBps: d.yesBps, poolBalances: d.poolBalances, seq: e.seq });
    };
    // Coalesced: the first update of a market goes at once, later ones at most every `minGapMs`,
    // and only the newest of those waiting is sent. Timing here is wall-clock pacing of a socket,
    // not a domain rule.
    const price = (e: StoredEvent) => {
      if (!req.prices || e.type !== 'bet.confirmed' || !e.duelId) return;
      const state = prices.get(e.duelId) ?? { at: Number.NEGATIVE_INFINITY, pending: undefined };
      prices.set(e.duelId, state);
      const now = performance.now();
      if (!state.timer && now - state.at >= minGapMs) {
        state.at = now;
        sendPrice(e);
        return;
      }
      state.pending = e;
      state.timer ??= setTimeout(
        () => {
          state.timer = undefined;
          state.at = performance.now();
          if (state.pending && !closed) sendPrice(state.pending);
          state.pending = undefined;
        },
        Math.max(0, minGapMs - (now - state.at)),
      );
    };
    const deliver = async (events: readonly StoredEvent[]) => {
      for (const e of events) {
        if (closed || big(e.seq) <= big(last)) continue;
        last = e.seq ?? last;
        if (!passes(e, req.filter)) continue;
        const access = req.access ? await req.access(e) : 'event';
        if (closed) return;
        if (access === 'event') sink.event(e);
        if (access !== 'none') price(e);
      }
    };
    const catchUp = async () => {
      for (;;) {
        const page = await this.log.after(last, { ...req.filter, types: undefined, duelIds: undefined }, 500);
        if (!page.length || closed) return;
        await deliver(page);
      }
    };
    const onBatch = (batch: EventBatch) => {
      chain = chain
        .then(async () => {
          // A batch that starts past what this stream has: read the gap from the log first.
          if (big(batch.prev) > big(last)) {
            await catchUp();
            // Everything numbered up to `prev` was visible when the batch was numbered.
            if (big(batch.prev) > big(last)) last = batch.prev;
          }
          await deliver(batch.events);
        })
        .catch((err: unknown) => this.logger.warn({ err }, 'event stream batch failed'));
    };
    this.subscribers.add(onBatch);
    await this.ensureSubscribed();
    chain = chain.then(catchUp);
    await chain;
    const queueCatchUp = () => {
      chain = chain.then(catchUp).catch((err: unknown) => this.logger.warn({ err }, 'event stream catch-up failed'));
    };
    const heartbeat = setInterval(() => {
      sink.comment('heartbeat');
      queueCatchUp();
    }, this.settings.heartbeatMs);
    heartbeat.unref();
    this.catchUps.add(queueCatchUp);
    const close = () => {
      closed = true;
      clearInterval(heartbeat);
      for (const p of prices.values()) clearTimeout(p.timer);
      this.subscribers.delete(onBatch);
      this.catchUps.delete(queueCatchUp);
      this.streams.delete(end);
    };
    const end = () => {
      close();
      sink.end();
    };
    this.streams.add(end);
    return close;
  }

  /** Ends every open stream of this instance (before a shutdown drains its requests). */
  endAll(): void {
    for (const end of [...this.streams]) end();
  }

  private async ensureSubscribed(): Promise<void> {
    this.subscription ??= this.bus.subscribe(
      (batch) => {
        for (const s of this.subscribers) s(batch);
      },
      // The bus lost its connection for a while: every stream reads what it missed from the log
      // now, instead of at the next batch or heartbeat.
      () => {
        for (const queueCatchUp of this.catchUps) queueCatchUp();
      },
    );
    try {
      await this.subscription;
    } catch (err) {
      this.subscription = undefined;
      throw err;
    }
  }

  close(): void {
    this.endAll();
    void this.subscription?.then((unsubscribe) => unsubscribe()).catch(() => undefined);
    this.subscription = undefined;
    this.subscribers.clear();
    this.catchUps.clear();
  }
}
