import { randomUUID } from 'node:crypto';
import type { CreatePlatformInvite, CreatePlatformInvitesBulk, PlatformInvite } from '@duelkit/contract';
import { DomainError } from '../../errors.js';
import type { OperationContext } from '../../platform/operation.context.js';
import { generateInviteCode } from '../invitations/invite-code.js';
import { refusalOf, stateOf, type InviteRecord, type InviteState, type InviteStore } from './platform-invite.types.js';

/** The operation's context (built by the route or a job and passed explicitly) and who acts in it. */
export type ActorContext = OperationContext & {
  /** The acting admin's email, or `user:<id>` for a user. */
  readonly actor: string;
};

const CODE_ATTEMPTS = 5;

export function toInviteDto(invite: InviteRecord, now: Date): PlatformInvite {
  return {
    id: invite.id,
    code: invite.code,
    state: stateOf(invite, now),
    ownerUserId: invite.ownerUserId,
    maxUses: invite.maxUses,
    uses: invite.uses,
    expiresAt: invite.expiresAt?.toISOString() ?? null,
    note: invite.note,
    batchId: invite.batchId,
    createdBy: invite.createdBy,
    createdAt: invite.createdAt.toISOString(),
    deactivatedAt: invite.deactivatedAt?.toISOString() ?? null,
    deactivationReason: invite.deactivationReason,
  };
}

/**
 * Platform invite codes (§4.16; docs/operations.md, "Invites"): issued by admins, one or a batch at
 * a time; a code admits `maxUses` sign-ups (0 = unlimited) until it expires or is deactivated.
 * Redeeming happens in the sign-up's transaction (PlatformInviteRepository.redeem).
 */
export class PlatformInviteService {
  constructor(
    private readonly store: InviteStore,
    private readonly settings: { readonly bulkMax: number; readonly inviteOnly: boolean },
    private readonly random: (prefix: string) => string = (prefix) => `${prefix}${generateInviteCode()}`,
  ) {}

  get inviteOnly(): boolean {
    return this.settings.inviteOnly;
  }

  async create(ctx: ActorContext, input: CreatePlatformInvite): Promise<PlatformInvite> {
    await this.checkCommon(ctx, input);
    for (let attempt = 0; ; attempt++) {
      const invite = this.record(ctx, input, input.code ?? this.random(''), null);
      const inserted = await this.store.insertAll([invite]);
      if ('ok' in inserted) return toInviteDto(invite, ctx.now);
      if (input.code) {
        throw new DomainError('INVITE_CODE_TAKEN', `The code ${input.code} exists already (codes ignore case)`, {
          details: { code: input.code },
        });
      }
      if (attempt >= CODE_ATTEMPTS) throw new Error('could not generate a free invite code');
    }
  }

  async createBulk(
    ctx: ActorContext,
    input: CreatePlatformInvitesBulk,
  ): Promise<{ batchId: string; invites: PlatformInvite[] }> {
    if (input.count > this.settings.bulkMax) {
      throw new DomainError('VALIDATION_FAILED', `At most ${this.settings.bulkMax} codes per batch`, {
        fieldErrors: { 'body.count': [`at most ${this.settings.bulkMax}`] },
      });
    }
    await this.checkCommon(ctx, input);
    const batchId = randomUUID();
    for (let attempt = 0; ; attempt++) {
      const codes = new Set<string>();
      while (codes.size < input.count) codes.add(this.random(input.prefix ?? ''));
      const invites = [...codes].map((code) => this.record(ctx, input, code, batchId));
      const inserted = await this.store.insertAll(invites);
      if ('ok' in inserted) return { batchId, invites: invites.map((i) => toInviteDto(i, ctx.now)) };
      if (attempt >= CODE_ATTEMPTS) throw new Error('could not generate free invite codes');
    }
  }

  async deactivate(ctx: ActorContext, inviteId: string, reason: string | undefined): Promise<PlatformInvite> {
    await this.require(inviteId);
    await this.store.deactivate([inviteId], ctx.actor, reason ?? null, ctx.now);
    return toInviteDto(await this.require(inviteId), ctx.now);
  }

  async invalidateUser(ctx: ActorContext, userId: string, reason: string | undefined) {
    if (!(await this.store.userExists(userId))) {
      throw new DomainError('NOT_FOUND', `No user ${userId}`, { details: { userId } });
    }
    const owned = await this.store.ownedBy(userId);
    const deactivated = await this.store.deactivate(
      owned.map((i) => i.id),
      ctx.actor,
      reason ?? 'owner invalidated',
      ctx.now,
    );
    const after = await this.store.ownedBy(userId);
    return { userId, deactivated, invites: after.map((i) => toInviteDto(i, ctx.now)) };
  }

  async details(now: Date, inviteId: string) {
    const invite = await this.require(inviteId);
    const uses = await this.store.uses(inviteId);
    return {
      ...toInviteDto(invite, now),
      usesLog: uses.map((u) => ({ ...u, usedAt: u.usedAt.toISOString() })),
    };
  }

  async page(
    now: Date,
    query: { page: number; limit: number; ownerUserId?: string | undefined; code?: string | undefined },
    state: InviteState | undefined,
  ) {
    const { rows, total } = await this.store.page(
      { ownerUserId: query.ownerUserId, codePrefix: query.code, state, now },
      query.limit,
      (query.page - 1) * query.limit,
    );
    return {
      data: rows.map((r) => toInviteDto(r, now)),
      pagination: { page: query.page, limit: query.limit, total, hasMore: query.page * query.limit < total },
    };
  }

  /**
   * What sign-up does with a code (the caller redeems it in its transaction): in an invite-only
   * deployment a sign-up without a usable code is refused; elsewhere a usable code is redeemed
   * (its owner gets the referral) and any other is only kept on the account.
   */
  async checkForSignUp(code: string | undefined, now: Date): Promise<InviteRecord | undefined> {
    if (!code) {
      if (this.settings.inviteOnly) {
        throw new DomainError('INVITE_REQUIRED', 'This deployment is invite-only: sign up with an invite code');
      }
      return undefined;
    }
    const invite = await this.store.byCode(code);
    const refusal = invite ? refusalOf(invite, now) : 'missing';
    if (!invite || refusal) {
      if (!this.settings.inviteOnly) return undefined;
      throw inviteRefusal(code, refusal ?? 'missing', invite);
    }
    return invite;
  }

  private async require(inviteId: string): Promise<InviteRecord> {
    const invite = await this.store.byId(inviteId);
    if (!invite) throw new DomainError('INVITE_NOT_FOUND', `No invite ${inviteId}`, { details: { inviteId } });
    return invite;
  }

  private async checkCommon(
    ctx: ActorContext,
    input: { ownerUserId?: string | undefined; expiresAt?: string | undefined },
  ): Promise<void> {
    if (input.expiresAt && new Date(input.expiresAt).getTime() <= ctx.now.getTime()) {
      throw new DomainError('VALIDATION_FAILED', 'expiresAt must be in the future', {
        fieldErrors: { 'body.expiresAt': ['must be in the future'] },
      });
    }
    if (input.ownerUserId && !(await this.store.userExists(input.ownerUserId))) {
      throw new DomainError('NOT_FOUND', `No user ${input.ownerUserId}`, {
        details: { ownerUserId: input.ownerUserId },
      });
    }
  }

  private record(
    ctx: ActorContext,
    input: {
      ownerUserId?: string | undefined;
      maxUses: number;
      expiresAt?: string | undefined;
      note?: string | undefined;
    },
    code: string,
    batchId: string | null,
  ): InviteRecord {
    return {
      id: randomUUID(),
      code,
      ownerUserId: input.ownerUserId ?? null,
      maxUses: input.maxUses,
      uses: 0,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      note: input.note ?? null,
      batchId,
      createdBy: ctx.actor,
      createdAt: ctx.now,
      deactivatedAt: null,
      deactivationReason: null,
    };
  }
}

/** The refusal of a sign-up code that admits nobody. */
export function inviteRefusal(code: string, why: string, invite?: InviteRecord): DomainError {
  switch (why) {
    case 'expired':
      return new DomainError('INVITE_EXPIRED', `The invite code ${code} has expired`, {
        details: { expiresAt: invite?.expiresAt?.toISOString() ?? null },
      });
    case 'exhausted':
      return new DomainError('INVITE_EXHAUSTED', `The invite code ${code} has no uses left`, {
        details: { maxUses: invite?.maxUses ?? 0 },
      });
    case 'deactivated':
      return new DomainError('INVITE_REVOKED', `The invite code ${code} was deactivated`);
    default:
      return new DomainError('INVITE_NOT_FOUND', `No invite code ${code}`, { details: { code } });
  }
}
