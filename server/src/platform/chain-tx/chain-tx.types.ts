import type { SqlExec } from '../db/sql.js';
import type { WriteKey } from '../operation.context.js';

/** 0x-prefixed hex: addresses, calldata, hashes, raw transactions. */
export type Hex = `0x${string}`;

/** The call a write makes: who signs it and what it sends. */
export interface TxCall {
  /** The signing account's address. */
  readonly account: Hex;
  /** The contract or recipient; null deploys `data` as a contract. */
  readonly to: Hex | null;
  readonly data: Hex;
  /** Native value sent, wei. */
  readonly value?: bigint;
}

/** A write submitted to the pipeline: the call, what it is for, and its key. */
export interface TxIntent extends TxCall {
  /** What kind of write this is, `<area>.<action>` (e.g. `markets.buy`); outcome handlers key on it. */
  readonly kind: string;
  /**
   * The natural key of the effect: one live chain write per key, ever (e.g. `payout:<duelId>:<holder>`).
   * Omitted: the write's named key under its operation's idempotent run, otherwise fresh.
   */
  readonly key?: string;
  /**
   * The write's name in its operation (`ctx.writeKey(name)`): keys the write under the request's
   * Idempotency-Key when it has no natural key, and links it to the request's run either way.
   */
  readonly write?: WriteKey;
  /** The expected effect in domain terms (ids, amounts), stored with the record for handlers and people. */
  readonly effect?: Record<string, unknown>;
  /**
   * Writes the request needs but did not ask for (allowance approvals, gas top-ups): they do not
   * mark the request's effect as started and never carry its answer.
   */
  readonly auxiliary?: boolean;
  /**
   * What the write spends of the signing wallet's tokens (a bet's stake, a withdrawal): reserved
   * against the wallet before anything is signed, counting every debit still in flight, so a
   * write the wallet cannot fund is refused with `refusal` (a 4xx) instead of reverting on chain.
   */
  readonly debit?: WriteDebit;
}

/** A token amount a write spends from its signer, and the error code it is refused with when unfunded. */
export interface WriteDebit {
  readonly token: Hex;
  readonly amount: bigint;
  readonly refusal: 'INSUFFICIENT_CREDITS' | 'INSUFFICIENT_BALANCE';
}

/** Fee fields of a transaction: EIP-1559 or legacy. */
export type TxFees =
  { readonly maxFeePerGas: bigint; readonly maxPriorityFeePerGas: bigint } | { readonly gasPrice: bigint };

/** What the node says before signing; fetched outside any database transaction. */
export interface TxQuote {
  readonly gas: bigint;
  readonly fees: TxFees;
  /**
   * The account's transaction count including pending ones: initialises and resynchronises nonces.
   * Undefined when the caller knows the database's count is current (this process wrote for the
   * account through the pipeline moments ago): the chain is not asked. A count that turns out
   * stale costs one refused broadcast, and the next attempt asks the chain.
   */
  readonly pendingNonce: number | undefined;
}

/** A transaction ready to sign. */
export interface UnsignedTx extends TxCall {
  readonly chainId: number;
  readonly nonce: number;
  readonly gas: bigint;
  readonly fees: TxFees;
}

/** Signed bytes and their hash: the hash is known before the node ever sees the bytes. */
export interface SignedTx {
  readonly raw: Hex;
  readonly hash: Hex;
}

/**
 * What a broadcast told us. Only `rejected` says the node refused the bytes themselves; a timeout
 * or a dropped connection is `unknown` (the node may well have it), never a failure.
 */
export type BroadcastOutcome =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'unknown'; readonly reason: string }
  /** An earlier nonce of the account has not reached the node yet. */
  | { readonly kind: 'nonce_gap'; readonly reason: string }
  /** The nonce is used: by this very transaction (mined), or by another one. */
  | { readonly kind: 'nonce_used'; readonly reason: string }
  | { readonly kind: 'rejected'; readonly reason: string };

export interface TxReceipt {
  readonly status: 'success' | 'reverted';
  readonly blockNumber: bigint;
}

/**
 * What a node says of a transaction hash (eth_getTransactionByHash): `unknown` (never seen, or
 * dropped), `pending` (in its mempool) or `mined` (in a block, final or not yet).
 */
export type TxSighting = 'unknown' | 'pending' | 'mined';

/** The chain as the pipeline needs it; the chain adapter implements it over its transport. */
export interface TxNode {
  readonly chainId: number;
  /** Sends signed bytes, bounded in time; never throws. */
  broadcast(raw: Hex): Promise<BroadcastOutcome>;
  /** The receipt of a mined transaction, or null while it is not (final enough to count as) mined. */
  receipt(hash: Hex): Promise<TxReceipt | null>;
  /** Whether the node has the transaction at all: pending, or mined at any depth. */
  lookup(hash: Hex): Promise<TxSighting>;
  /**
   * How many transactions of `account` are mined at the block `receipt` counts up to (the final
   * head, `confirmations` deep): every nonce below it is used by a transaction whose receipt
   * `receipt` returns. Counted at 'latest' instead, a nonce would look taken while its own
   * transaction's receipt is still withheld, and the write would be signed again.
   */
  minedNonce(account: Hex): Promise<number>;
  /**
   * `account`'s balance of `token` and its mined transaction count, both read at the same block:
   * the newest the node had at most `maxAgeMs` ago (0: the newest now).
   */
  funds(token: Hex, account: Hex, maxAgeMs: number): Promise<{ readonly balance: bigint; readonly minedNonce: number }>;
}

/** What a submission needs from the caller that knows the chain's types. */
export interface SubmitHooks {
  /**
   * Validates and simulates (a revert throws a 4xx DomainError and nothing is recorded), then
   * quotes gas, fees and the pending nonce. Runs before the database transaction opens. `attempt`
   * counts the signings of this write: above 0, the nonce given last time was used by another
   * transaction, so the pending nonce must come from the chain.
   */
  prepare(attempt: number): Promise<TxQuote>;
  /** Signs locally: CPU only, so it runs inside the recording transaction. */
  sign(tx: UnsignedTx): Promise<SignedTx>;
  /**
   * Domain rows the write creates or updates, written in the transaction that records it, so
   * nothing half-exists. Runs again if the write has to be signed again: make it idempotent.
   */
  record?(sql: SqlExec, txHash: Hex): Promise<void>;
  /** The request's answer once this write is signed; stored as the idempotency key's pending result. */
  result?(txHash: Hex): unknown;
}

export interface Submitted {
  readonly txHash: Hex;
  readonly recordId: string;
  /** An earlier submission under the same key was found: nothing new was signed or sent. */
  readonly existing: boolean;
  /** `accepted`: the node acknowledged it; `pending`: not yet, the reconciler will send it again. */
  readonly delivery: 'accepted' | 'pending';
}

/** What became of a recorded write, for the area that sent it. */
export type TxOutcome =
  | { readonly status: 'mined'; readonly blockNumber: bigint }
  | { readonly status: 'reverted'; readonly blockNumber: bigint }
  | { readonly status: 'failed'; readonly reason: string };

/** A recorded write as outcome handlers see it. */
export interface RecordedTx {
  readonly id: string;
  readonly kind: string;
  readonly key: string | null;
  readonly account: Hex;
  readonly txHash: Hex;
  readonly nonce: number;
  readonly effect: Record<string, unknown> | null;
}

/**
 * Reacts to the final outcome of writes of one kind, inside the transaction that records it (a
 * creation that reverted marks its duel failed, …). Delivered once per write.
 */
export type OutcomeHandler = (sql: SqlExec, tx: RecordedTx, outcome: TxOutcome) => Promise<void>;
