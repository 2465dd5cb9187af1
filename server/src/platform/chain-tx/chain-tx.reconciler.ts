import type { Logger } from '../../logger.js';
import type { ChainTxPipeline } from './chain-tx.pipeline.js';
import type { ChainTxRepository, OpenCursor } from './chain-tx.repository.js';
import type { Clock } from '../clock.js';

/**
 * How soon an open write at the nonce its account needs next, which the node does not have, is
 * sent again after its last send (every later write of the account waits on it): doubled by each
 * further send the node did not take, never later than `rebroadcastAfterMs`.
 */
const BLOCKING_AFTER_MS = 1_000;

/** How long a funds reservation is kept once no open write needs it. */
const RESERVATIONS_KEPT_MS = 60 * 60 * 1000;

export interface ReconcilerSettings {
  /** An open write not handed to a node for this long is sent again. */
  readonly rebroadcastAfterMs: number;
  /** Open writes looked at per run. */
  readonly batch: number;
}

export interface ReconcileRun {
  readonly open: number;
  readonly mined: number;
  readonly reverted: number;
  readonly failed: number;
  readonly rebroadcast: number;
}

/**
 * Finishes every write that was recorded but is not final, with the chain as the source of
 * truth: a receipt settles it (mined or reverted); a node that has the transaction (pending, or
 * mined above the final head) leaves it be; a nonce the account has mined past at the final head
 * while no node knows this hash means another transaction took it, so it fails with that reason;
 * anything else is sent again, the same signed bytes, in nonce order. Runs in the background at
 * boot and on the job engine; running it twice at once is harmless (settling moves a row once;
 * the same bytes can be mined once).
 */
export class ChainTxReconciler {
  constructor(
    private readonly repo: ChainTxRepository,
    private readonly pipeline: ChainTxPipeline,
    private readonly logger: Logger,
    private readonly settings: ReconcilerSettings,
    private readonly clock: Clock,
  ) {}

  /** Open writes a boot recovery has not reached yet; null when it is not running. */
  private recovering: { left: number } | null = null;
  private stopped = false;

  async runOnce(after?: OpenCursor): Promise<ReconcileRun> {
    return (await this.page(after)).run;
  }

  /**
   * Goes through every open write once, a page of `batch` at a time, in the background of a
   * starting instance: a restart with hundreds of open writes serves at once instead of waiting
   * on the node for each of them. A request whose write is still open gets the pending answer its
   * idempotency key stores; the reconciler job carries on from there.
   */
  async recover(): Promise<ReconcileRun> {
    const total = { open: 0, mined: 0, reverted: 0, failed: 0, rebroadcast: 0 };
    this.recovering = { left: await this.repo.openCount(this.pipeline.chainId) };
    try {
      let after: OpenCursor | undefined;
      let delay = 500;
      while (!this.stopped) {
        let paged;
        try {
          paged = await this.page(after);
        } catch (err) {
          // The node or the database is away: the same page again later. Recovery is not done
          // until every open write has been checked, and readiness keeps saying so.
          this.logger.warn({ err }, 'boot recovery of chain writes: a page failed; retrying');
          await new Promise((r) => setTimeout(r, delay).unref());
          delay = Math.min(delay * 2, 30_000);
          continue;
        }
        delay = 500;
        const { run, last } = paged;
        for (const k of Object.keys(total) as (keyof ReconcileRun)[]) total[k] += run[k];
        this.recovering.left = Math.max(0, this.recovering.left - run.open);
        if (!last || run.open < this.settings.batch) break;
        after = { account: last.account, nonce: last.nonce, id: last.id };
        // Let requests in between pages.
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      this.recovering = null;
    }
    this.logger.info(total, 'boot recovery of chain writes finished');
    return total;
  }

  /** How many open writes boot recovery has still to look at; null once it is done (or never ran). */
  recoveryLeft(): number | null {
    return this.recovering ? this.recovering.left : null;
  }

  /** Stops a running recovery after the write it is on (shutdown). */
  stop(): void {
    this.stopped = true;
  }

  private async page(after?: OpenCursor) {
    const node = this.pipeline.node;
    const open = await this.repo.open(this.pipeline.chainId, this.settings.batch, after);
    const minedNonces = new Map<string, number>();
    // Per account, the lowest nonce this page knows the node still lacks: the mined count, moved
    // past each of the account's writes (in nonce order) that the node has or has just taken.
    const frontier = new Map<string, number>();
    const reached = (account: string, nonce: number) =>
      frontier.set(account, Math.max(frontier.get(account) ?? 0, nonce + 1));
    const counts = { open: open.length, mined: 0, reverted: 0, failed: 0, rebroadcast: 0 };
    const receipts: Parameters<ChainTxPipeline['settleReceipts']>[0][number][] = [];
    // Asked for all at once: reads made together go to the node as one JSON-RPC batch
    // (CHAIN_RPC_BATCH_SIZE), where one at a time made a request per open write.
    const found = await Promise.all(open.map((tx) => node.receipt(tx.txHash)));
    for (const [i, tx] of open.entries()) {
      if (this.stopped) break;
      const receipt = found[i];
      if (receipt) {
        const status = receipt.status === 'success' ? 'mined' : 'reverted';
        receipts.push({ tx, outcome: { status, blockNumber: receipt.blockNumber } });
        counts[status]++;
        continue;
      }
      const account = tx.account.toLowerCase();
      // The node has it (pending, or mined above the final head): on its way, nothing to send.
      if ((await node.lookup(tx.txHash)) !== 'unknown') {
        reached(account, tx.nonce);
        continue;
      }
      let mined = minedNonces.get(account);
      if (mined === undefined) {
        mined = await node.minedNonce(tx.account);
        minedNonces.set(account, mined);
      }
      if (mined > tx.nonce) {
        if (await this.pipeline.settleIfNonceTaken(tx, mined)) {
          counts.failed++;
          this.logger.warn({ txHash: tx.txHash, kind: tx.kind, nonce: tx.nonce }, 'chain write failed: nonce taken');
        }
        continue;
      }
      // A write at the very nonce the node needs next holds up every later write of its account
      // (a node that mines as it receives refuses the nonces above a gap): it goes again after a
      // short grace, the others after `rebroadcastAfterMs`. Sending the same bytes twice is harmless.
      const blocking = tx.nonce === Math.max(mined, frontier.get(account) ?? 0);
      const rebroadcastAfter = this.settings.rebroadcastAfterMs;
      // Each send the node did not take doubles the grace (a write it refuses outright, say for
      // want of gas, is not sent every run), up to `rebroadcastAfterMs`.
      const grace = BLOCKING_AFTER_MS * 2 ** Math.max(0, tx.broadcasts - 1);
      const wait = blocking ? Math.min(grace, rebroadcastAfter) : rebroadcastAfter;
      if (this.clock.now() - tx.lastSentAt.getTime() < wait) continue;
      counts.rebroadcast++;
      const sent = await this.pipeline.deliver(tx, true);
      if (sent === 'accepted' || sent === 'settled') reached(account, tx.nonce);
    }
    await this.pipeline.settleReceipts(receipts);
    // Reservations of writes long mined or given up hold nothing: keep the ledger short.
    await this.pipeline.purgeReservations(RESERVATIONS_KEPT_MS);
    if (counts.reverted + counts.failed + counts.rebroadcast > 0) {
      this.logger.info(counts, 'reconciled chain writes');
    }
    return { run: counts, last: open.at(-1) };
  }
}
