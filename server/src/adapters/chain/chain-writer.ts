import {
  encodeFunctionData,
  keccak256,
  maxUint256,
  toHex,
  TransactionReceiptNotFoundError,
  type Abi,
  type Address,
  type EIP1193Provider,
  type Hash,
  type LocalAccount,
  type PublicClient,
} from 'viem';
import { DomainError } from '../../errors.js';
import type { ChainTxPipeline } from '../../platform/chain-tx/chain-tx.pipeline.js';
import type {
  SignedTx,
  WriteDebit,
  Submitted,
  SubmitHooks,
  TxFees,
  TxQuote,
  UnsignedTx,
} from '../../platform/chain-tx/chain-tx.types.js';
import { CollateralTokenAbi } from './artifacts/CollateralToken.js';
import type { WriteOptions } from './chain.port.js';
import { revertToAppError } from './revert-errors.js';

export interface WriterSettings {
  /** Below this native balance a managed account is topped up by `gasTopUp` before it writes. */
  readonly gasFloor: bigint;
  readonly gasTopUp: bigint;
  /** How long a write waits for a preparatory transaction (approval, top-up) to be mined. */
  readonly prerequisiteTimeoutMs: number;
}

/** A contract call as viem types it, loosely: the adapter's typed methods build these. */
export interface ContractCall {
  readonly address: Address;
  readonly abi: Abi;
  readonly functionName: string;
  readonly args: readonly unknown[];
}

/** What a write is, for the pipeline: its kind, natural key and expected effect. */
export interface WriteIntent {
  readonly kind: string;
  readonly key?: string | undefined;
  readonly effect?: Record<string, unknown>;
  readonly auxiliary?: boolean;
  /** What the write spends of the signer's tokens: reserved first, refused with a 4xx when unfunded. */
  readonly debit?: WriteDebit;
}

/** Gas above the estimate: state can move between the estimate and the block. */
const GAS_MARGIN_PERCENT = 25n;
/** Fees are quoted at most this often; they move slowly next to the margin in maxFeePerGas. */
const FEES_TTL_MS = 2_000;
/** How long an account with twice the gas floor is not looked at again. */
const FUNDED_TTL_MS = 2_000;
/**
 * How long the database's nonce count of an account this process wrote for is trusted without
 * asking the chain. Only a sender outside the pipeline can make it stale (nothing else holds a
 * managed key); a stale count costs one refused broadcast and a signing with the chain's count.
 */
const NONCE_CURRENT_MS = 30_000;
/** An allowance this large is an unlimited approval (OpenZeppelin never decreases maxUint256). */
const UNLIMITED = 2n ** 255n;

/**
 * Signs and sends through the chain transaction pipeline: each write is simulated (a revert is a
 * 4xx), quoted (gas, fees, pending nonce) outside any database transaction, then recorded,
 * signed and broadcast by the pipeline. Also the preparatory writes a managed account needs:
 * gas from the operator and the market's allowance.
 */
export class ChainWriter {
  private fees: { value: TxFees; at: number } | undefined;
  /** Accounts seen with at least twice the gas floor, until when: a write spends far less in that time. */
  private readonly funded = new Map<string, number>();
  /** (owner, token, spender) approved without limit: such an allowance never runs out. */
  private readonly approved = new Set<string>();
  /** Accounts this process wrote for through the pipeline, until when their database nonce is trusted. */
  private readonly nonceCurrent = new Map<string, number>();

  constructor(
    private readonly client: PublicClient,
    private readonly pipeline: ChainTxPipeline,
    readonly operator: LocalAccount,
    /** The embedded chain's provider, where gas is given with hardhat_setBalance; undefined on a real chain. */
    private readonly embedded: EIP1193Provider | undefined,
    private readonly settings: WriterSettings,
  ) {}

  /** Simulates a contract call as `account`, then records, signs and sends it. */
  async contract(
    account: LocalAccount,
    call: ContractCall,
    intent: WriteIntent,
    opts: WriteOptions = {},
  ): Promise<Hash> {
    const data = encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args });
    const submitted = await this.pipeline.submit(
      this.intentOf(intent, opts, { account: account.address, to: call.address, data }),
      this.hooks(account, opts, async (attempt) => {
        // The gas estimate is the simulation: a revert comes back decoded with the contract's ABI.
        // Against the next block, not the latest: an idle chain's latest block can be far behind
        // the clock, and time checks (end time, contest period) must see the time the tx will see.
        const [gas, fees, pendingNonce] = await Promise.all([
          this.client
            .estimateContractGas({ ...call, account: account.address, blockTag: 'pending' } as never)
            .catch((err: unknown) => {
              throw revertToAppError(err);
            }),
          this.currentFees(),
          this.pendingNonce(account.address, attempt),
        ]);
        return { gas: withMargin(gas), fees, pendingNonce };
      }),
    );
    this.noteWritten(account.address, submitted);
    return submitted.txHash;
  }

  /** Sends native value from the operator. */
  async transfer(to: Address, value: bigint, intent: WriteIntent, opts: WriteOptions = {}): Promise<Hash> {
    const submitted = await this.pipeline.submit(
      { ...this.intentOf(intent, opts, { account: this.operator.address, to, data: '0x' }), value },
      this.hooks(this.operator, opts, (attempt) => this.quote(this.operator.address, to, '0x', value, attempt)),
    );
    this.noteWritten(this.operator.address, submitted);
    return submitted.txHash;
  }

  /** Gives `to` native gas: hardhat_setBalance on the embedded chain, a transfer from the operator elsewhere. */
  async fundGas(to: Address, amount: bigint, intent: WriteIntent): Promise<void> {
    if (this.embedded) {
      const balance = await this.client.getBalance({ address: to });
      await this.embedded.request({
        method: 'hardhat_setBalance' as never,
        params: [to, toHex(balance + amount)] as never,
      });
      return;
    }
    await this.waitMined(await this.transfer(to, amount, intent));
  }

  /** Managed accounts pay gas; the operator tops them up when they run low. */
  async ensureGas(address: Address): Promise<void> {
    const who = address.toLowerCase();
    if (who === this.operator.address.toLowerCase() || (this.funded.get(who) ?? 0) > Date.now()) return;
    const balance = await this.client.getBalance({ address });
    if (balance >= 2n * this.settings.gasFloor) this.funded.set(who, Date.now() + FUNDED_TTL_MS);
    if (balance >= this.settings.gasFloor) return;
    const open = this.embedded
      ? null
      : await this.pipeline.findOpen('chain.gas_top_up', this.operator.address, address);
    if (open) {
      await this.waitMined(open.txHash);
      return;
    }
    await this.fundGas(address, this.settings.gasTopUp, {
      kind: 'chain.gas_top_up',
      auxiliary: true,
      effect: { to: address },
    });
  }

  /**
   * Approves `spender` once (unlimited) when the allowance does not cover `amount`. The approval
   * is keyed by (owner, token, spender): concurrent first writes of a wallet share one approval
   * instead of each sending its own, in this process and any other.
   */
  async ensureAllowance(owner: LocalAccount, token: Address, spender: Address, amount: bigint): Promise<void> {
    const id = `${owner.address}:${token}:${spender}`.toLowerCase();
    if (this.approved.has(id)) return;
    const allowance = await this.client.readContract({
      address: token,
      abi: CollateralTokenAbi,
      functionName: 'allowance',
      args: [owner.address, spender],
    });
    if (allowance >= UNLIMITED) this.approved.add(id);
    if (allowance >= amount) return;
    const hash = await this.contract(
      owner,
      { address: token, abi: CollateralTokenAbi, functionName: 'approve', args: [spender, maxUint256] },
      { kind: 'erc20.approve', key: `erc20.approve:${id}`, auxiliary: true, effect: { token, spender } },
    );
    await this.waitMined(hash);
  }

  /** Waits until a preparatory transaction is mined; a chain that is too slow is a 503 to retry. */
  async waitMined(first: Hash): Promise<void> {
    const deadline = Date.now() + this.settings.prerequisiteTimeoutMs;
    let hash = first;
    for (let delay = 20; ; delay = Math.min(delay * 2, 500)) {
      // A write whose nonce another sender took is signed again under its key: follow it, or a
      // waiter that found the first signing would wait for a hash that can never be mined.
      const replacement = await this.pipeline.replacementOf(hash);
      if (replacement) hash = replacement.txHash;
      try {
        const receipt = await this.client.getTransactionReceipt({ hash });
        if (receipt.status === 'success') return;
        throw new DomainError('CHAIN_REVERTED', `A preparatory transaction (${hash}) reverted on chain`, {
          details: { txHash: hash },
        });
      } catch (err) {
        if (!(err instanceof TransactionReceiptNotFoundError)) throw err;
      }
      if (Date.now() > deadline) {
        throw new DomainError(
          'CHAIN_UNAVAILABLE',
          'The chain has not mined a preparatory transaction yet; retry shortly',
          {
            details: { txHash: hash },
            retryAfterMs: 2_000,
          },
        );
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  private intentOf(
    intent: WriteIntent,
    opts: WriteOptions,
    call: { account: Address; to: Address; data: `0x${string}` },
  ) {
    const key = opts.key ?? intent.key;
    return {
      kind: intent.kind,
      ...call,
      ...(key ? { key } : {}),
      ...(opts.write ? { write: opts.write } : {}),
      ...(intent.effect ? { effect: intent.effect } : {}),
      ...(intent.auxiliary ? { auxiliary: true } : {}),
      ...(intent.debit ? { debit: intent.debit } : {}),
    };
  }

  private hooks(
    account: LocalAccount,
    opts: WriteOptions,
    prepare: (attempt: number) => Promise<TxQuote>,
  ): SubmitHooks {
    return {
      prepare,
      sign: (tx) => sign(account, tx),
      ...(opts.record ? { record: opts.record } : {}),
      ...(opts.result ? { result: opts.result } : {}),
    };
  }

  private async quote(
    from: Address,
    to: Address,
    data: `0x${string}`,
    value: bigint,
    attempt: number,
  ): Promise<TxQuote> {
    const [gas, fees, pendingNonce] = await Promise.all([
      this.client.estimateGas({ account: from, to, data, value, blockTag: 'pending' }).catch((err: unknown) => {
        throw revertToAppError(err);
      }),
      this.currentFees(),
      this.pendingNonce(from, attempt),
    ]);
    return { gas: withMargin(gas), fees, pendingNonce };
  }

  /** The chain's pending count, unless the database's is current (see NONCE_CURRENT_MS). */
  private async pendingNonce(address: Address, attempt: number): Promise<number | undefined> {
    if (attempt === 0 && (this.nonceCurrent.get(address.toLowerCase()) ?? 0) > Date.now()) return undefined;
    return this.client.getTransactionCount({ address, blockTag: 'pending' });
  }

  /** A write this process signed and a node took: the database's count for its account is current. */
  private noteWritten(address: Address, submitted: Submitted): void {
    const who = address.toLowerCase();
    if (!submitted.existing && submitted.delivery === 'accepted')
      this.nonceCurrent.set(who, Date.now() + NONCE_CURRENT_MS);
    else this.nonceCurrent.delete(who);
  }

  private async currentFees(): Promise<TxFees> {
    const now = Date.now();
    if (this.fees && now - this.fees.at < FEES_TTL_MS) return this.fees.value;
    const estimate = await this.client.estimateFeesPerGas();
    const value: TxFees =
      estimate.maxFeePerGas !== undefined
        ? { maxFeePerGas: estimate.maxFeePerGas, maxPriorityFeePerGas: estimate.maxPriorityFeePerGas }
        : { gasPrice: (estimate as unknown as { gasPrice: bigint }).gasPrice };
    this.fees = { value, at: now };
    return value;
  }
}

function withMargin(gas: bigint): bigint {
  return (gas * (100n + GAS_MARGIN_PERCENT)) / 100n;
}

async function sign(account: LocalAccount, tx: UnsignedTx): Promise<SignedTx> {
  if (!account.signTransaction) throw new Error(`account ${account.address} cannot sign transactions`);
  const fees =
    'gasPrice' in tx.fees
      ? { type: 'legacy' as const, gasPrice: tx.fees.gasPrice }
      : {
          type: 'eip1559' as const,
          maxFeePerGas: tx.fees.maxFeePerGas,
          maxPriorityFeePerGas: tx.fees.maxPriorityFeePerGas,
        };
  const raw = await account.signTransaction({
    chainId: tx.chainId,
    nonce: tx.nonce,
    gas: tx.gas,
    ...(tx.to ? { to: tx.to } : {}),
    data: tx.data,
    value: tx.value ?? 0n,
    ...fees,
  } as never);
  return { raw, hash: keccak256(raw) };
}
