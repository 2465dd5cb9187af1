import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';

/** The answer a request gives once its effect is accepted, recorded before the effect is sent. */
export interface PendingAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * One execution of a request that carries an Idempotency-Key, as the chain pipeline sees it. The
 * HTTP layer opens it; services never touch it; the pipeline reads it to link its records to the
 * key and to store the pending answer in the same transaction as the signed write.
 */
export interface IdempotentRun {
  /** The idempotency_keys row this execution holds. */
  readonly recordId: string;
  /** The route's success status: the status of the pending answer. */
  readonly successStatus: number;
  /** Shapes a service result the way the route answers it (its response schema). */
  readonly shape: (body: unknown) => unknown;
  /** True when this execution took over a key whose effect had started: writes resume, never repeat. */
  readonly resumed: boolean;
  /** How many non-auxiliary writes this execution has submitted; keys the next one. */
  writes: number;
  /** How many request-scoped keys of each label this execution has made; numbers the next one. */
  readonly scoped: Map<string, number>;
  /** Set once a write of this execution is recorded: the key is never released again. */
  effectStarted: boolean;
  /** The answer recorded with the first write, when the route's answer was known then. */
  pending: PendingAnswer | undefined;
}

const storage = new AsyncLocalStorage<IdempotentRun>();

/** Runs `fn` (and everything it starts) inside `run`. */
export function withIdempotentRun<T>(run: IdempotentRun, fn: () => T): T {
  return storage.run(run, fn);
}

/** The idempotent execution the current request runs in, if any. */
export function currentIdempotentRun(): IdempotentRun | undefined {
  return storage.getStore();
}

/**
 * A key for something a request creates that must come out the same when a takeover resumes the
 * request (e.g. the id of a duel it creates): derived from the idempotency record and numbered in
 * the order the request asks (its 1st, 2nd… duel), or undefined when the request has no
 * Idempotency-Key.
 */
export function requestScopedKey(label: string): string | undefined {
  const run = storage.getStore();
  if (!run) return undefined;
  const index = run.scoped.get(label) ?? 0;
  run.scoped.set(label, index + 1);
  return `idem:${run.recordId}:${label}:${index}`;
}

/** A UUID derived from `text`: the same text, the same id (name-based, like a version-5 UUID). */
export function uuidFrom(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The id of a row a request creates (a withdrawal, a request, an entry) that a takeover of the
 * same Idempotency-Key must find again instead of creating a second one: derived from the
 * idempotency record (see `requestScopedKey`), or undefined when the request has no key.
 */
export function requestScopedId(label: string): string | undefined {
  const key = requestScopedKey(label);
  return key === undefined ? undefined : uuidFrom(key);
}
