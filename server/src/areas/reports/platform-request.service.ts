import { randomUUID } from 'node:crypto';
import { DomainError } from '../../errors.js';
import type { ActorContext } from '../platform-invites/platform-invite.service.js';
import type { Decision, NewRequest } from './platform-request.repository.js';

type CreateRequest =
  | { kind: 'creator'; message: string }
  | { kind: 'league'; leagueId: string; message?: string | undefined }
  | { kind: 'token'; tokenName: string; tokenSymbol: string; message?: string | undefined };

/** What the service needs of storage (PlatformRequestRepository on PostgreSQL). */
export interface RequestStore {
  pendingOf(userId: string, kind: string, subject: string): Promise<string | undefined>;
  insert(r: NewRequest): Promise<void>;
  view(id: string): Promise<Record<string, unknown> | undefined>;
  decide(id: string, d: Decision): Promise<boolean>;
  statusOf(id: string): Promise<string | undefined>;
  snapshotPnl(day: string, at: Date): Promise<number>;
}

/**
 * Creator, league and token requests (documented extension; docs/operations.md, "Requests"): the
 * records the creator-, league- and token-request reports list, and what an approval writes (a
 * league membership, a launched token) for the league-membership and launched-token reports.
 */
export class PlatformRequestService {
  constructor(private readonly store: RequestStore) {}

  async create(ctx: ActorContext & { userId: string; builderAppId: string }, input: CreateRequest) {
    const subject = input.kind === 'league' ? input.leagueId : input.kind === 'token' ? input.tokenSymbol : '';
    const pending = await this.store.pendingOf(ctx.userId, input.kind, subject);
    if (pending) {
      throw new DomainError('CONFLICT', `You already have a pending ${input.kind} request for this`, {
        details: { requestId: pending },
      });
    }
    const id = randomUUID();
    await this.store.insert({
      id,
      kind: input.kind,
      userId: ctx.userId,
      builderAppId: ctx.builderAppId,
      subject,
      message: input.message ?? null,
      leagueId: input.kind === 'league' ? input.leagueId : null,
      tokenName: input.kind === 'token' ? input.tokenName : null,
      tokenSymbol: input.kind === 'token' ? input.tokenSymbol : null,
      createdAt: ctx.now,
    });
    return this.view(id);
  }

  async decide(
    ctx: ActorContext,
    id: string,
    input: { decision: 'approve' | 'reject'; reason?: string | undefined; tokenAddress?: string | undefined },
  ) {
    if (input.decision === 'reject' && !input.reason) {
      throw new DomainError('VALIDATION_FAILED', 'A rejection needs a reason', {
        fieldErrors: { 'body.reason': ['required to reject'] },
      });
    }
    const status = await this.store.statusOf(id);
    if (!status) throw new DomainError('NOT_FOUND', `No request ${id}`, { details: { requestId: id } });
    const decided = await this.store.decide(id, {
      approve: input.decision === 'approve',
      by: ctx.actor,
      reason: input.reason ?? null,
      tokenAddress: input.tokenAddress ?? null,
      at: ctx.now,
    });
    if (!decided) {
      throw new DomainError('INVALID_STATE', `Request ${id} was decided already`, {
        details: { status: (await this.store.statusOf(id)) ?? status },
      });
    }
    return this.view(id);
  }

  /** The daily PnL snapshot job: the UTC day of `now`, every trader's figures up to `now`. */
  snapshotPnl(now: Date): Promise<number> {
    return this.store.snapshotPnl(now.toISOString().slice(0, 10), now);
  }

  private async view(id: string) {
    const view = await this.store.view(id);
    if (!view) throw new Error(`request ${id} vanished`);
    return view;
  }
}
