import { randomUUID } from 'node:crypto';
import type { Clock } from './clock.js';
import type { Region } from './geo/region.js';
import { uuidFrom, type IdempotentRun } from './idempotency/idempotent-run.js';

/**
 * A chain write's place in its operation: the name its call site gave it and, when the operation
 * runs under an Idempotency-Key, the key the pipeline records it under. A resumed request finds
 * each write again by its name, whatever order the code issues them in.
 */
export interface WriteKey {
  /** The name the call site gave the write (`create-duel`, `claim:<duelId>`). */
  readonly name: string;
  /** `idem:<record>:w:<name>` under an idempotent run; undefined otherwise (the write is fresh, or naturally keyed). */
  readonly key: string | undefined;
  /** The idempotent run the write belongs to: its record is linked and its pending answer stored with the write. */
  readonly run: IdempotentRun | undefined;
}

/**
 * One operation: an HTTP request or one run of a job. Built once at the edge (the route, the job
 * runner) and handed to the service method explicitly, so everything the rules need from outside
 * the arguments (the time, where the request comes from, how its writes are keyed) is in view.
 */
export interface OperationContext {
  /** The request id (or `job:<id>`): what logs and error bodies name. */
  readonly requestId: string;
  /** The injected clock: what deadlines judged after an await should read. */
  readonly clock: Clock;
  /** When the operation began, from the clock: one instant for every rule the operation applies. */
  readonly now: Date;
  /** The caller's region on geo-gated routes; undefined elsewhere. */
  readonly region: Region | undefined;
  /** The idempotent run of a request that carries an Idempotency-Key. */
  readonly run: IdempotentRun | undefined;
  /** True when this execution took over a key whose effect had started: writes resume, never repeat. */
  readonly resumed: boolean;
  /**
   * The key of a chain write, named where the write is made. Names are unique within the
   * operation: asking twice for one name is a programming error (two writes would share a key).
   */
  writeKey(name: string): WriteKey;
  /**
   * A key for something the operation creates that a resumed request must find again (the duel
   * it creates, the withdrawal row), numbered in the order the operation asks for each label;
   * undefined when the operation has no idempotent run.
   */
  scopedKey(label: string): string | undefined;
  /** `scopedKey` as a UUID, for rows keyed by one. */
  scopedId(label: string): string | undefined;
}

/** Thrown when one operation names two chain writes alike: a bug at the call site, never the client's. */
export class DuplicateWriteNameError extends Error {
  constructor(readonly writeName: string) {
    super(`Two chain writes of one operation are both named "${writeName}"; each needs its own name`);
    this.name = 'DuplicateWriteNameError';
  }
}

export interface OperationInput {
  readonly requestId: string;
  readonly clock: Clock;
  readonly region?: Region | undefined;
  readonly run?: IdempotentRun | undefined;
}

/** The context of one operation (see `OperationContext`). */
export function operationContext(input: OperationInput): OperationContext {
  const { run } = input;
  // Under a run the names live on it, so any context of the same execution sees them.
  const names = run?.names ?? new Set<string>();
  const scoped = run?.scoped ?? new Map<string, number>();
  const scopedKey = (label: string): string | undefined => {
    if (!run) return undefined;
    const index = scoped.get(label) ?? 0;
    scoped.set(label, index + 1);
    return `idem:${run.recordId}:${label}:${index}`;
  };
  return {
    requestId: input.requestId,
    clock: input.clock,
    now: new Date(input.clock.now()),
    region: input.region,
    run,
    resumed: run?.resumed ?? false,
    writeKey(name) {
      if (!name) throw new Error('A chain write needs a name');
      if (names.has(name)) throw new DuplicateWriteNameError(name);
      names.add(name);
      return { name, key: run ? `idem:${run.recordId}:w:${name}` : undefined, run };
    },
    scopedKey,
    scopedId(label) {
      const key = scopedKey(label);
      return key === undefined ? undefined : uuidFrom(key);
    },
  };
}

/** The context of one run of a job: no caller, no idempotent run (jobs key their writes naturally). */
export function jobContext(clock: Clock, jobId: string = randomUUID()): OperationContext {
  return operationContext({ requestId: `job:${jobId}`, clock });
}
