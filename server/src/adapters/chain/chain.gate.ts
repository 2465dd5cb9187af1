import type { Logger } from '../../logger.js';
import { ChainIdentityError } from '../../platform/chain-tx/chain-state.repository.js';
import { monotonicClock, type Clock } from '../../platform/clock.js';
import { isSocketFailure } from '../../platform/outage/infrastructure-error.js';

/** Why a call to the chain node was not made: the node has not yet been recognised as this database's chain. */
export class ChainNotVerifiedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainNotVerifiedError';
  }
}

export type ChainGateState =
  | { readonly state: 'verified' }
  | { readonly state: 'waiting'; readonly lastError: string | null }
  | { readonly state: 'refused'; readonly reason: string };

export interface ChainGateOptions {
  /** The least time between two checks while the node does not answer (ms). */
  readonly retryAfterMs: number;
  /** Spaces the checks; monotonic by default (an I/O retry, not a rule's deadline). */
  readonly clock?: Clock;
}

/**
 * Holds every JSON-RPC call to the chain node until the node has been recognised as the chain
 * this database was written against (chain id, genesis, anchor block, contracts: `verify`).
 *
 * An instance that starts while its node is away comes up without that check, serves what the
 * database can answer, and checks on the first call to the node after it; until the check passes,
 * each call fails as an unreachable node's does (CHAIN_UNAVAILABLE), so no read is taken from an
 * unverified chain and nothing is signed for it. The check is made once at a time: concurrent
 * calls wait for the same one, and after a failed one the next is made no sooner than
 * `retryAfterMs`. A node that answers as another chain (`ChainIdentityError`) closes the gate for
 * good: that is a configuration to correct, as it refuses a start.
 *
 * A call whose connection was refused or lost (the node, or whatever answers at its address, went
 * away) makes the next call check the node again: a node restarted, failed over or replaced
 * behind the same address is recognised before anything more is read from it or signed for it.
 * A call that only took too long (an abort) does not.
 */
export class ChainGate {
  private verified = false;
  private refusal: ChainIdentityError | null = null;
  private lastError: unknown = null;
  private lastFailureAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | null = null;
  private readonly clock: Clock;

  constructor(
    private readonly verify: () => Promise<void>,
    private readonly logger: Logger,
    private readonly options: ChainGateOptions,
  ) {
    this.clock = options.clock ?? monotonicClock;
  }

  state(): ChainGateState {
    if (this.verified) return { state: 'verified' };
    // The identity check words its finding for a start it refuses; here the instance is running.
    if (this.refusal) return { state: 'refused', reason: this.refusal.message.replace(/^Refusing to start: /, '') };
    return { state: 'waiting', lastError: this.lastError === null ? null : describeError(this.lastError) };
  }

  /** Resolves once the chain is recognised; rejects with `ChainNotVerifiedError` while it is not. */
  pass(): Promise<void> {
    if (this.verified) return Promise.resolve();
    if (this.refusal) return Promise.reject(this.notVerified(this.refusal));
    if (this.inFlight) return this.inFlight;
    if (this.clock.now() - this.lastFailureAt < this.options.retryAfterMs) {
      return Promise.reject(this.notVerified(this.lastError));
    }
    this.inFlight = this.check().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** `fetch` behind the gate: the call is made only once the chain is recognised. */
  wrap<A extends unknown[], R>(fetch: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    const call = (...args: A) =>
      fetch(...args).catch((err: unknown) => {
        this.failed(err);
        throw err;
      });
    return (...args: A) => (this.verified ? call(...args) : this.pass().then(() => call(...args)));
  }

  /** A call that lost its connection: the node is checked again before the next call. */
  private failed(err: unknown): void {
    if (!this.verified || !isSocketFailure(err)) return;
    this.verified = false;
    this.logger.warn(
      { err: describeError(err) },
      'chain node connection lost; it is checked again before the next call',
    );
  }

  private async check(): Promise<void> {
    try {
      await this.verify();
    } catch (err) {
      this.lastFailureAt = this.clock.now();
      this.lastError = err;
      if (err instanceof ChainIdentityError) {
        this.refusal = err;
        this.logger.error({ reason: err.message }, 'chain node answers as another chain; chain calls stay refused');
      } else {
        this.logger.warn({ err: describeError(err) }, 'chain node not verified yet; chain calls wait for it');
      }
      throw this.notVerified(err);
    }
    this.verified = true;
    this.lastError = null;
    this.logger.info('chain node verified; chain calls resume');
  }

  private notVerified(cause: unknown): ChainNotVerifiedError {
    return new ChainNotVerifiedError(
      cause instanceof ChainIdentityError
        ? cause.message
        : `The chain node has not been verified as this database's chain yet: ${describeError(cause)}`,
      { cause },
    );
  }
}

/** The first line of an error's message, for a log field or a readiness check. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message.split('\n')[0] ?? err.name;
  return String(err);
}
