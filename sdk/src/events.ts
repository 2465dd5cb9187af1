import { ApiError, ConnectionError, isRetryable } from './core/errors.js';
import type { Logger } from './core/logger.js';
import { sleep as realSleep } from './internal/signals.js';
import { SseParser } from './internal/sse.js';

/** A market right after the change an event describes (base-unit amounts as decimal strings). */
export interface DuelSnapshot {
  duelId: string;
  status: 'open' | 'pending' | 'pending_contest' | 'settled' | 'cancelled' | (string & {});
  chainState: 'pending' | 'confirmed' | 'failed' | (string & {});
  isPrivate: boolean;
  question: string;
  options: string[];
  winningOptionIndex: number | null;
  poolBalances: string[];
  totalVolume: string;
  uniqueParticipants: number;
  /** Price of option 0 in basis points. */
  yesBps: number;
  endTime: string;
  resolvedAt: string | null;
  contestEndsAt: string | null;
}

/** A trade the chain confirmed (a buy or a sale), with the market's price after it. */
export interface BetSnapshot {
  duelId: string;
  txHash: string;
  logIndex: number;
  trader: string;
  side: 'buy' | 'sell';
  optionIndex: number;
  collateral: string;
  fee: string;
  shares: string;
  poolBalances: string[];
  yesBps: number;
}

/** A trade the server accepted whose transaction reverted or could never be mined. */
export interface BetFailureSnapshot {
  duelId: string;
  txHash: string;
  trader: string;
  side: 'buy' | 'sell';
  optionIndex: number | null;
  outcome: 'reverted' | 'failed';
  reason: string;
}

/** A contest filed against a market's resolution. */
export interface ContestSnapshot {
  duel: DuelSnapshot;
  proposedOptionIndex: number | null;
  contests: number;
}

/** A participant of a settled market can claim their payout. */
export interface PayoutClaimableSnapshot {
  duelId: string;
  /** The managed address owed the payout. */
  account: string;
  isCreator: boolean;
  winningOptionIndex: number | null;
  collateralStack: 'credits' | 'usdc' | (string & {});
}

/** A bridge deposit credited to a user's managed address. */
export interface DepositCreditedSnapshot {
  depositId: string;
  account: string;
  collateralStack: 'credits' | 'usdc' | (string & {});
  /** Base units, a decimal string. */
  amount: string;
  txHash: string;
}

/** A stage (round) of a tournament settled. */
export interface TournamentStageSettledSnapshot {
  tournamentId: string;
  stageId: string;
  stageIndex: number;
  stageName: string;
  mode: 'auto' | 'force' | (string & {});
  settledAt: string;
}

/** Each event type of the catalogue (docs/events.md) and its `data`. */
export interface EventDataMap {
  'duel.confirmed': DuelSnapshot;
  'duel.closed': DuelSnapshot;
  'duel.resolved': DuelSnapshot;
  'duel.contest_opened': ContestSnapshot;
  'duel.settled': DuelSnapshot;
  'duel.cancelled': DuelSnapshot;
  'bet.confirmed': BetSnapshot;
  'bet.failed': BetFailureSnapshot;
  'payout.claimable': PayoutClaimableSnapshot;
  'deposit.credited': DepositCreditedSnapshot;
  'tournament.stage_settled': TournamentStageSettledSnapshot;
  'webhook.test': { endpointId: string; message: string };
}

export type EventType = keyof EventDataMap;

/** One event of the catalogue: the envelope webhooks and the stream share. */
export type DuelkitEvent = {
  [T in EventType]: {
    /** Unique per event: deliveries of one event share it (deduplicate on it). */
    id: string;
    /** Position in the event log (the stream's `Last-Event-ID`); null on `webhook.test`. */
    seq: string | null;
    type: T;
    version: number;
    createdAt: string;
    builderAppId: string;
    data: EventDataMap[T];
  };
}[EventType];

/** A coalesced price update (`prices: true`): never carries an id, never moves the resume point. */
export interface PriceUpdate {
  type: 'price';
  data: { duelId: string; yesBps: number; poolBalances: string[]; seq: string };
}

export type StreamEvent = DuelkitEvent | PriceUpdate;

/** Options of `client.events.stream`. */
export interface StreamOptions<T extends EventType = EventType> {
  /** Only these event types (every type when omitted). */
  types?: readonly T[];
  /** Only events of these markets. */
  duelIds?: readonly string[];
  /** Also the coalesced price channel (`type: 'price'` updates). */
  prices?: boolean;
  /** Ends the iterator (without an error) when it fires. */
  signal?: AbortSignal;
  /** Resume after this `seq` (an event's `seq`, as persisted from an earlier stream). */
  lastEventId?: string;
}

/** The event namespace of the client: the two event streams as typed async iterators. */
export interface EventStreamMethods {
  /**
   * The builder app's events as an async iterator (`GET /svc/builder/events/stream`), typed by
   * the event catalogue. Reconnects by itself after a dropped connection or a retryable error,
   * resuming after the last event seen (`Last-Event-ID`), so nothing is missed and nothing
   * repeated; waits between reconnects follow the stream's `retry:` (2 s), doubling on
   * consecutive failures up to 30 s, and a longer `Retry-After`. Ends cleanly on `signal` or
   * `break`; throws a non-retryable error (401 key, 400 filter).
   *
   * @example
   * for await (const event of client.events.stream({ types: ['duel.settled'] })) {
   *   console.log(event.data.duelId, event.data.winningOptionIndex);
   * }
   */
  stream<T extends EventType = EventType>(
    options?: StreamOptions<T> & { prices?: false },
  ): AsyncIterableIterator<Extract<DuelkitEvent, { type: T }>>;
  stream<T extends EventType = EventType>(
    options: StreamOptions<T> & { prices: true },
  ): AsyncIterableIterator<Extract<DuelkitEvent, { type: T }> | PriceUpdate>;
  stream(options?: StreamOptions): AsyncIterableIterator<StreamEvent>;
  /**
   * The signed-in user's events as an async iterator (`GET /svc/user/events/stream`): public
   * markets' events, private markets' while the user is a member, and the user's own bets and
   * money events; of other users' trades only the price channel. Takes the client's session (signs
   * in with the `signer` when needed) and otherwise behaves like `stream`.
   *
   * @example
   * for await (const event of client.events.userStream({ types: ['bet.confirmed'] })) {
   *   console.log('my trade', event.data.txHash);
   * }
   */
  userStream<T extends EventType = EventType>(
    options?: StreamOptions<T> & { prices?: false },
  ): AsyncIterableIterator<Extract<DuelkitEvent, { type: T }>>;
  userStream<T extends EventType = EventType>(
    options: StreamOptions<T> & { prices: true },
  ): AsyncIterableIterator<Extract<DuelkitEvent, { type: T }> | PriceUpdate>;
  userStream(options?: StreamOptions): AsyncIterableIterator<StreamEvent>;
}

/** @deprecated the name before the user stream: {@link EventStreamMethods}. */
export type EventsNamespace = EventStreamMethods;

/** What the stream needs from the client. */
export interface EventsConfig {
  readonly fetch: typeof fetch;
  readonly builderApiKey: string;
  readonly marketsUrl: string;
  readonly userAgent: string | undefined;
  readonly headers: Readonly<Record<string, string | null>>;
  readonly logger: Logger;
  /** Waits between reconnects (tests inject a clock). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The user's session, for `userStream`. */
  readonly token?: () => Promise<string | null>;
}

export const STREAM_PATH = '/svc/builder/events/stream';
export const USER_STREAM_PATH = '/svc/user/events/stream';
const DEFAULT_RETRY_MS = 2_000;
const MAX_RECONNECT_MS = 30_000;

export function createEvents(config: EventsConfig): EventStreamMethods {
  return {
    stream: (options: StreamOptions = {}) => streamEvents(config, options, STREAM_PATH),
    userStream: (options: StreamOptions = {}) => streamEvents(config, options, USER_STREAM_PATH),
  } as EventStreamMethods;
}

async function* streamEvents(config: EventsConfig, options: StreamOptions, path: string): AsyncGenerator<StreamEvent> {
  const sleep = config.sleep ?? realSleep;
  const { signal } = options;
  const url = new URL(path, config.marketsUrl);
  if (options.types?.length) url.searchParams.set('types', options.types.join(','));
  if (options.duelIds?.length) url.searchParams.set('duelIds', options.duelIds.join(','));
  if (options.prices) url.searchParams.set('prices', 'true');
  let lastSeq = options.lastEventId !== undefined ? BigInt(options.lastEventId) : undefined;
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;
  while (!signal?.aborted) {
    const connection = new AbortController();
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    // Cancelling the reader too ends a pending read in runtimes whose fetch leaves the body open.
    const onAbort = () => {
      connection.abort(signal?.reason);
      reader?.cancel().catch(() => {});
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let retryAfterMs: number | undefined;
    let received = false;
    try {
      const headers = new Headers({ accept: 'text/event-stream', 'cache-control': 'no-cache' });
      headers.set('x-builder-api-key', config.builderApiKey);
      if (config.userAgent) headers.set('user-agent', config.userAgent);
      for (const [name, value] of Object.entries(config.headers)) {
        if (value === null) headers.delete(name);
        else headers.set(name, value);
      }
      if (lastSeq !== undefined) headers.set('last-event-id', lastSeq.toString());
      if (path === USER_STREAM_PATH) {
        const token = await config.token?.();
        if (token) headers.set('authorization', `Bearer ${token}`);
      }
      const res = await config.fetch(url.toString(), { method: 'GET', headers, signal: connection.signal });
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // Not JSON: an HTML error page, say.
        }
        const error = ApiError.generate(
          res.status,
          body ?? { message: res.statusText || `HTTP ${res.status}` },
          res.headers,
        );
        if (!isRetryable(error)) throw error;
        retryAfterMs = error.retryAfterMs;
        config.logger.warn('event stream refused', { status: res.status, code: error.code });
      } else if (!res.body) {
        throw new ConnectionError('The event stream answered without a readable body');
      } else {
        reader = res.body.getReader();
        const decoder = new TextDecoder();
        const parser = new SseParser((ms) => {
          retryMs = ms;
        });
        for (;;) {
          const { done, value } = await reader.read();
          if (done || signal?.aborted) break;
          for (const message of parser.feed(decoder.decode(value, { stream: true }))) {
            received = true;
            const event = toEvent(message.event, message.data, message.id);
            if (!event) continue;
            if (message.id !== undefined && /^\d+$/.test(message.id)) {
              const seq = BigInt(message.id);
              // The service never repeats after a resume; this guards against a replay anyway.
              if (lastSeq !== undefined && seq <= lastSeq) continue;
              lastSeq = seq;
            }
            yield event;
          }
        }
      }
    } catch (err) {
      if (signal?.aborted) return;
      if (err instanceof ApiError) throw err;
      config.logger.info('event stream dropped', { error: err instanceof Error ? err.message : String(err) });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      connection.abort();
      reader?.cancel().catch(() => {});
    }
    if (signal?.aborted) return;
    failures = received ? 1 : failures + 1;
    const wait = Math.max(Math.min(MAX_RECONNECT_MS, retryMs * 2 ** (failures - 1)), retryAfterMs ?? 0);
    config.logger.info('event stream reconnecting', { waitMs: wait, lastEventId: lastSeq?.toString() });
    try {
      await sleep(wait, signal);
    } catch {
      return;
    }
  }
}

function toEvent(type: string, data: string, id: string | undefined): StreamEvent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  if (type === 'price' && id === undefined) return { type: 'price', data: parsed as PriceUpdate['data'] };
  const event = parsed as DuelkitEvent;
  return typeof event.type === 'string' ? event : undefined;
}
