import { randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import type { ChainPort } from '../../adapters/chain/chain.port.js';
import { DomainError, isDomainError } from '../../errors.js';
import type { OperationContext } from '../../platform/operation-context.js';
import type { InvitationRepository } from '../invitations/invitation.repository.js';
import type { Caller } from '../invitations/invitation.types.js';
import {
  codeHashOf,
  expiryOf,
  generateInviteCode,
  invitationState,
  inviteUnusable,
  isUniqueViolation,
  remainingUses,
} from '../invitations/invite-code.js';
import type { MembershipDirectory } from '../invitations/membership-directory.js';
import type { ParentMarketInvitationRow, ParentMarketRow } from './parent-market.entity.js';
import type { ChildRef, ParentMarketRepository } from './parent-market.repository.js';
import type { ParentMarketService } from './parent-market.service.js';
import type {
  CreateParentInvitationInput,
  JoinParentDto,
  ParentInvitationDto,
  ValidateParentInviteDto,
} from './parent-market.types.js';
import type { Clock } from '../../platform/clock.js';

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
const iso = (d: Date | string): string => new Date(d).toISOString();

/**
 * Parent-level invitations. They live in the database only (the chain knows invitations per duel):
 * joining takes a use atomically, then the platform adds the member on chain to every private
 * sub-market.
 */
export class ParentInvitationService {
  constructor(
    private readonly repo: ParentMarketRepository,
    private readonly parents: ParentMarketService,
    private readonly memberships: InvitationRepository,
    private readonly directory: MembershipDirectory,
    private readonly chain: ChainPort,
    private readonly clock: Clock,
  ) {}

  async create(caller: Caller, input: CreateParentInvitationInput): Promise<ParentInvitationDto> {
    const parent = await this.parents.require(input.parentMarketId);
    this.assertCreator(parent, caller);
    const children = await this.repo.children([parent.id]);
    if (!parent.isPrivate && !children.some((c) => c.isPrivate)) {
      throw new DomainError(
        'INVALID_STATE',
        'Invitations are for private parent markets or parents with private sub-markets',
      );
    }
    const expiresAt = expiryOf(input.expiresAt, this.clock.now());
    for (let attempt = 0; ; attempt++) {
      const code = input.inviteCode ?? generateInviteCode();
      try {
        const row = await this.repo.insertInvitation({
          id: randomUUID(),
          parentMarketId: parent.id,
          code,
          codeHash: codeHashOf(code),
          maxUses: input.maxUses,
          expiresAt,
          createdByUserId: caller.userId,
        });
        return this.toDto(row);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (input.inviteCode || attempt >= 2) {
          throw new DomainError('INVITE_CODE_TAKEN', 'This invite code is already in use: choose another', {
            fieldErrors: { 'body.inviteCode': ['is already in use'] },
          });
        }
      }
    }
  }

  /** Active codes of the parent, for its creator. */
  async list(caller: Caller, parentId: string) {
    const parent = await this.parents.require(parentId);
    this.assertCreator(parent, caller);
    const rows = await this.repo.activeInvitations(parent.id);
    return { parentMarketId: parent.id, invitations: rows.map((r) => this.toDto(r)) };
  }

  async validate(inviteCode: string): Promise<ValidateParentInviteDto> {
    const row = await this.repo.invitationByHash(codeHashOf(inviteCode));
    if (!row) return { valid: false, reason: 'unknown' };
    const state = invitationState(row, this.clock.now());
    if (state !== 'active') return { valid: false, reason: state };
    const parent = await this.parents.require(row.parentMarketId);
    const children = await this.repo.children([parent.id]);
    return {
      valid: true,
      parentMarketId: parent.id,
      question: parent.question,
      privateDuelCount: children.filter((c) => c.isPrivate).length,
      maxUses: row.maxUses,
      uses: row.uses,
      remainingUses: remainingUses(row),
      expiresAt: row.expiresAt ? iso(row.expiresAt) : null,
    };
  }

  /**
   * Joins the parent: takes a use, adds the caller on chain to each private sub-market (platform-
   * signed), records the memberships. The use is given back when no sub-market could be joined.
   */
  async join(ctx: OperationContext, caller: Caller, inviteCode: string): Promise<JoinParentDto> {
    const invitation = await this.repo.invitationByHash(codeHashOf(inviteCode));
    if (!invitation) throw new DomainError('INVITE_NOT_FOUND', 'No parent-market invitation with this code');
    const parent = await this.parents.require(invitation.parentMarketId);
    const member = getAddress(caller.address);
    if (same(parent.creatorAddress, member) || (await this.repo.isMember(parent.id, member))) {
      throw new DomainError('ALREADY_MEMBER', 'Already a member of this parent market', {
        details: { parentMarketId: parent.id },
      });
    }
    const state = invitationState(invitation, this.clock.now());
    if (state !== 'active') throw inviteUnusable(state, invitation);
    if (!(await this.repo.reserveUse(invitation.id))) {
      const fresh = (await this.repo.invitationByHash(invitation.codeHash)) ?? invitation;
      const now = invitationState(fresh, this.clock.now() + 1_000);
      throw inviteUnusable(now === 'active' ? 'exhausted' : now, fresh);
    }
    const children = (await this.repo.children([parent.id])).filter((c) => c.isPrivate && c.chainState !== 'failed');
    const duels: JoinParentDto['duels'] = [];
    for (const child of children) duels.push(await this.grant(ctx, child, member, caller.userId));
    const failures = duels.filter((d) => d.result === 'failed');
    if (children.length > 0 && failures.length === children.length) {
      await this.repo.releaseUse(invitation.id);
      const first = failures[0]?.error;
      throw new DomainError(first?.code ?? 'INTERNAL', first?.message ?? 'Could not join any sub-market', {
        details: { duels },
      });
    }
    await this.repo.addMember({
      parentMarketId: parent.id,
      memberAddress: member,
      userId: caller.userId,
      invitationId: invitation.id,
    });
    return { parentMarketId: parent.id, userAddress: member, duels };
  }

  private async grant(
    ctx: OperationContext,
    child: ChildRef,
    member: `0x${string}`,
    userId: string,
  ): Promise<JoinParentDto['duels'][number]> {
    const entry = { duelId: child.duelId, txHash: null, error: null };
    if (same(child.creatorAddress, member) || (await this.directory.isMember(child.duelId, member))) {
      return { ...entry, result: 'already_member' };
    }
    try {
      const txHash = await this.chain.addMember('platform', child.duelId as `0x${string}`, member, {
        write: ctx.writeKey(`add-member:${child.duelId}:${member}`),
      });
      await this.memberships.recordJoin({
        duelId: child.duelId,
        memberAddress: member,
        userId,
        via: 'parent',
        invitationId: null,
        txHash,
        useCounted: false,
        chainState: 'pending',
      });
      return { ...entry, result: 'added', txHash };
    } catch (err) {
      if (!isDomainError(err)) {
        return {
          ...entry,
          result: 'failed',
          error: { code: 'INTERNAL', message: 'Unexpected error adding the member' },
        };
      }
      if (err.code === 'ALREADY_MEMBER') return { ...entry, result: 'already_member' };
      return { ...entry, result: 'failed', error: { code: err.code, message: err.message } };
    }
  }

  private assertCreator(parent: ParentMarketRow, caller: Caller): void {
    if (!same(parent.creatorAddress, caller.address)) {
      throw new DomainError('FORBIDDEN', 'Only the parent market’s creator may manage its invitations');
    }
  }

  private toDto(row: ParentMarketInvitationRow): ParentInvitationDto {
    return {
      parentMarketId: row.parentMarketId,
      inviteCode: row.code,
      maxUses: row.maxUses,
      uses: row.uses,
      remainingUses: remainingUses(row),
      expiresAt: row.expiresAt ? iso(row.expiresAt) : null,
      revokedAt: row.revokedAt ? iso(row.revokedAt) : null,
      status: invitationState(row, this.clock.now()),
      createdAt: iso(row.createdAt),
    };
  }
}
