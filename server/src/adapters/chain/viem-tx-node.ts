import {
  BaseError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Hex,
  type PublicClient,
} from 'viem';
import type { BroadcastOutcome, TxNode, TxReceipt, TxSighting } from '../../platform/chain-tx/chain-tx.types.js';
import { CollateralTokenAbi } from './artifacts/CollateralToken.js';

export interface TxNodeOptions {
  /** How long a broadcast may take before it counts as `unknown` (it may still land). */
  readonly broadcastTimeoutMs: number;
  /** Blocks below the head a receipt needs before it counts as mined. */
  readonly confirmations: number;
  /** The newest block that counts at all (the embedded chain's journaled head). */
  readonly finalHead?: () => bigint;
}

/** Every message of an error and its causes, lower case. */
function textOf(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let i = 0; e && i < 8; i++) {
    const x = e as { message?: unknown; details?: unknown; shortMessage?: unknown; cause?: unknown };
    for (const p of [x.shortMessage, x.details, x.message]) if (typeof p === 'string') parts.push(p);
    e = x.cause;
  }
  return parts.join(' | ').toLowerCase();
}

/**
 * What a failed `eth_sendRawTransaction` means. A node that answered with an error about the
 * nonce is classified by it; a node that did not answer (timeout, reset, 5xx from a proxy) may
 * still have the bytes, so that is `unknown`, never a failure.
 */
export function classifyBroadcastError(err: unknown): BroadcastOutcome {
  const text = textOf(err);
  const reason = text.slice(0, 300);
  if (/already known|known transaction|already imported|already in (the )?mempool/.test(text))
    return { kind: 'accepted' };
  if (/nonce too high|nonce gap|future nonce|can't be queued/.test(text) && !/nonce too low/.test(text)) {
    return { kind: 'nonce_gap', reason };
  }
  if (
    /nonce too low|nonce has already been used|oldnonce|replacement transaction underpriced|replacement fee too low/.test(
      text,
    )
  ) {
    return { kind: 'nonce_used', reason };
  }
  const name = (err as { name?: string })?.name ?? '';
  if (
    name === 'TimeoutError' ||
    name === 'HttpRequestError' ||
    /timed? ?out|fetch failed|econnreset|econnrefused|socket hang up|other side closed|network|terminated|aborted/.test(
      text,
    )
  ) {
    return { kind: 'unknown', reason };
  }
  if (err instanceof BaseError) return { kind: 'rejected', reason };
  return { kind: 'unknown', reason };
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error(`timed out after ${ms} ms`), { name: 'TimeoutError' })),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The pipeline's view of a chain, over viem. `broadcaster` sends with no retries of its own. */
export class ViemTxNode implements TxNode {
  constructor(
    readonly chainId: number,
    private readonly client: PublicClient,
    private readonly broadcaster: PublicClient,
    private readonly options: TxNodeOptions,
  ) {}

  async broadcast(raw: Hex): Promise<BroadcastOutcome> {
    try {
      await withTimeout(
        this.broadcaster.request({ method: 'eth_sendRawTransaction', params: [raw] }),
        this.options.broadcastTimeoutMs,
      );
      return { kind: 'accepted' };
    } catch (err) {
      return classifyBroadcastError(err);
    }
  }

  async receipt(hash: Hex): Promise<TxReceipt | null> {
    let receipt;
    try {
      receipt = await this.client.getTransactionReceipt({ hash });
    } catch (err) {
      if (err instanceof TransactionReceiptNotFoundError) return null;
      throw err;
    }
    const final = await this.finalBlock();
    if (final !== 'latest' && receipt.blockNumber > final) return null;
    return { status: receipt.status, blockNumber: receipt.blockNumber };
  }

  async lookup(hash: Hex): Promise<TxSighting> {
    try {
      const tx = await this.client.getTransaction({ hash });
      return tx.blockNumber === null ? 'pending' : 'mined';
    } catch (err) {
      if (err instanceof TransactionNotFoundError) return 'unknown';
      throw err;
    }
  }

  async minedNonce(account: Hex): Promise<number> {
    const final = await this.finalBlock();
    if (final === 'latest') return this.client.getTransactionCount({ address: account, blockTag: 'latest' });
    return this.client.getTransactionCount({ address: account, blockNumber: final });
  }

  /** The newest block that counts: below the journaled head and `confirmations` deep; 'latest' when nothing limits it. */
  private async finalBlock(): Promise<bigint | 'latest'> {
    let final: bigint | undefined = this.options.finalHead?.();
    if (this.options.confirmations > 0) {
      const head = await this.client.getBlockNumber({ cacheTime: 0 });
      const deep = head - BigInt(this.options.confirmations);
      const safe = deep < 0n ? 0n : deep;
      final = final === undefined || safe < final ? safe : final;
    }
    return final ?? 'latest';
  }

  async funds(token: Hex, account: Hex, maxAgeMs: number): Promise<{ balance: bigint; minedNonce: number }> {
    // One block for both reads: a write is in the balance exactly when its nonce is below the count.
    // viem keeps the last head any caller read (and shares one in flight).
    const blockNumber = await this.client.getBlockNumber({ cacheTime: maxAgeMs });
    const [balance, minedNonce] = await Promise.all([
      this.client.readContract({
        address: token,
        abi: CollateralTokenAbi,
        functionName: 'balanceOf',
        args: [account],
        blockNumber,
      }),
      this.client.getTransactionCount({ address: account, blockNumber }),
    ]);
    return { balance, minedNonce };
  }
}
