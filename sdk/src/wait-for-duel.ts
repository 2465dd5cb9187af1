import type { Duel } from './api.generated.js';
import { AbortError, isRetryable, TimeoutError } from './core/errors.js';
import type { Logger } from './core/logger.js';
import type { EventsNamespace, EventType } from './events.js';

/** The polling fallback reads the market no more often than this (the spec's guidance). */
export const DUEL_POLL_INTERVAL_MS = 30_000;

/** The event types that carry a market's new status. */
const DUEL_EVENTS: EventType[] = [
  'duel.confirmed',
  'duel.closed',
  'duel.resolved',
  'duel.contest_opened',
  'duel.settled',
  'duel.cancelled',
];

/** Options of `client.waitForDuel`. */
export interface WaitForDuelOptions {
  /** The status (or any of the statuses) to wait for. */
  status: Duel['status'] | readonly Duel['status'][];
  /** Give up after this long with {@link DuelWaitTimeoutError} (default: no limit). */
  timeoutMs?: number;
  /** Stops waiting with `AbortError`. */
  signal?: AbortSignal;
}

/** `client.waitForDuel` ran out of time before the market reached the status. */
export class DuelWaitTimeoutError extends TimeoutError {
  constructor(
    readonly duelId: string,
    readonly expected: readonly string[],
    /** The status last read, when a read succeeded. */
    readonly lastStatus: string | undefined,
    timeoutMs: number,
  ) {
    super(
      `Market ${duelId} did not reach ${expected.join(' or ')} within ${timeoutMs} ms (last seen: ${lastStatus ?? 'unknown'})`,
    );
  }
}

/** What {@link waitForDuel} needs; the client passes its own, tests a clock. */
export interface WaitForDuelDeps {
  readonly events: EventsNamespace;
  readonly getDuel: (duelId: string, signal: AbortSignal) => Promise<Duel>;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly logger: Logger;
}

/**
 * Resolves with the market once its status is one of `options.status`: reads it at once, then
 * follows the event stream filtered to it (reading the market again when an event brings a
 * matching status) and, in case the stream is unavailable or silent, reads it every 30 s.
 */
export function waitForDuel(deps: WaitForDuelDeps, duelId: string, options: WaitForDuelOptions): Promise<Duel> {
  const expected: readonly string[] = typeof options.status === 'string' ? [options.status] : options.status;
  const inner = new AbortController();
  const { signal } = inner;
  let lastStatus: string | undefined;
  return new Promise<Duel>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      inner.abort();
      outcome();
    };
    const onAbort = () =>
      finish(() => reject(new AbortError('The wait was aborted', { cause: options.signal?.reason })));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const check = async (): Promise<void> => {
      const duel = await deps.getDuel(duelId, signal);
      lastStatus = duel.status;
      if (expected.includes(duel.status)) finish(() => resolve(duel));
    };

    if (options.timeoutMs !== undefined) {
      const timeoutMs = options.timeoutMs;
      deps.sleep(timeoutMs, signal).then(
        () => finish(() => reject(new DuelWaitTimeoutError(duelId, expected, lastStatus, timeoutMs))),
        () => {},
      );
    }

    void (async () => {
      try {
        for await (const event of deps.events.stream({ duelIds: [duelId], types: DUEL_EVENTS, signal })) {
          const snapshot = event.type === 'duel.contest_opened' ? event.data.duel : event.data;
          if ('status' in snapshot && snapshot.duelId.toLowerCase() === duelId.toLowerCase()) {
            lastStatus = snapshot.status;
            if (expected.includes(snapshot.status)) await check();
          }
        }
      } catch (err) {
        if (!settled)
          deps.logger.info('waitForDuel: event stream unavailable, polling', { duelId, error: String(err) });
      }
    })();

    void (async () => {
      while (!settled) {
        try {
          await check();
        } catch (err) {
          if (settled) return;
          if (!isRetryable(err)) return finish(() => reject(err instanceof Error ? err : new Error(String(err))));
        }
        if (settled) return;
        try {
          await deps.sleep(DUEL_POLL_INTERVAL_MS, signal);
        } catch {
          return;
        }
      }
    })();
  });
}
