import { keccak256, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import type { SqlExec } from '../db/sql.js';
import { ChainTxPipeline } from './chain-tx.pipeline.js';
import { ChainTxReconciler } from './chain-tx.reconciler.js';
import type { IdempotentRun } from '../idempotency/idempotent-run.js';
import { DuplicateWriteNameError, operationContext } from '../operation.context.js';
import type { ChainTxRecord, ChainTxRepository, NewChainTx } from './chain-tx.repository.js';
import type { FundsRepository } from './funds.repository.js';
import { ManualClock, systemClock } from '../clock.js';
import type {
  BroadcastOutcome,
  Hex,
  SubmitHooks,
  TxNode,
  TxOutcome,
  TxReceipt,
  TxSighting,
  UnsignedTx,
} from './chain-tx.types.js';

const logger = createLogger('silent');
const ACCOUNT: Hex = '0x00000000000000000000000000000000000000aa';
const TOKEN: Hex = '0x00000000000000000000000000000000000000bb';

interface Row extends ChainTxRecord {
  status: ChainTxRecord['status'];
  lastSentAt: Date;
  broadcasts: number;
  reason?: string;
}

/** chain_txs and chain_accounts in memory: the statements the pipeline runs, nothing more. */
class MemoryTxRepository {
  readonly rows: Row[] = [];
  private next = 0;

  byKey(key: string) {
    return Promise.resolve(
      this.rows.find((r) => r.key === key && r.status !== 'failed' && r.status !== 'reverted') ?? null,
    );
  }
  revertedByKey(key: string) {
    return Promise.resolve(this.rows.find((r) => r.key === key && r.status === 'reverted') ?? null);
  }
  nextNonce(_chain: number, _account: Hex, pending: number) {
    this.next = Math.max(this.next, pending);
    return Promise.resolve(this.next);
  }
  recordSigned(tx: NewChainTx, pending: number) {
    if (Math.max(this.next, pending) !== tx.nonce) return Promise.resolve(null);
    this.next = tx.nonce + 1;
    const id = String(this.rows.length + 1);
    this.rows.push({
      id,
      kind: tx.kind,
      key: tx.key,
      account: tx.account,
      txHash: tx.txHash,
      nonce: tx.nonce,
      effect: tx.effect,
      status: 'signed',
      rawTx: tx.rawTx,
      broadcasts: 0,
      lastSentAt: new Date(0),
    });
    return Promise.resolve(id);
  }
  resyncNonce(_chain: number, _account: Hex, used: number) {
    this.next = Math.max(this.next, used);
    return Promise.resolve();
  }
  noteBroadcast(id: string, accepted: boolean) {
    const row = this.rows.find((r) => r.id === id);
    if (row) row.broadcasts++;
    if (row && accepted && row.status === 'signed') row.status = 'broadcast';
    return Promise.resolve();
  }
  transaction<T>(fn: (sql: SqlExec) => Promise<T>) {
    return fn(() => Promise.resolve([]));
  }
  alone<T>(fn: (sql: SqlExec) => Promise<T>) {
    return fn(() => Promise.resolve([]));
  }
  settle(_sql: SqlExec, id: string, outcome: TxOutcome) {
    const row = this.rows.find((r) => r.id === id);
    if (!row || (row.status !== 'signed' && row.status !== 'broadcast')) return Promise.resolve(false);
    row.status = outcome.status;
    if (outcome.status === 'failed') row.reason = outcome.reason;
    return Promise.resolve(true);
  }
  settleReceipts(_sql: SqlExec, settled: { id: string; status: 'mined' | 'reverted' }[]) {
    for (const s of settled) {
      const row = this.rows.find((r) => r.id === s.id);
      if (row) row.status = s.status;
    }
    return Promise.resolve();
  }
  open() {
    return Promise.resolve(this.rows.filter((r) => r.status === 'signed' || r.status === 'broadcast'));
  }
}

/**
 * A node whose answers the test sets: what `eth_sendRawTransaction` answers, which transactions
 * it has mined (final or not) or holds pending, and how many nonces of the account are used.
 */
class FakeNode implements TxNode {
  readonly chainId = 31337;
  readonly sent: Hex[] = [];
  answer: (raw: Hex) => BroadcastOutcome = () => ({ kind: 'accepted' });
  /** Mined and final: receipts are returned. */
  readonly final = new Map<Hex, TxReceipt>();
  /** Known to the node but without a final receipt (pending, or mined above the final head). */
  readonly known = new Map<Hex, TxSighting>();
  usedNonces = 0;

  broadcast(raw: Hex) {
    this.sent.push(raw);
    return Promise.resolve(this.answer(raw));
  }
  receipt(hash: Hex) {
    return Promise.resolve(this.final.get(hash) ?? null);
  }
  lookup(hash: Hex) {
    if (this.final.has(hash)) return Promise.resolve<TxSighting>('mined');
    return Promise.resolve(this.known.get(hash) ?? 'unknown');
  }
  minedNonce() {
    return Promise.resolve(this.usedNonces);
  }
  /** The wallet's balance at the block a read may be as old as (`recent`) and at the newest (`newest`). */
  wallet: { recent: bigint; newest: bigint } | undefined;
  /** The `maxAgeMs` of each funds read. */
  readonly fundsReads: number[] = [];
  funds(_token: Hex, _account: Hex, maxAgeMs: number): Promise<{ balance: bigint; minedNonce: number }> {
    if (!this.wallet) return Promise.reject(new Error('these writes spend nothing: no funds are read'));
    this.fundsReads.push(maxAgeMs);
    return Promise.resolve({ balance: maxAgeMs > 0 ? this.wallet.recent : this.wallet.newest, minedNonce: 0 });
  }
}

/** Signs by hashing what it signs: distinct bytes per nonce, a hash that is the bytes' keccak. */
function hooks(signings: UnsignedTx[]): SubmitHooks {
  return {
    prepare: () => Promise.resolve({ gas: 50_000n, fees: { gasPrice: 1n }, pendingNonce: undefined }),
    sign: (tx) => {
      signings.push(tx);
      const raw = toHex(`${tx.account}:${tx.nonce}:${tx.data}`);
      return Promise.resolve({ raw, hash: keccak256(raw) });
    },
  };
}

/** A ledger with nothing in flight: a debit is reserved when the snapshot's balance covers it. */
const emptyLedger: Pick<FundsRepository, 'reserve' | 'release' | 'purge'> = {
  reserve: (debit, snapshot) =>
    Promise.resolve(
      snapshot.balance >= debit.amount ? { ok: true } : { ok: false, balance: snapshot.balance, held: 0n },
    ),
  release: () => Promise.resolve(),
  purge: () => Promise.resolve(0),
};

function setup() {
  const repo = new MemoryTxRepository();
  const node = new FakeNode();
  const pipeline = new ChainTxPipeline(
    repo as unknown as ChainTxRepository,
    emptyLedger as FundsRepository,
    node,
    logger,
    systemClock,
    { gapRetries: 0 },
  );
  return { repo, node, pipeline };
}

const mint = { kind: 'collateral.mint', key: 'mint:500', account: ACCOUNT, to: TOKEN, data: '0x40c10f19' as Hex };

describe('the pipeline after a broadcast that was not accepted', () => {
  it('never signs again when the send errored but the node has the transaction, whatever the error said', async () => {
    for (const [said, has] of [
      [{ kind: 'rejected', reason: 'VM Exception while processing transaction: reverted' }, 'mined'],
      [{ kind: 'nonce_used', reason: 'nonce too low' }, 'mined'],
      [{ kind: 'unknown', reason: 'socket hang up' }, 'pending'],
    ] as const) {
      const { repo, node, pipeline } = setup();
      node.answer = (raw) => {
        // The node executed it (mined above the final head, or pending) and answered with an error.
        node.known.set(keccak256(raw), has);
        node.usedNonces = 1;
        return said;
      };
      const signings: UnsignedTx[] = [];
      const submitted = await pipeline.submit(mint, hooks(signings));
      expect(signings).toHaveLength(1);
      expect(submitted.delivery).toBe('pending');
      expect(repo.rows.map((r) => r.status)).toEqual(['broadcast']);

      // The reconciler, with the block still above the final head, leaves it be; once final, settles it.
      const reconciler = new ChainTxReconciler(
        repo as unknown as ChainTxRepository,
        pipeline,
        logger,
        {
          rebroadcastAfterMs: 0,
          batch: 100,
        },
        systemClock,
      );
      await reconciler.runOnce();
      expect(node.sent).toHaveLength(1);
      expect(repo.rows.map((r) => r.status)).toEqual(['broadcast']);
      node.final.set(submitted.txHash, { status: 'success', blockNumber: 7n });
      await reconciler.runOnce();
      expect(repo.rows.map((r) => r.status)).toEqual(['mined']);
      expect(signings).toHaveLength(1);
    }
  });

  it('settles a send that errored for a transaction that reverted on chain, and sends nothing more', async () => {
    const { repo, node, pipeline } = setup();
    node.answer = (raw) => {
      node.final.set(keccak256(raw), { status: 'reverted', blockNumber: 3n });
      node.usedNonces = 1;
      return { kind: 'rejected', reason: 'execution reverted' };
    };
    const signings: UnsignedTx[] = [];
    await pipeline.submit(mint, hooks(signings));
    expect(signings).toHaveLength(1);
    expect(node.sent).toHaveLength(1);
    expect(repo.rows.map((r) => r.status)).toEqual(['reverted']);
  });

  it('keeps a write whose nonce is still free open for the same bytes, sent again by the reconciler', async () => {
    const { repo, node, pipeline } = setup();
    node.answer = () => ({ kind: 'unknown', reason: 'connection refused' });
    const signings: UnsignedTx[] = [];
    const submitted = await pipeline.submit(mint, hooks(signings));
    expect(submitted.delivery).toBe('pending');
    expect(repo.rows.map((r) => r.status)).toEqual(['signed']);
    node.answer = () => ({ kind: 'accepted' });
    const reconciler = new ChainTxReconciler(
      repo as unknown as ChainTxRepository,
      pipeline,
      logger,
      {
        rebroadcastAfterMs: 0,
        batch: 100,
      },
      systemClock,
    );
    await reconciler.runOnce();
    expect(node.sent).toEqual([node.sent[0], node.sent[0]]);
    expect(signings).toHaveLength(1);
  });

  it('signs again once, under the same key, when another transaction took the nonce', async () => {
    const { repo, node, pipeline } = setup();
    node.answer = (raw) => {
      if (node.sent.length === 1) {
        // Someone else's transaction used nonce 0; this one is unknown to the node.
        node.usedNonces = 1;
        return { kind: 'nonce_used', reason: 'nonce too low' };
      }
      node.known.set(keccak256(raw), 'pending');
      return { kind: 'accepted' };
    };
    const signings: UnsignedTx[] = [];
    const submitted = await pipeline.submit(mint, hooks(signings));
    expect(signings.map((s) => s.nonce)).toEqual([0, 1]);
    expect(submitted.delivery).toBe('accepted');
    expect(repo.rows.map((r) => ({ key: r.key, nonce: r.nonce, status: r.status, reason: r.reason }))).toEqual([
      { key: 'mint:500', nonce: 0, status: 'failed', reason: 'nonce 0 was used by another transaction' },
      { key: 'mint:500', nonce: 1, status: 'signed', reason: undefined },
    ]);
  });
});

describe('the funds reservation of a write that spends', () => {
  const stake = {
    ...mint,
    key: 'bet:1',
    debit: { token: TOKEN, amount: 50n, refusal: 'INSUFFICIENT_CREDITS' },
  } as const;

  it('is checked at a head up to a second old, and reads the chain no further when that covers it', async () => {
    const { node, pipeline } = setup();
    node.wallet = { recent: 80n, newest: 80n };
    await pipeline.submit(stake, hooks([]));
    expect(node.fundsReads).toEqual([1_000]);
    expect(node.sent).toHaveLength(1);
  });

  it('asks again at the newest block before refusing: a deposit since that head counts', async () => {
    const { node, pipeline } = setup();
    node.wallet = { recent: 10n, newest: 80n };
    await pipeline.submit(stake, hooks([]));
    expect(node.fundsReads).toEqual([1_000, 0]);
    expect(node.sent).toHaveLength(1);
  });

  it('refuses with the write’s code when the newest block does not cover it either, and signs nothing', async () => {
    const { node, pipeline } = setup();
    node.wallet = { recent: 10n, newest: 20n };
    const signings: UnsignedTx[] = [];
    await expect(pipeline.submit(stake, hooks(signings))).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { balance: '20', available: '20', required: '50' },
    });
    expect(node.fundsReads).toEqual([1_000, 0]);
    expect(signings).toEqual([]);
    expect(node.sent).toEqual([]);
  });
});

describe('a request resumed after its write reverted', () => {
  const run = (resumed: boolean): IdempotentRun => ({
    recordId: '7',
    successStatus: 201,
    shape: (b) => b,
    resumed,
    names: new Set(),
    scoped: new Map(),
    effectStarted: false,
    pending: undefined,
  });
  const bet = { kind: 'markets.buy', account: ACCOUNT, to: TOKEN, data: '0xd96a094a' as Hex };

  it('answers with the reverted write instead of signing it again', async () => {
    const { repo, node, pipeline } = setup();
    const signings: UnsignedTx[] = [];
    const ctx = operationContext({ requestId: 'r1', clock: systemClock, run: run(false) });
    const first = await pipeline.submit({ ...bet, write: ctx.writeKey('buy') }, hooks(signings));
    node.final.set(first.txHash, { status: 'reverted', blockNumber: 3n });
    node.usedNonces = 1;
    await new ChainTxReconciler(
      repo as unknown as ChainTxRepository,
      pipeline,
      logger,
      {
        rebroadcastAfterMs: 0,
        batch: 10,
      },
      systemClock,
    ).runOnce();
    expect(repo.rows.map((r) => r.status)).toEqual(['reverted']);

    // The same request taken over after its process died: the revert is its outcome.
    const again = operationContext({ requestId: 'r2', clock: systemClock, run: run(true) });
    const resumed = await pipeline.submit({ ...bet, write: again.writeKey('buy') }, hooks(signings));
    expect(resumed).toMatchObject({ txHash: first.txHash, existing: true });
    expect(signings).toHaveLength(1);
    expect(node.sent).toHaveLength(1);
  });
});

describe('named writes of a request', () => {
  const run = (resumed: boolean): IdempotentRun => ({
    recordId: '9',
    successStatus: 201,
    shape: (b) => b,
    resumed,
    names: new Set(),
    scoped: new Map(),
    effectStarted: false,
    pending: undefined,
  });
  const write = (data: Hex) => ({ kind: 'markets.add_member', account: ACCOUNT, to: TOKEN, data });

  it('finds each recorded write by its name when the resumed request issues them in another order', async () => {
    const { repo, pipeline } = setup();
    const signings: UnsignedTx[] = [];
    const first = operationContext({ requestId: 'r1', clock: systemClock, run: run(false) });
    const alice = await pipeline.submit({ ...write('0xa11ce0'), write: first.writeKey('add:alice') }, hooks(signings));
    const bob = await pipeline.submit({ ...write('0xb0b000'), write: first.writeKey('add:bob') }, hooks(signings));
    expect(first.run?.effectStarted).toBe(true);

    // The process died before answering; the code now adds bob first.
    const resumed = operationContext({ requestId: 'r2', clock: systemClock, run: run(true) });
    const bobAgain = await pipeline.submit(
      { ...write('0xb0b000'), write: resumed.writeKey('add:bob') },
      hooks(signings),
    );
    const aliceAgain = await pipeline.submit(
      { ...write('0xa11ce0'), write: resumed.writeKey('add:alice') },
      hooks(signings),
    );
    expect(bobAgain).toMatchObject({ txHash: bob.txHash, existing: true });
    expect(aliceAgain).toMatchObject({ txHash: alice.txHash, existing: true });
    expect(signings).toHaveLength(2);
    expect(repo.rows.map((r) => r.key)).toEqual(['idem:9:w:add:alice', 'idem:9:w:add:bob']);
  });

  it('refuses a second write of the same name before anything is signed', async () => {
    const { repo, pipeline } = setup();
    const signings: UnsignedTx[] = [];
    const ctx = operationContext({ requestId: 'r1', clock: systemClock, run: run(false) });
    await pipeline.submit({ ...write('0xa11ce0'), write: ctx.writeKey('add-member') }, hooks(signings));
    expect(() => ctx.writeKey('add-member')).toThrow(DuplicateWriteNameError);
    expect(signings).toHaveLength(1);
    expect(repo.rows).toHaveLength(1);
  });

  it('keys a write outside an idempotent request afresh each time', async () => {
    const { repo, pipeline } = setup();
    const signings: UnsignedTx[] = [];
    for (const id of ['a', 'b']) {
      const ctx = operationContext({ requestId: id, clock: systemClock });
      await pipeline.submit({ ...write('0xa11ce0'), write: ctx.writeKey('add-member') }, hooks(signings));
    }
    expect(signings).toHaveLength(2);
    expect(repo.rows.every((r) => r.key?.startsWith('once:'))).toBe(true);
  });
});

describe('the reconciler', () => {
  it('asks for the receipts of a page of open writes together, so the node gets them as one batch', async () => {
    const { repo, node, pipeline } = setup();
    const signings: UnsignedTx[] = [];
    const hashes: Hex[] = [];
    for (let i = 0; i < 5; i++) {
      const data = `0x40c10f1${i}` as Hex;
      hashes.push((await pipeline.submit({ ...mint, key: `mint:${i}`, data }, hooks(signings))).txHash);
    }
    for (const [i, hash] of hashes.entries()) node.final.set(hash, { status: 'success', blockNumber: BigInt(10 + i) });
    // Receipts answered on the next turn of the event loop: only calls made before then overlap.
    let asking = 0;
    let mostAtOnce = 0;
    node.receipt = async (hash: Hex) => {
      asking++;
      mostAtOnce = Math.max(mostAtOnce, asking);
      await new Promise((resolve) => setImmediate(resolve));
      asking--;
      return node.final.get(hash) ?? null;
    };
    await new ChainTxReconciler(
      repo as unknown as ChainTxRepository,
      pipeline,
      logger,
      { rebroadcastAfterMs: 0, batch: 10 },
      systemClock,
    ).runOnce();
    expect(mostAtOnce).toBe(5);
    expect(repo.rows.map((r) => r.status)).toEqual(['mined', 'mined', 'mined', 'mined', 'mined']);
  });

  /** A node that takes what it is sent and holds it pending. */
  const accepting = (node: FakeNode) => (raw: Hex) => {
    node.known.set(keccak256(raw), 'pending');
    return { kind: 'accepted' } as const;
  };
  const reconcilerAt = (repo: MemoryTxRepository, pipeline: ChainTxPipeline, clock: ManualClock) =>
    new ChainTxReconciler(
      repo as unknown as ChainTxRepository,
      pipeline,
      logger,
      { rebroadcastAfterMs: 60_000, batch: 10 },
      clock,
    );

  it('sends again within a second the write its account’s next nonce waits on, then the writes behind it', async () => {
    const { repo, node, pipeline } = setup();
    const signings: UnsignedTx[] = [];
    // Nonce 0's send was lost on the way (the node never saw it); the node refused nonce 1 for the gap.
    node.answer = () => ({ kind: 'unknown', reason: 'socket hang up' });
    await pipeline.submit({ ...mint, key: 'mint:a' }, hooks(signings));
    node.answer = () => ({ kind: 'nonce_gap', reason: 'nonce too high' });
    await pipeline.submit({ ...mint, key: 'mint:b' }, hooks(signings));
    expect(repo.rows.map((r) => [r.nonce, r.status])).toEqual([
      [0, 'signed'],
      [1, 'signed'],
    ]);
    const clock = new ManualClock();
    for (const row of repo.rows) row.lastSentAt = new Date(clock.now());
    node.answer = accepting(node);
    const sentBefore = node.sent.length;
    const reconciler = reconcilerAt(repo, pipeline, clock);

    clock.advance(999);
    expect((await reconciler.runOnce()).rebroadcast).toBe(0);
    clock.advance(1);
    // Not the minute of `rebroadcastAfterMs`: nonce 0 holds up the account, and nonce 1 is next once it is sent.
    expect((await reconciler.runOnce()).rebroadcast).toBe(2);
    expect(node.sent.slice(sentBefore)).toEqual(repo.rows.map((r) => r.rawTx));
    expect(signings).toHaveLength(2);
  });

  it('waits twice as long after each send of that write the node refused, up to `rebroadcastAfterMs`', async () => {
    const { repo, node, pipeline } = setup();
    const signings: UnsignedTx[] = [];
    // Refused outright, every time (the account cannot pay for gas, say).
    node.answer = () => ({ kind: 'rejected', reason: 'insufficient funds for gas * price + value' });
    await pipeline.submit(mint, hooks(signings));
    const row = repo.rows[0] as Row;
    const clock = new ManualClock();
    const reconciler = reconcilerAt(repo, pipeline, clock);
    const sentAfter: number[] = [];
    for (let waited = 0; sentAfter.length < 4;) {
      // The node's answer is noted with the send's time, as the repository's `now()` does.
      row.lastSentAt = new Date(clock.now() - waited);
      clock.advance(1_000);
      waited += 1_000;
      if ((await reconciler.runOnce()).rebroadcast) {
        sentAfter.push(waited);
        waited = 0;
      }
    }
    expect(row.broadcasts).toBe(5);
    expect(sentAfter).toEqual([1_000, 2_000, 4_000, 8_000]);
  });

  it('leaves a write above a nonce it knows nothing of to `rebroadcastAfterMs`', async () => {
    const { repo, node, pipeline } = setup();
    const signings: UnsignedTx[] = [];
    // The node counts nonce 0 as pending elsewhere (another system's transaction): this write takes 1.
    const after = hooks(signings);
    const write = {
      ...after,
      prepare: () => Promise.resolve({ gas: 50_000n, fees: { gasPrice: 1n }, pendingNonce: 1 }),
    };
    node.answer = () => ({ kind: 'nonce_gap', reason: 'nonce too high' });
    await pipeline.submit(mint, write);
    expect(repo.rows.map((r) => [r.nonce, r.status])).toEqual([[1, 'signed']]);
    const clock = new ManualClock();
    for (const row of repo.rows) row.lastSentAt = new Date(clock.now());
    node.answer = accepting(node);
    const reconciler = reconcilerAt(repo, pipeline, clock);

    clock.advance(59_999);
    expect((await reconciler.runOnce()).rebroadcast).toBe(0);
    clock.advance(1);
    expect((await reconciler.runOnce()).rebroadcast).toBe(1);
  });
});
