import type {
  AdminWithdrawalRequestListQuery,
  CreateWithdrawalRequest,
  DecideWithdrawalRequest,
  WithdrawalRequestDto,
  WithdrawalRequestList,
  WithdrawalRequestListQuery,
} from '@duelkit/contract';
import { randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import type { Clock } from '../../platform/clock.js';
import type { OperationContext } from '../../platform/operation-context.js';
import { DomainError, isDomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { RequestRecord, WithdrawalRepository } from './withdrawal.repository.js';
import type { Withdrawer, WithdrawalService } from './withdrawal.service.js';

export interface Reviewer {
  readonly adminId: string;
  readonly email: string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

function toDto(r: RequestRecord): WithdrawalRequestDto {
  return {
    id: r.id,
    user: getAddress(r.address),
    collateralStack: r.collateral_stack,
    amount: String(r.amount),
    toAddress: getAddress(r.to_address),
    note: r.note,
    status: r.status,
    decision:
      r.decision && r.decided_at
        ? {
            decision: r.decision,
            reason: r.decision_reason,
            adminEmail: r.admin_email ?? '',
            decidedAt: iso(r.decided_at),
          }
        : null,
    txHash: r.tx_hash,
    failureReason: r.failure_reason,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/**
 * Withdrawal requests: recorded by their owner, decided once by an admin (the decision row is the
 * audit trail), and an approved one executed once by a durable job (docs/money.md).
 */
export class WithdrawalRequestService {
  constructor(
    private readonly repo: WithdrawalRepository,
    private readonly withdrawals: WithdrawalService,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * Records a request. Its id comes from the request's Idempotency-Key when it has one, so a
   * retry that takes over a dead execution finds the first attempt's request instead of filing a
   * second one.
   */
  async create(
    ctx: OperationContext,
    caller: Withdrawer,
    body: CreateWithdrawalRequest,
  ): Promise<WithdrawalRequestDto> {
    const scopedId = ctx.scopedId('withdrawal-request');
    if (scopedId && (await this.repo.request(scopedId))) return this.get(scopedId);
    await this.withdrawals.assertValid(caller, body);
    const id = await this.repo.createRequest({
      id: scopedId ?? randomUUID(),
      userId: caller.userId,
      address: getAddress(caller.address),
      stack: body.collateralStack,
      toAddress: getAddress(body.toAddress),
      amount: BigInt(body.amount),
      note: body.note ?? null,
      now: ctx.now,
    });
    return this.get(id);
  }

  async listMine(caller: Withdrawer, query: WithdrawalRequestListQuery): Promise<WithdrawalRequestList> {
    return this.list({ address: getAddress(caller.address), ...(query.status ? { status: query.status } : {}) }, query);
  }

  async listAll(query: AdminWithdrawalRequestListQuery): Promise<WithdrawalRequestList> {
    return this.list(
      { ...(query.user ? { address: query.user } : {}), ...(query.status ? { status: query.status } : {}) },
      query,
    );
  }

  async decide(admin: Reviewer, requestId: string, body: DecideWithdrawalRequest): Promise<WithdrawalRequestDto> {
    if (body.decision === 'reject' && !body.reason) {
      throw new DomainError('VALIDATION_FAILED', 'A rejection needs a reason', {
        fieldErrors: { 'body.reason': ['required to reject'] },
      });
    }
    const result = await this.repo.decide({
      requestId,
      adminId: admin.adminId,
      adminEmail: admin.email,
      decision: body.decision,
      reason: body.reason ?? null,
    });
    if (!result.decided) {
      if (result.status === null) {
        throw new DomainError('NOT_FOUND', `No withdrawal request ${requestId}`, { details: { requestId } });
      }
      throw new DomainError('INVALID_STATE', `Withdrawal request ${requestId} was already decided (${result.status})`, {
        details: { requestId, status: result.status },
      });
    }
    return this.get(requestId);
  }

  /**
   * The durable job (a scheduled task on the job engine): executes approved requests and finishes
   * the ones a crash left `executing`. The request row is the unit of work; it needs no worker of
   * its own (the embedded database has connections for only so many).
   */
  async sweep(): Promise<void> {
    for (const id of await this.repo.approvedIds(20)) {
      try {
        await this.execute(id);
      } catch (err) {
        this.logger.warn(
          { requestId: id, err: (err as Error).message },
          'withdrawal request execution will be retried',
        );
      }
    }
  }

  /**
   * Executes an approved request once. Its withdrawal row is unique per request and its
   * chain write keyed by that row's id, so a rerun finds the first write and never sends again.
   */
  async execute(requestId: string): Promise<void> {
    const r = await this.repo.request(requestId);
    if (!r || (r.status !== 'approved' && r.status !== 'executing')) return;
    await this.repo.moveRequest(requestId, ['approved'], 'executing');
    const w = await this.repo.ensureForRequest(
      {
        id: randomUUID(),
        userId: r.user_id,
        address: r.address,
        stack: r.collateral_stack,
        toAddress: r.to_address,
        amount: BigInt(r.amount),
        requestId,
      },
      new Date(this.clock.now()),
    );
    if (w.status === 'failed') {
      await this.repo.moveRequest(requestId, ['executing'], 'failed', w.failure_reason ?? 'the withdrawal failed');
      return;
    }
    try {
      await this.withdrawals.sendIfReserved(w);
      await this.repo.moveRequest(requestId, ['executing'], 'completed');
    } catch (err) {
      if (!isDomainError(err)) throw err;
      this.logger.warn({ requestId, code: err.code }, 'withdrawal request failed');
      await this.repo.moveRequest(requestId, ['executing'], 'failed', err.message);
    }
  }

  private async get(id: string): Promise<WithdrawalRequestDto> {
    const r = await this.repo.request(id);
    if (!r) throw new DomainError('NOT_FOUND', `No withdrawal request ${id}`, { details: { requestId: id } });
    return toDto(r);
  }

  private async list(
    filter: { address?: string; status?: WithdrawalRequestDto['status'] },
    page: { page: number; limit: number },
  ): Promise<WithdrawalRequestList> {
    const offset = (page.page - 1) * page.limit;
    const { rows, total } = await this.repo.requests(filter, { limit: page.limit, offset });
    return {
      data: rows.map(toDto),
      pagination: { page: page.page, limit: page.limit, total, hasMore: offset + rows.length < total },
    };
  }
}
