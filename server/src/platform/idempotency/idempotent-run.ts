import { createHash } from 'node:crypto';

/** The answer a request gives once its effect is accepted, recorded before the effect is sent. */
export interface PendingAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * One execution of a request that carries an Idempotency-Key. The HTTP layer opens it and puts it
 * in the request's operation context; the chain pipeline reads it from a write's key (see
 * `WriteKey`) to link its records to the key and to store the pending answer in the same
 * transaction as the signed write.
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
  /** The names this execution gave its chain writes: each names one write (see `OperationContext.writeKey`). */
  readonly names: Set<string>;
  /** How many request-scoped keys of each label this execution has made; numbers the next one. */
  readonly scoped: Map<string, number>;
  /** Set once a write of this execution is recorded: the key is never released again. */
  effectStarted: boolean;
  /** The answer recorded with the first write, when the route's answer was known then. */
  pending: PendingAnswer | undefined;
}

/** A UUID derived from `text`: the same text, the same id (name-based, like a version-5 UUID). */
export function uuidFrom(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
