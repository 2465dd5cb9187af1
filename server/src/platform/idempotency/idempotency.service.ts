import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { canonicalJson } from '../canonical-json.js';
import type { IdempotencyRepository } from './idempotency.repository.js';
import { systemClock, type Clock } from '../clock.js';

export interface IdempotencyScope {
  readonly tenantId: string;
  readonly caller: string;
  /** Method and route pattern, e.g. `POST /svc/user/bets/create`. */
  readonly route: string;
  readonly key: string;
}

export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

export type IdempotencyBegin =
  /** Run the request. `resumed`: a dead execution's effect had started; its writes are found, not repeated. */
  | { readonly kind: 'proceed'; readonly recordId: string; readonly resumed: boolean }
  | { readonly kind: 'replay'; readonly response: StoredResponse }
  /** The first execution still runs, but its effect is accepted and its answer known: that answer. */
  | { readonly kind: 'pending'; readonly response: StoredResponse }
  | { readonly kind: 'mismatch' }
  | { readonly kind: 'in_flight' };

export interface IdempotencySettings {
  readonly ttlMs: number;
  /** How long a duplicate waits for the first request to finish before giving up with in_flight. */
  readonly waitMs: number;
  /**
   * An in-flight record older than this belongs to a dead process: taken over when its effect
   * never started, answered with its pending answer (or resumed) when it did.
   */
  readonly lockTimeoutMs: number;
  /** How often a release the database did not take is tried again (500 ms). */
  readonly releaseRetryMs?: number;
}

export interface IdempotencyDeps {
  /** Wall-clock time by default: the records' expiry and lock times are the database's now(). */
  readonly clock?: Clock;
  /** Waits `ms` (a duplicate's back-off, a lost release's retry); rejects when `signal` aborts. */
  readonly sleep?: (ms: number, options: { signal?: AbortSignal; ref?: boolean }) => Promise<unknown>;
}

/** Fingerprint of what makes two requests "the same": path, query and body, key order aside. */
export function requestFingerprint(path: string, query: unknown, body: unknown): string {
  return createHash('sha256')
    .update(path)
    .update('\n')
    .update(canonicalJson(query ?? {}))
    .update('\n')
    .update(canonicalJson(body ?? null))
    .digest('hex');
}

/**
 * Idempotency-Key bookkeeping in PostgreSQL, after Stripe's model: the unique (tenant, caller,
 * route, key) row is the lock, and its recovery point (`effect_started_at`, set in the same
 * transaction that records a signed chain write) decides what a retry may do. A key whose
 * effect may have started is never released and never run again: a retry gets the recorded
 * answer, the pending answer, or resumes a request whose writes are found by their keys.
 */
export class IdempotencyService {
  private readonly wakeups = new EventEmitter();
  /**
   * Records whose execution ended without an effect but whose release did not reach the database
   * (it was down): record id → the lock that execution held and until when the release is retried.
   * A retry that reaches this instance takes such a record over at once (`begin`); one that
   * reaches another instance waits for the release, which is retried in the background until the
   * database answers or the lock times out anyway.
   */
  private readonly unreleased = new Map<string, { lock: string; until: number }>();
  /** The lock each execution running on this instance holds, by record id. */
  private readonly locks = new Map<string, string>();
  private readonly clock: Clock;
  private readonly sleep: NonNullable<IdempotencyDeps['sleep']>;

  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly settings: IdempotencySettings,
    deps: IdempotencyDeps = {},
  ) {
    this.wakeups.setMaxListeners(0);
    this.clock = deps.clock ?? systemClock;
    this.sleep = deps.sleep ?? ((ms, options) => sleep(ms, undefined, options));
  }

  async begin(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyBegin> {
    // Wall-clock time throughout: the records' expiry and lock times are written by the database's
    // now(), and the wait and lock timeout are infrastructure, not domain rules.
    const deadline = this.clock.now() + this.settings.waitMs;
    let backoff = 25;
    for (;;) {
      const inserted = await this.keys.insertInFlight(scope, fingerprint, this.settings.ttlMs);
      if (inserted) return this.proceed(inserted.id, inserted.lock, false);

      const row = await this.keys.find(scope);
      if (!row) continue; // removed between our insert and select: try again
      if (new Date(row.expires_at).getTime() <= this.clock.now()) {
        await this.keys.deleteIfExpired(row.id);
        continue;
      }
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state === 'completed' && row.response_status !== null) {
        return { kind: 'replay', response: { status: row.response_status, body: row.response_body } };
      }
      const pending =
        row.effect_started_at !== null && row.pending_status !== null
          ? { status: row.pending_status, body: row.pending_body }
          : undefined;
      const unreleased = this.unreleased.get(String(row.id));
      if (unreleased && row.effect_started_at === null) {
        // Its execution ended here without an effect; only the release was lost. The update checks
        // both again in the database: a record whose effect started is never taken over to redo it.
        this.unreleased.delete(String(row.id));
        const lock = await this.keys.takeOverEnded(String(row.id), unreleased.lock);
        if (lock) return this.proceed(String(row.id), lock, false);
        continue;
      }
      if (new Date(row.locked_at).getTime() < this.clock.now() - this.settings.lockTimeoutMs) {
        if (pending) {
          // The execution died after its effect was accepted: its pending answer is the answer.
          await this.complete(scope, String(row.id), pending);
          return { kind: 'replay', response: pending };
        }
        const lock = await this.keys.takeOver(row.id, this.settings.lockTimeoutMs);
        if (lock) return this.proceed(String(row.id), lock, row.effect_started_at !== null);
        continue;
      }
      const remaining = deadline - this.clock.now();
      if (remaining <= 0) return pending ? { kind: 'pending', response: pending } : { kind: 'in_flight' };
      await this.waitForChange(scopeKey(scope), Math.min(backoff, remaining));
      backoff = Math.min(backoff * 2, 500);
    }
  }

  private proceed(recordId: string, lock: string, resumed: boolean): IdempotencyBegin {
    this.locks.set(recordId, lock);
    return { kind: 'proceed', recordId, resumed };
  }

  /** Stores the response of the request that ran, so duplicates replay it. */
  async complete(scope: IdempotencyScope, recordId: string, response: StoredResponse): Promise<void> {
    this.locks.delete(recordId);
    await this.keys.complete(recordId, response.status, response.body);
    this.wakeups.emit(scopeKey(scope));
  }

  /**
   * Ends an execution whose answer was stored with its chain write (`EFFECT_STARTED` in
   * chain-tx.repository.ts completes the key with the write's pending answer): nothing to write.
   */
  completedWithWrite(scope: IdempotencyScope, recordId: string): void {
    this.locks.delete(recordId);
    this.wakeups.emit(scopeKey(scope));
  }

  /**
   * Forgets a key whose request produced no storable result (5xx, rate limited), so a retry runs
   * — unless its effect started: then the row stays, and a retry gets the recorded outcome.
   */
  async release(scope: IdempotencyScope, recordId: string): Promise<void> {
    const lock = this.locks.get(recordId);
    this.locks.delete(recordId);
    try {
      await this.keys.release(recordId, lock);
    } catch (err) {
      // The database is out of reach (the usual reason a request failed at all): remember the
      // record so a retry here takes it over, and keep releasing it until the database answers.
      if (lock !== undefined) {
        this.unreleased.set(recordId, { lock, until: this.clock.now() + this.settings.lockTimeoutMs });
        void this.releaseLater(scope, recordId);
      }
      throw err;
    }
    this.wakeups.emit(scopeKey(scope));
  }

  /** Retries a lost release every `releaseRetryMs` until it succeeds, the record is taken over, or its lock times out. */
  private async releaseLater(scope: IdempotencyScope, recordId: string): Promise<void> {
    for (;;) {
      await this.sleep(this.settings.releaseRetryMs ?? 500, { ref: false });
      const entry = this.unreleased.get(recordId);
      if (!entry) return; // taken over by a retry on this instance
      if (this.clock.now() > entry.until) {
        this.unreleased.delete(recordId);
        return; // the lock has timed out: any retry takes the record over now
      }
      try {
        // Conditional on the lock: a retry that took the record over in the meantime keeps it.
        await this.keys.release(recordId, entry.lock);
        this.unreleased.delete(recordId);
        this.wakeups.emit(scopeKey(scope));
        return;
      } catch {
        // still down; try again
      }
    }
  }

  /** Deletes expired records; returns how many. */
  async purgeExpired(): Promise<number> {
    return this.keys.purgeExpired();
  }

  private async waitForChange(key: string, ms: number): Promise<void> {
    const ac = new AbortController();
    await Promise.race([
      new Promise<void>((resolve) => {
        const onWake = () => resolve();
        this.wakeups.once(key, onWake);
        ac.signal.addEventListener('abort', () => this.wakeups.off(key, onWake));
      }),
      this.sleep(ms, { signal: ac.signal }).catch(() => undefined),
    ]);
    ac.abort();
  }
}

function scopeKey(scope: IdempotencyScope): string {
  return `${scope.tenantId}|${scope.caller}|${scope.route}|${scope.key}`;
}
