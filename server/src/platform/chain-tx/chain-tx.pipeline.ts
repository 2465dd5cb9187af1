import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { systemClock, type Clock } from '../clock.js';
import type { IdempotentRun, PendingAnswer } from '../idempotency/idempotent-run.js';
import { isDuplicateKey, type ChainTxRecord, type ChainTxRepository, type NewChainTx } from './chain-tx.repository.js';
import type { FundsRepository } from './funds.repository.js';
import type {
  BroadcastOutcome,
  Hex,
  OutcomeHandler,
  RecordedTx,
  SignedTx,
  Submitted,
  SubmitHooks,
  TxIntent,
  TxNode,
  TxOutcome,
  TxQuote,
} from './chain-tx.types.js';
import { SerialQueue } from './serial-queue.js';

export interface PipelineSettings {
  /** How often a broadcast refused for a nonce gap is tried again before the reconciler takes over. */
  readonly gapRetries: number;
  readonly gapRetryDelayMs: number;
  /** How many times a write whose nonce someone else used is signed again with a fresh one. */
  readonly maxResigns: number;
  /**
   * How long a funds reservation whose write was never recorded keeps holding the wallet's funds
   * (the request died between reserving and signing; a retry of it finds its reservation anyway).
   */
  readonly unrecordedHoldMs: number;
}

const DEFAULTS: PipelineSettings = { gapRetries: 5, gapRetryDelayMs: 40, maxResigns: 2, unrecordedHoldMs: 120_000 };

/** How often a write is signed again after another process took the nonce it guessed, before it waits on the row lock. */
const CAS_TRIES = 3;
/**
 * How old the block a funds reservation is checked at may be: the head any read of the process
 * took in the last second, so concurrent placements share one head read instead of each asking
 * the node first. Reservations are kept an hour after their write (RESERVATIONS_KEPT_MS), so a
 * write mined since that block is still counted.
 */
const FUNDS_BLOCK_MAX_AGE_MS = 1_000;

/** What the chain says about a write whose broadcast was not accepted (see `askChain`). */
export type ChainVerdict = 'settled' | 'known' | 'free' | 'taken';

interface Recorded {
  readonly tx: ChainTxRecord;
  readonly signed: SignedTx;
}

/**
 * Exactly-once chain writes: the transactional outbox between the database and the chain.
 *
 * 1. The caller validates and simulates (`prepare`; a revert is a 4xx and nothing is recorded)
 *    and fetches gas, fees and the pending nonce — all before any database transaction opens.
 * 2. The write is signed with the account's next nonce as this process last recorded it (read
 *    from the database when it has none) and recorded in one statement that advances the
 *    account's row only if that nonce is still its next (compare-and-set), together with the raw
 *    bytes, their hash, the intent, and the request's idempotency key marked "effect started"
 *    with its pending answer. A process that lost the nonce to another reads it and signs again;
 *    after a few losses, or when the caller writes domain rows with the record, the nonce is
 *    allocated under the row lock in a transaction that also writes those rows.
 * 3. The bytes are broadcast with a bounded wait. Any answer but "accepted" is ambiguous (a node
 *    may execute a transaction and answer with an error; a connection may drop after the node
 *    took it), so the chain is asked about this very hash first: a receipt settles it, a node
 *    that has it leaves it pending, a free nonce leaves it for the reconciler to send the same
 *    bytes again (same nonce, same hash: at most one can ever be mined). Only a nonce used at the
 *    final head by a transaction no node knows as this one leads to a new signing.
 *
 * A write is keyed: one live write per key, so a retried request, a rerun job or a resumed
 * request finds the recorded write instead of sending another.
 */
export class ChainTxPipeline {
  private readonly queue = new SerialQueue();
  /** Records one write per account at a time in this process (processes meet on the account's row). */
  private readonly recorder = new SerialQueue();
  /** Each account's next nonce as this process last recorded it: the guess the next record checks. */
  private readonly nextNonces = new Map<string, number>();
  private readonly handlers = new Map<string, { handler: OutcomeHandler; on: ReadonlySet<TxOutcome['status']> }[]>();
  private readonly settings: PipelineSettings;

  constructor(
    private readonly repo: ChainTxRepository,
    private readonly funds: FundsRepository,
    readonly node: TxNode,
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
    settings: Partial<PipelineSettings> = {},
  ) {
    this.settings = { ...DEFAULTS, ...settings };
  }

  get chainId(): number {
    return this.node.chainId;
  }

  /**
   * Registers what happens in the database when a write of `kind` settles with one of the outcomes
   * `on` (mined, reverted, failed; all three unless given). A write whose outcome no handler takes
   * is settled by one statement of its own, or with others in one (`settleReceipts`).
   */
  onOutcome(
    kind: string,
    handler: OutcomeHandler,
    on: readonly TxOutcome['status'][] = ['mined', 'reverted', 'failed'],
  ): void {
    this.handlers.set(kind, [...(this.handlers.get(kind) ?? []), { handler, on: new Set(on) }]);
  }

  private handlersOf(kind: string, status: TxOutcome['status']): OutcomeHandler[] {
    return (this.handlers.get(kind) ?? []).filter((h) => h.on.has(status)).map((h) => h.handler);
  }

  /** Records, signs and sends one write; returns its hash once it is recorded (acceptance, not finality). */
  async submit(intent: TxIntent, hooks: SubmitHooks): Promise<Submitted> {
    const run = intent.auxiliary ? undefined : intent.write?.run;
    const { key, fresh } = this.keyOf(intent, run);
    // A key made for this very execution cannot have a record yet; any other may.
    const found = fresh ? null : await this.repo.byKey(key);
    if (found) return this.existing(found, run);
    // A resumed request whose write reverted: the revert is that write's outcome, not a reason to
    // send it again (a job, or a new request, may try the same natural key again after a revert).
    const reverted = run?.resumed ? await this.repo.revertedByKey(key) : null;
    if (reverted) return this.existing(reverted, run);
    if (!intent.debit) return this.signAndSend(intent, key, hooks, run);
    await this.reserveFunds(intent, intent.debit, key);
    try {
      return await this.signAndSend(intent, key, hooks, run);
    } catch (err) {
      // Refused before anything was recorded (simulation, quote): the funds are free again.
      await this.funds
        .release(key)
        .catch((e: unknown) => this.logger.warn({ err: e, key }, 'could not release a funds reservation'));
      throw err;
    }
  }

  /** Forgets funds reservations older than `olderThanMs` that no open write needs; returns how many. */
  purgeReservations(olderThanMs: number): Promise<number> {
    return this.funds.purge(new Date(this.clock.now() - olderThanMs));
  }

  /**
   * Reserves what the write spends, or refuses it with its 4xx: the wallet's balance at a block,
   * less every reservation the chain's balance does not reflect yet (see FundsRepository).
   */
  private async reserveFunds(intent: TxIntent, debit: NonNullable<TxIntent['debit']>, key: string): Promise<void> {
    const reserveAt = async (maxAgeMs: number) => {
      const snapshot = await this.node.funds(debit.token, intent.account, maxAgeMs);
      const now = this.clock.now();
      return this.funds.reserve(
        { chainId: this.chainId, account: intent.account, token: debit.token, amount: debit.amount, key },
        snapshot,
        new Date(now - this.settings.unrecordedHoldMs),
        new Date(now),
      );
    };
    // A slightly older block only holds back more: writes mined since it are still counted as in
    // flight, and deposits since it are not counted. So an acceptance there stands, and only a
    // refusal is asked again at the newest block.
    let outcome = await reserveAt(FUNDS_BLOCK_MAX_AGE_MS);
    if (!outcome.ok) outcome = await reserveAt(0);
    if (outcome.ok) return;
    const available = outcome.balance > outcome.held ? outcome.balance - outcome.held : 0n;
    throw new DomainError(
      debit.refusal,
      `The wallet holds ${outcome.balance} base units, ${outcome.held} of them committed to writes still in flight; ` +
        `${available} are available and this needs ${debit.amount}`,
      {
        details: {
          balance: outcome.balance.toString(),
          inFlight: outcome.held.toString(),
          available: available.toString(),
          required: debit.amount.toString(),
          token: debit.token,
        },
      },
    );
  }

  private async signAndSend(
    intent: TxIntent,
    key: string,
    hooks: SubmitHooks,
    run: IdempotentRun | undefined,
  ): Promise<Submitted> {
    for (let attempt = 0; ; attempt++) {
      const quote = await hooks.prepare(attempt);
      let recorded: Recorded;
      try {
        recorded = await this.record(intent, key, quote, hooks, run);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // A concurrent submission of the same write recorded it first; its transaction rolled ours back.
        const winner = await this.repo.byKey(key);
        if (!winner) throw err;
        return this.existing(winner, run);
      }
      const delivery = await this.deliver(recorded.tx);
      if (delivery !== 'resign' || attempt >= this.settings.maxResigns) {
        return {
          txHash: recorded.signed.hash,
          recordId: recorded.tx.id,
          existing: false,
          delivery: delivery === 'accepted' ? 'accepted' : 'pending',
        };
      }
      this.logger.warn(
        { key, nonce: recorded.tx.nonce, account: intent.account },
        'nonce taken elsewhere; signing again',
      );
    }
  }

  /** The recorded write under `key`, if there is a live one. */
  find(key: string): Promise<ChainTxRecord | null> {
    return this.repo.byKey(key);
  }

  /** An open write of `kind` from `account` to `to`, to wait on instead of sending another. */
  /** The write signed again under the same key after the write `hash` lost its nonce, if any. */
  replacementOf(hash: Hex): Promise<ChainTxRecord | null> {
    return this.repo.replacementOf(hash);
  }

  findOpen(kind: string, account: Hex, to: Hex): Promise<ChainTxRecord | null> {
    return this.repo.openOf(this.chainId, kind, account, to);
  }

  /**
   * Sends recorded bytes, one account at a time in the order they were recorded, retrying a
   * nonce gap briefly (another process may be a moment late with the nonce below). Any answer but
   * "accepted" is ambiguous — a node may execute a transaction and still answer with an error, a
   * connection may drop after the node took it — so the chain is asked about this very
   * transaction before anything else happens (`askChain`). Returns `resign` only when its nonce
   * was used by another transaction, so this one can never be mined.
   */
  async deliver(tx: ChainTxRecord, noteAccepted = false): Promise<'accepted' | 'pending' | 'resign' | 'settled'> {
    const outcome = await this.queue.run(tx.account.toLowerCase(), () => this.broadcastWithGapRetries(tx.rawTx));
    let verdict: ChainVerdict | 'accepted' = 'accepted';
    if (outcome.kind !== 'accepted') {
      try {
        verdict = await this.askChain(tx);
      } catch (err) {
        // The node cannot be asked either: the write stays open and the reconciler asks again.
        this.logger.warn({ err, txHash: tx.txHash }, 'could not ask the chain about a write');
        verdict = 'free';
      }
    }
    // Bookkeeping only: the write is recorded already and the reconciler settles it from the chain.
    // A first broadcast the node took needs no note (the reconciler finds its receipt); a settled
    // write keeps the outcome it was settled with.
    const nodeHasIt = verdict === 'accepted' || verdict === 'known';
    const final = verdict === 'settled' || verdict === 'taken';
    if (!final && (outcome.kind !== 'accepted' || noteAccepted)) {
      await this.repo
        .noteBroadcast(tx.id, nodeHasIt, outcome.kind === 'accepted' ? null : outcome.reason)
        .catch((err: unknown) => this.logger.warn({ err, txHash: tx.txHash }, 'could not note a broadcast'));
    }
    switch (verdict) {
      case 'accepted':
        return 'accepted';
      case 'settled':
        return 'settled';
      case 'taken':
        return 'resign';
      case 'known':
      case 'free':
        if (outcome.kind !== 'accepted') {
          this.logger.info(
            { txHash: tx.txHash, outcome: outcome.kind, reason: outcome.reason, chain: verdict },
            'broadcast pending',
          );
        }
        return 'pending';
    }
  }

  /**
   * What the chain says about a recorded write that is not known to be accepted, in this order:
   * a receipt settles it (`settled`, mined or reverted: a revert is final, never a reason to send
   * again); a node that has it, pending or mined above the final head, means it is on its way
   * (`known`); a nonce the account has not used at the final head leaves it open for the same
   * bytes to be sent again (`free`). Only a nonce used at the final head by a transaction that is
   * not this one proves it can never be mined: it is recorded failed, the account's count
   * resynchronised, and the answer is `taken`.
   */
  async askChain(tx: ChainTxRecord, minedNonce?: number): Promise<ChainVerdict> {
    const seen = await this.sighting(tx);
    if (seen !== 'unknown') return seen;
    const mined = minedNonce ?? (await this.node.minedNonce(tx.account));
    if (mined <= tx.nonce) return 'free';
    // Asked again after the count: it may have been mined or reached the node in between.
    const late = await this.sighting(tx);
    if (late !== 'unknown') return late;
    await this.settle(tx, { status: 'failed', reason: `nonce ${tx.nonce} was used by another transaction` });
    await this.repo.resyncNonce(this.chainId, tx.account, mined);
    this.nextNonces.delete(tx.account.toLowerCase());
    return 'taken';
  }

  /** True when the write's nonce was used by another transaction and the write is now recorded failed. */
  async settleIfNonceTaken(tx: ChainTxRecord, minedNonce?: number): Promise<boolean> {
    return (await this.askChain(tx, minedNonce)) === 'taken';
  }

  /** `settled` when a receipt settled the write, `known` when the node has it, `unknown` otherwise. */
  private async sighting(tx: ChainTxRecord): Promise<'settled' | 'known' | 'unknown'> {
    const receipt = await this.node.receipt(tx.txHash);
    if (receipt) {
      await this.settle(tx, {
        status: receipt.status === 'success' ? 'mined' : 'reverted',
        blockNumber: receipt.blockNumber,
      });
      return 'settled';
    }
    return (await this.node.lookup(tx.txHash)) === 'unknown' ? 'unknown' : 'known';
  }

  /**
   * Records a final outcome once and runs the handlers of the kind that take it in the same
   * transaction; without any, the outcome is one statement and needs none.
   */
  async settle(tx: RecordedTx, outcome: TxOutcome): Promise<boolean> {
    const handlers = this.handlersOf(tx.kind, outcome.status);
    if (!handlers.length) return this.repo.alone((sql) => this.repo.settle(sql, tx.id, outcome));
    return this.repo.transaction(async (sql) => {
      if (!(await this.repo.settle(sql, tx.id, outcome))) return false;
      for (const handler of handlers) await handler(sql, tx, outcome);
      return true;
    });
  }

  /**
   * Records many receipts at once (the reconciler's common case), in one statement. Writes whose
   * outcome a handler takes are settled one by one so each handler runs in the transaction of its write.
   */
  async settleReceipts(settled: readonly { tx: RecordedTx; outcome: Extract<TxOutcome, { blockNumber: bigint }> }[]) {
    const handled = (s: (typeof settled)[number]) => this.handlersOf(s.tx.kind, s.outcome.status).length > 0;
    const plain = settled.filter((s) => !handled(s));
    if (plain.length) {
      await this.repo.alone((sql) =>
        this.repo.settleReceipts(
          sql,
          plain.map((s) => ({ id: s.tx.id, status: s.outcome.status, blockNumber: s.outcome.blockNumber })),
        ),
      );
    }
    for (const s of settled) if (handled(s)) await this.settle(s.tx, s.outcome);
  }

  /**
   * A natural key first (one live write per effect, whoever asks); then the name the call site gave
   * the write under its request's Idempotency-Key, which a resumed request finds again whatever
   * order its writes come in; otherwise a fresh key. A named key of a run that did not resume
   * cannot have a record yet, so it is not looked up.
   */
  private keyOf(intent: TxIntent, run: IdempotentRun | undefined): { key: string; fresh: boolean } {
    if (intent.key) return { key: intent.key, fresh: false };
    const named = intent.auxiliary ? undefined : intent.write?.key;
    if (named && run) return { key: named, fresh: !run.resumed };
    return { key: `once:${randomUUID()}`, fresh: true };
  }

  private existing(found: ChainTxRecord, run: IdempotentRun | undefined): Submitted {
    if (run) run.effectStarted = true;
    return {
      txHash: found.txHash,
      recordId: found.id,
      existing: true,
      delivery: found.status === 'signed' ? 'pending' : 'accepted',
    };
  }

  private async record(
    intent: TxIntent,
    key: string,
    quote: TxQuote,
    hooks: SubmitHooks,
    run: IdempotentRun | undefined,
  ): Promise<Recorded> {
    const account = intent.account.toLowerCase();
    const recorded = await this.recorder.run(account, async () => {
      // Domain rows written with the record need a transaction; a plain write needs one statement.
      if (!hooks.record) {
        for (let tries = 0; tries < CAS_TRIES; tries++) {
          const done = await this.recordAtNextNonce(intent, key, quote, hooks, run);
          if (done) return done;
        }
        // Another process keeps taking this account's nonces: queue on its row lock instead.
      }
      return this.recordUnderLock(intent, key, quote, hooks, run);
    });
    if (run) {
      run.effectStarted = true;
      if (recorded.pending) run.pending = recorded.pending;
    }
    return recorded;
  }

  /**
   * Signs with the account's next nonce as this process last recorded it (read from the database
   * when it has none) and records the write in one statement that only succeeds if that nonce is
   * still the next: no transaction, one round trip. Undefined when another process took the nonce.
   */
  private async recordAtNextNonce(
    intent: TxIntent,
    key: string,
    quote: TxQuote,
    hooks: SubmitHooks,
    run: IdempotentRun | undefined,
  ): Promise<(Recorded & { pending: PendingAnswer | undefined }) | undefined> {
    const account = intent.account.toLowerCase();
    const chainPending = quote.pendingNonce ?? 0;
    const known = this.nextNonces.get(account);
    const nonce =
      known === undefined
        ? await this.repo.nextNonce(this.chainId, intent.account, chainPending)
        : Math.max(known, chainPending);
    const { tx, signed, pending, row } = await this.signed(intent, key, quote, hooks, run, nonce);
    const id = await this.repo.recordSigned(row, chainPending, run ? { recordId: run.recordId, pending } : undefined);
    if (id === null) {
      this.nextNonces.delete(account);
      return undefined;
    }
    this.nextNonces.set(account, nonce + 1);
    return { tx: { ...tx, id }, signed, pending };
  }

  /** Allocates the nonce under the account's row lock and records the write in that transaction. */
  private async recordUnderLock(
    intent: TxIntent,
    key: string,
    quote: TxQuote,
    hooks: SubmitHooks,
    run: IdempotentRun | undefined,
  ): Promise<Recorded & { pending: PendingAnswer | undefined }> {
    const account = intent.account.toLowerCase();
    const recorded = await this.repo.transaction(async (sql) => {
      const nonce = await this.repo.allocateNonce(sql, this.chainId, intent.account, quote.pendingNonce ?? 0);
      const { tx, signed, pending, row } = await this.signed(intent, key, quote, hooks, run, nonce);
      const id = await this.repo.insert(sql, row, run ? { recordId: run.recordId, pending } : undefined);
      await hooks.record?.(sql, signed.hash);
      return { tx: { ...tx, id }, signed, pending };
    });
    this.nextNonces.set(account, recorded.tx.nonce + 1);
    return recorded;
  }

  /** Signs the write with `nonce`: the row to record, the record as the pipeline keeps it, the pending answer. */
  private async signed(
    intent: TxIntent,
    key: string,
    quote: TxQuote,
    hooks: SubmitHooks,
    run: IdempotentRun | undefined,
    nonce: number,
  ) {
    const value = intent.value ?? 0n;
    const signed = await hooks.sign({
      chainId: this.chainId,
      account: intent.account,
      to: intent.to,
      data: intent.data,
      value,
      nonce,
      gas: quote.gas,
      fees: quote.fees,
    });
    const pending: PendingAnswer | undefined =
      run && hooks.result ? { status: run.successStatus, body: run.shape(hooks.result(signed.hash)) } : undefined;
    const row: NewChainTx = {
      chainId: this.chainId,
      key,
      kind: intent.kind,
      account: intent.account,
      to: intent.to,
      data: intent.data,
      value,
      gas: quote.gas,
      nonce,
      rawTx: signed.raw,
      txHash: signed.hash,
      effect: intent.effect ?? null,
      idempotencyRecordId: run?.recordId ?? null,
    };
    const tx: Omit<ChainTxRecord, 'id'> = {
      kind: intent.kind,
      key,
      account: intent.account,
      txHash: signed.hash,
      nonce,
      effect: intent.effect ?? null,
      status: 'signed',
      rawTx: signed.raw,
      broadcasts: 0,
      lastSentAt: new Date(this.clock.now()),
    };
    return { tx, signed, pending, row };
  }

  private async broadcastWithGapRetries(raw: Hex): Promise<BroadcastOutcome> {
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.node.broadcast(raw);
      if (outcome.kind !== 'nonce_gap' || attempt >= this.settings.gapRetries) return outcome;
      await sleep(this.settings.gapRetryDelayMs * (attempt + 1));
    }
  }
}
