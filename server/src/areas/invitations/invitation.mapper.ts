import { getAddress } from 'viem';
import type { InvitationDto, MembershipDto } from './invitation.types.js';
import type { DuelInvitationRow, DuelMembershipRow } from './invitation.entity.js';
import { invitationState, remainingUses } from './invite-code.js';

const iso = (d: Date | string): string => new Date(d).toISOString();

/** The wire shape of an invitation, with its state at `now`. */
export function toInvitationDto(row: DuelInvitationRow, now: number): InvitationDto {
  return {
    inviteCode: row.code,
    codeHash: row.codeHash,
    duelId: row.duelId,
    maxUses: row.maxUses,
    uses: row.uses,
    remainingUses: remainingUses(row),
    expiresAt: row.expiresAt ? iso(row.expiresAt) : null,
    revokedAt: row.revokedAt ? iso(row.revokedAt) : null,
    status: invitationState(row, now),
    createdBy: row.createdByAddress ? getAddress(row.createdByAddress) : null,
    createdAt: iso(row.createdAt),
    txHash: row.txHash,
    chainState: row.chainState,
  };
}

export function toMembershipDto(row: DuelMembershipRow): MembershipDto {
  return {
    duelId: row.duelId,
    userAddress: getAddress(row.memberAddress),
    via: row.via,
    joinedAt: iso(row.joinedAt),
    txHash: row.txHash,
    chainState: row.chainState,
  };
}
