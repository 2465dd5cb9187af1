import { randomUUID } from 'node:crypto';
import type { DailyLimit, PreValidateResponse, Withdrawal, WithdrawRequest } from '@duelkit/contract';
import { getAddress, type Address, type LocalAccount } from 'viem';
import type { BridgePort } from '../../adapters/bridge/bridge.port.js';
import type { ChainPort } from '../../adapters/chain/chain.port.js';
import type { Clock } from '../../platform/clock.js';
import type { OperationContext, WriteKey } from '../../platform/operation-context.js';
import { DomainError, isDomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import {
  WINDOW_MS,
  type LimitWindow,
  type WithdrawalRecord,
  type WithdrawalRepository,
} from './withdrawal.repository.js';

type Stack = 'usdc' | 'credits';

/** How long a reserved withdrawal may wait for its own request to send it before the sweep does. */
const STRANDED_AFTER_MS = 60_000;

/** The caller of a withdrawal: a signed-in user. */
export interface Withdrawer {
  readonly userId: string;
  readonly address: string;
  readonly eoaAddress: string;
}

export interface WithdrawalDeps {
  readonly repo: WithdrawalRepository;
  readonly chain: Pick<ChainPort, 'collateralBalance' | 'transfer' | 'transactionStatus'>;
  readonly signers: { forUser(userId: string): Promise<LocalAccount> };
  /** The usdc bridge; undefined where none is configured (usdc withdrawals are refused). */
  readonly bridge: BridgePort | undefined;
  readonly clock: Clock;
  readonly dailyLimit: Readonly<Record<Stack, bigint>>;
  readonly logger: Logger;
}

interface Reason {
  code: string;
  field: string | null;
  message: string;
}

/**
 * Withdrawals out of managed wallets (§4.4, docs/money.md): validated, counted against a rolling
 * 24 h limit under a per-user lock, then sent as one chain write keyed by the withdrawal's id.
 */
export class WithdrawalService {
  constructor(private readonly deps: WithdrawalDeps) {}

  async dailyLimit(address: string, stack: Stack): Promise<DailyLimit> {
    const now = new Date(this.deps.clock.now());
    return this.limitView(address, stack, await this.deps.repo.window(address, stack, now));
  }

  /** Every reason a withdrawal of `body` would fail, and whether it fits the daily limit now. */
  async preValidate(caller: Withdrawer, body: WithdrawRequest): Promise<PreValidateResponse> {
    const { reasons, balance } = await this.check(caller, body);
    const limit = await this.dailyLimit(caller.address, body.collateralStack);
    const withinDailyLimit = BigInt(body.amount) <= BigInt(limit.remaining);
    const all = withinDailyLimit
      ? reasons
      : [
          ...reasons,
          {
            code: 'DAILY_LIMIT_EXCEEDED',
            field: 'body.amount',
            message: `Above the ${limit.remaining} base units the 24 h limit has left: a direct withdrawal is refused, a withdrawal request goes to review`,
          },
        ];
    // `valid` means a direct withdrawal would go through now: every reason counts, the limit included.
    return {
      valid: all.length === 0,
      withinDailyLimit,
      reasons: all,
      balance: balance.toString(),
      dailyLimit: limit,
    };
  }

  /** The refusals shared by direct withdrawals and requests; the first becomes the error. */
  async assertValid(caller: Withdrawer, body: WithdrawRequest): Promise<void> {
    const { reasons, balance } = await this.check(caller, body);
    const [first] = reasons;
    if (!first) return;
    if (first.code === 'INSUFFICIENT_BALANCE') {
      throw new DomainError('INSUFFICIENT_BALANCE', first.message, {
        details: { balance: balance.toString(), amount: body.amount, reasons },
      });
    }
    if (first.code === 'WITHDRAWAL_UNSUPPORTED') {
      throw new DomainError('WITHDRAWAL_UNSUPPORTED', first.message, { details: { reasons } });
    }
    throw new DomainError('VALIDATION_FAILED', first.message, {
      details: { reasons },
      fieldErrors: Object.fromEntries(
        reasons.flatMap((r): [string, string[]][] => (r.field ? [[r.field, [r.message]]] : [])),
      ),
    });
  }

  /**
   * A direct withdrawal: counted against the daily limit, then sent. Its id comes from the
   * request's Idempotency-Key when it has one, so a retry that takes over a dead execution finds
   * the first attempt's withdrawal and resumes it (sending it only if nothing was ever sent, under
   * the same chain key as the stranded-withdrawal sweep) instead of making a second one.
   */
  async withdraw(ctx: OperationContext, caller: Withdrawer, body: WithdrawRequest): Promise<Withdrawal> {
    const scopedId = ctx.scopedId('withdrawal');
    const earlier = scopedId ? await this.deps.repo.byId(scopedId) : undefined;
    if (earlier) return this.view(await this.sendIfReserved(earlier, ctx.writeKey('withdraw')));
    await this.assertValid(caller, body);
    const stack = body.collateralStack;
    const amount = BigInt(body.amount);
    const now = ctx.now;
    const id = scopedId ?? randomUUID();
    const address = getAddress(caller.address);
    const reserved = await this.deps.repo.reserve(
      { id, userId: caller.userId, address, stack, toAddress: getAddress(body.toAddress), amount, requestId: null },
      this.deps.dailyLimit[stack],
      now,
    );
    if (reserved.kind === 'exists') return this.view(await this.sendIfReserved(reserved.row, ctx.writeKey('withdraw')));
    const limit = this.limitView(address, stack, reserved.window);
    if (reserved.kind === 'refused') {
      throw new DomainError(
        'DAILY_LIMIT_EXCEEDED',
        `Withdrawing ${amount} would pass the 24 h limit: ${limit.remaining} of ${limit.limit} base units remain. Ask for a withdrawal request above that.`,
        { details: { limit: limit.limit, used: limit.used, remaining: limit.remaining, resetsAt: limit.resetsAt } },
      );
    }
    const row = await this.send(id, caller.userId, stack, getAddress(body.toAddress), amount, ctx.writeKey('withdraw'));
    return this.view(row, limit);
  }

  /**
   * Sends a reserved withdrawal: one chain write keyed by its id, so a rerun (a retried job, a
   * replayed request) finds the first write instead of sending again. A refusal (the wallet cannot
   * fund it, counting its writes in flight; the simulation reverts) fails the withdrawal, which
   * frees its share of the limit.
   */
  async send(
    id: string,
    userId: string,
    stack: Stack,
    to: Address,
    amount: bigint,
    write?: WriteKey,
  ): Promise<WithdrawalRecord> {
    const { repo, chain, bridge } = this.deps;
    try {
      const signer = await this.deps.signers.forUser(userId);
      if (stack === 'credits') {
        await chain.transfer(signer, 'credits', to, amount, {
          key: `withdraw:${id}`,
          ...(write ? { write } : {}),
          record: async (sql, hash) => {
            await repo.markSubmitted(sql, id, hash, null);
          },
        });
      } else {
        if (!bridge) throw new DomainError('WITHDRAWAL_UNSUPPORTED', 'usdc withdrawals need a bridge provider');
        const sent = await bridge.send({ withdrawalId: id, from: signer, to, amount }, async (sql, hash) => {
          await repo.markSubmitted(sql, id, hash, `pending_${id}`);
        });
        await repo.setBridgeRef(id, sent.ref);
      }
    } catch (err) {
      if (isDomainError(err)) await repo.finish(id, 'failed', err.message);
      throw err;
    }
    const row = await repo.byId(id);
    if (!row) throw new Error(`withdrawal ${id} vanished`);
    return row;
  }

  /**
   * Sends a withdrawal only while it is `reserved` (no write was ever recorded for it: the
   * pipeline records the write and `submitted` together). Once submitted, completed or failed,
   * its outcome is the chain's and the sweep's: it is never sent again, even if its write reverted.
   */
  async sendIfReserved(w: WithdrawalRecord, write?: WriteKey): Promise<WithdrawalRecord> {
    if (w.status !== 'reserved') return w;
    return this.send(w.id, w.user_id, w.collateral_stack, w.to_address as Address, BigInt(w.amount), write);
  }

  /** The answer for a withdrawal row, with the daily limit as it stands (or as it was reserved). */
  private async view(w: WithdrawalRecord, limit?: DailyLimit): Promise<Withdrawal> {
    const stack = w.collateral_stack;
    const now = new Date(this.deps.clock.now());
    return {
      id: w.id,
      collateralStack: stack,
      amount: String(w.amount),
      toAddress: getAddress(w.to_address),
      status: w.status,
      txHash: w.tx_hash as `0x${string}` | null,
      createdAt: new Date(w.created_at).toISOString(),
      dailyLimit: limit ?? this.limitView(w.address, stack, await this.deps.repo.window(w.address, stack, now)),
    };
  }

  /**
   * Periodic: sends withdrawals a crash left reserved (counted, never sent: the pipeline records a
   * write together with `submitted`, so `reserved` means no write exists — the keyed send makes it
   * one either way), then completes sent ones the chain (credits) or the bridge (usdc) finished.
   */
  async completeSubmitted(): Promise<number> {
    const { repo, chain, bridge } = this.deps;
    const cutoff = new Date(this.deps.clock.now() - STRANDED_AFTER_MS);
    for (const w of await repo.stranded(cutoff, 20)) {
      await this.sendIfReserved(w).catch((err: unknown) =>
        this.deps.logger.warn({ withdrawalId: w.id, err: (err as Error).message }, 'stranded withdrawal not sent yet'),
      );
    }
    let done = 0;
    for (const w of await repo.submitted(50)) {
      if (!w.tx_hash) continue;
      const mined = await chain.transactionStatus(w.tx_hash as `0x${string}`);
      if (mined === 'reverted') {
        done += Number(await repo.finish(w.id, 'failed', 'the transfer reverted on chain'));
        continue;
      }
      if (mined !== 'success') continue;
      if (w.collateral_stack === 'credits' || !bridge) {
        done += Number(await repo.finish(w.id, 'completed'));
        continue;
      }
      const state = await bridge.status(w.bridge_ref ?? w.id, {
        to: w.to_address as Address,
        sentAt: new Date(w.created_at),
      });
      if (state.status === 'completed') done += Number(await repo.finish(w.id, 'completed'));
      if (state.status === 'failed') {
        await bridge.returnFunds({ withdrawalId: w.id, from: w.address as Address, amount: BigInt(w.amount) });
        done += Number(await repo.finish(w.id, 'failed', state.reason ?? 'the bridge failed to deliver'));
      }
    }
    return done;
  }

  private async check(caller: Withdrawer, body: WithdrawRequest): Promise<{ reasons: Reason[]; balance: bigint }> {
    const reasons: Reason[] = [];
    const amount = BigInt(body.amount);
    const owner = getAddress(caller.address);
    if (amount === 0n)
      reasons.push({ code: 'VALIDATION_FAILED', field: 'body.amount', message: 'The amount must be more than 0' });
    const to = getAddress(body.toAddress);
    if (to === owner) {
      reasons.push({
        code: 'VALIDATION_FAILED',
        field: 'body.toAddress',
        message: 'The destination is your managed wallet itself',
      });
    }
    if (BigInt(to) === 0n) {
      reasons.push({
        code: 'VALIDATION_FAILED',
        field: 'body.toAddress',
        message: 'The zero address would burn the collateral',
      });
    }
    if (body.collateralStack === 'usdc' && !this.deps.bridge) {
      reasons.push({
        code: 'WITHDRAWAL_UNSUPPORTED',
        field: 'body.collateralStack',
        message: 'usdc withdrawals need a bridge provider, and none is configured on this deployment',
      });
    }
    const balance = await this.deps.chain.collateralBalance(body.collateralStack, owner);
    if (amount > balance) {
      reasons.push({
        code: 'INSUFFICIENT_BALANCE',
        field: 'body.amount',
        message: `The managed wallet holds ${balance} base units of ${body.collateralStack}`,
      });
    }
    // The balance refusal is the most specific; report it first.
    reasons.sort((a, b) => Number(b.code === 'INSUFFICIENT_BALANCE') - Number(a.code === 'INSUFFICIENT_BALANCE'));
    return { reasons, balance };
  }

  private limitView(address: string, stack: Stack, window: LimitWindow): DailyLimit {
    const limit = this.deps.dailyLimit[stack];
    const remaining = window.used >= limit ? 0n : limit - window.used;
    return {
      user: getAddress(address),
      collateralStack: stack,
      limit: limit.toString(),
      used: window.used.toString(),
      remaining: remaining.toString(),
      windowSeconds: 86_400,
      resetsAt: window.oldest ? new Date(window.oldest.getTime() + WINDOW_MS).toISOString() : null,
    };
  }
}
