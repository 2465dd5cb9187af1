import { getAddress, zeroHash } from 'viem';
import type { ChainPort } from '../../adapters/chain/chain.port.js';
import { DomainError } from '../../errors.js';
import type { OperationContext } from '../../platform/operation-context.js';
import type { ManagedSigners } from '../identity/managed-signers.js';
import type { DuelMembershipRow } from './invitation.entity.js';
import { toMembershipDto } from './invitation.mapper.js';
import type { InvitationRepository } from './invitation.repository.js';
import { assertCreator } from '../markets/market-creator.js';
import { sameAddress, type DuelLookup, type InvitationService } from './invitation.service.js';
import type {
  Caller,
  JoinInput,
  MemberMutationInput,
  MembershipCheckDto,
  MembershipDto,
  MembershipPageDto,
  RemoveMemberDto,
  SyncJoinInput,
} from './invitation.types.js';
import { invitationState, inviteUnusable } from './invite-code.js';
import type { MembershipDirectory } from './membership-directory.js';
import type { Clock } from '../../platform/clock.js';

/** Who signs a join: the caller's managed wallet (`user`), or the platform for them (legacy `platform`). */
export type JoinSigner = 'user' | 'platform';

/**
 * Membership of private duels: joins with a code (reserved in the database first, so maxUses holds
 * under concurrency), joins a frontend sent itself, and the creator's add and remove.
 */
export class MembershipService {
  constructor(
    private readonly repo: InvitationRepository,
    private readonly invitations: InvitationService,
    private readonly directory: MembershipDirectory,
    private readonly duels: DuelLookup,
    private readonly chain: ChainPort,
    private readonly signers: ManagedSigners,
    private readonly clock: Clock,
  ) {}

  /**
   * Joins the caller with a code: takes one use atomically, sends the join, records the
   * membership. A refused transaction gives the use back.
   */
  async join(ctx: OperationContext, caller: Caller, input: JoinInput, signedBy: JoinSigner): Promise<MembershipDto> {
    const invitation = await this.invitations.find(input.inviteCode, input.duelId);
    const duel = await this.duels.require(invitation.duelId);
    const member = getAddress(caller.address);
    if (sameAddress(duel.creatorAddress, member) || (await this.directory.isMember(duel.duelId, member))) {
      throw new DomainError('ALREADY_MEMBER', 'Already a member of this private market', {
        details: { duelId: duel.duelId },
      });
    }
    const state = invitationState(invitation, this.clock.now());
    if (state !== 'active') throw inviteUnusable(state, invitation);
    const reserved = await this.repo.reserveUse(invitation.id);
    if (!reserved) {
      // Lost the race for the last use, or it expired or was revoked meanwhile.
      const fresh = (await this.repo.invitationByHash(invitation.codeHash)) ?? invitation;
      const now = invitationState(fresh, this.clock.now() + 1_000);
      throw inviteUnusable(now === 'active' ? 'exhausted' : now, fresh);
    }
    const duelId = duel.duelId as `0x${string}`;
    const codeHash = invitation.codeHash as `0x${string}`;
    let txHash: `0x${string}`;
    try {
      txHash =
        signedBy === 'user'
          ? await this.chain.join(await this.signers.forUser(caller.userId), duelId, codeHash, {
              write: ctx.writeKey('join'),
            })
          : await this.chain.joinFor(duelId, codeHash, member, { write: ctx.writeKey('join') });
    } catch (err) {
      await this.repo.releaseUse(invitation.id);
      throw err;
    }
    const row = await this.repo.recordJoin({
      duelId: duel.duelId,
      memberAddress: member,
      userId: caller.userId,
      via: 'invite',
      invitationId: invitation.id,
      txHash,
      useCounted: true,
      chainState: 'pending',
    });
    return toMembershipDto(row);
  }

  /**
   * Records a join a frontend sent on chain, after checking its receipt: successful, with a
   * MemberAdded for this duel and the caller, who is still a member.
   */
  async syncJoin(caller: Caller, input: SyncJoinInput): Promise<MembershipDto> {
    const duel = await this.duels.require(input.duelId);
    const txHash = input.txHash.toLowerCase() as `0x${string}`;
    const status = await this.chain.transactionStatus(txHash);
    if (status === 'pending') {
      throw new DomainError('JOIN_TX_PENDING', 'The join transaction is not mined yet; retry shortly', {
        details: { txHash },
        retryAfterMs: 2_000,
      });
    }
    if (status === 'reverted') throw notVerified('reverted', 'The join transaction reverted');
    const mine = [caller.address, caller.eoaAddress].filter((a): a is string => Boolean(a));
    const event = (await this.chain.transactionEvents(txHash)).find(
      (e) =>
        e.kind === 'member_added' &&
        e.duelId.toLowerCase() === duel.duelId &&
        mine.some((a) => sameAddress(a, e.member)),
    );
    if (event?.kind !== 'member_added') {
      throw notVerified('no_member_event', 'The transaction did not make you a member of this market');
    }
    const member = getAddress(event.member);
    if (!(await this.chain.isMember(duel.duelId as `0x${string}`, member))) {
      throw notVerified('no_longer_member', 'You were removed from this market after that join');
    }
    const invitation =
      event.codeHash.toLowerCase() === zeroHash ? null : await this.repo.invitationByHash(event.codeHash);
    const invitationId = invitation?.duelId === duel.duelId ? invitation.id : null;
    await this.repo.recordJoin({
      duelId: duel.duelId,
      memberAddress: member,
      userId: caller.userId,
      via: invitationId ? 'invite' : 'added',
      invitationId,
      txHash,
      useCounted: false,
      chainState: 'confirmed',
    });
    if (invitationId) await this.repo.countUseOnce(duel.duelId, member, invitationId);
    return toMembershipDto(await this.required(duel.duelId, member));
  }

  async addMember(ctx: OperationContext, caller: Caller, input: MemberMutationInput): Promise<MembershipDto> {
    const duel = await this.duels.require(input.duelId);
    assertCreator(duel, caller, 'add members');
    if (!duel.isPrivate) {
      throw new DomainError('INVALID_STATE', 'Public markets have no members to add', {
        details: { duelId: duel.duelId },
      });
    }
    const member = getAddress(input.memberAddress);
    if (sameAddress(member, duel.creatorAddress) || (await this.directory.isMember(duel.duelId, member))) {
      throw new DomainError('ALREADY_MEMBER', 'The address is already a member', { details: { member } });
    }
    const signer = await this.signers.forUser(caller.userId);
    const txHash = await this.chain.addMember(signer, duel.duelId as `0x${string}`, member, {
      write: ctx.writeKey('add-member'),
    });
    const row = await this.repo.recordJoin({
      duelId: duel.duelId,
      memberAddress: member,
      userId: null,
      via: 'added',
      invitationId: null,
      txHash,
      useCounted: false,
      chainState: 'pending',
    });
    return toMembershipDto(row);
  }

  async removeMember(ctx: OperationContext, caller: Caller, input: MemberMutationInput): Promise<RemoveMemberDto> {
    const duel = await this.duels.require(input.duelId);
    assertCreator(duel, caller, 'remove members');
    const member = getAddress(input.memberAddress);
    if (sameAddress(member, duel.creatorAddress)) {
      throw new DomainError('FORBIDDEN', 'The creator cannot be removed from their market');
    }
    // The chain decides: a join still pending there cannot be removed yet.
    if (!duel.isPrivate || !(await this.chain.isMember(duel.duelId as `0x${string}`, member))) {
      throw new DomainError('NOT_MEMBER', 'The address is not a member of this market', { details: { member } });
    }
    const signer = await this.signers.forUser(caller.userId);
    const txHash = await this.chain.removeMember(signer, duel.duelId as `0x${string}`, member, {
      write: ctx.writeKey('remove-member'),
    });
    await this.repo.recordRemoval(duel.duelId, member, txHash);
    return { duelId: duel.duelId, userAddress: member, removed: true, txHash };
  }

  /** Database first, then the chain. Public markets are open to everyone. */
  async check(duelId: string, userAddress: string): Promise<MembershipCheckDto> {
    const duel = await this.duels.require(duelId);
    const address = getAddress(userAddress);
    const isCreator = sameAddress(address, duel.creatorAddress);
    const base = { duelId: duel.duelId, userAddress: address, isCreator };
    if (!duel.isPrivate) return { ...base, isMember: true, source: 'public' };
    if (isCreator) return { ...base, isMember: true, source: 'database' };
    const found = await this.directory.lookup(duel.duelId, address);
    return { ...base, isMember: found.isMember, source: found.source };
  }

  async membershipsOf(userAddress: string, page: number, limit: number): Promise<MembershipPageDto> {
    const address = getAddress(userAddress);
    const [rows, total] = await Promise.all([
      this.repo.membershipsOf(address, page, limit),
      this.repo.countMembershipsOf(address),
    ]);
    return {
      data: rows.map(toMembershipDto),
      pagination: { page, limit, total, hasMore: page * limit < total },
    };
  }

  private async required(duelId: string, member: string): Promise<DuelMembershipRow> {
    const row = await this.repo.membership(duelId, member);
    if (!row) throw new DomainError('INTERNAL', 'membership vanished after recording');
    return row;
  }
}

function notVerified(reason: string, message: string): DomainError {
  return new DomainError('JOIN_NOT_VERIFIED', message, { details: { reason } });
}
