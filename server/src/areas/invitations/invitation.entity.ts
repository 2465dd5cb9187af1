import { EntitySchema } from '@mikro-orm/core';

/** Whether the chain event behind a row has been indexed yet. */
export type RowChainState = 'pending' | 'confirmed';

/**
 * An invitation to a private duel. The chain stores only the code's hash; the code itself is kept
 * here so the creator can list and share it. `uses` counts joins made through this service and is
 * the counter `maxUses` is reserved against (the chain enforces the same limit).
 */
export interface DuelInvitationRow {
  id: string;
  duelId: string;
  /** Null for an invitation created on chain directly (the indexer saw only its hash). */
  code: string | null;
  codeHash: string;
  /** 0 = unlimited. */
  maxUses: number;
  uses: number;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdByUserId: string | null;
  createdByAddress: string | null;
  createdAt: Date;
  txHash: string | null;
  chainState: RowChainState;
}

export const DuelInvitationEntity = new EntitySchema<DuelInvitationRow>({
  name: 'DuelInvitation',
  tableName: 'duel_invitations',
  // Codes are unique service-wide, so a code alone names its duel (join and validate take only the code).
  uniques: [{ name: 'duel_invitations_code_hash_unique', properties: ['codeHash'] }],
  indexes: [{ name: 'duel_invitations_duel_idx', properties: ['duelId'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    duelId: { type: 'string', length: 66 },
    code: { type: 'string', length: 64, nullable: true },
    codeHash: { type: 'string', length: 66 },
    maxUses: { type: 'integer' },
    uses: { type: 'integer', default: 0 },
    expiresAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdByUserId: { type: 'uuid', nullable: true },
    createdByAddress: { type: 'string', length: 42, nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    txHash: { type: 'string', length: 66, nullable: true },
    chainState: { type: 'string', length: 10 },
  },
});

/** How an address became a member. */
export type MembershipVia = 'creator' | 'invite' | 'added' | 'parent';

/**
 * Membership of one address in one private duel. The API writes it when it sends the transaction
 * (`pending`, `txHash`); the indexer confirms it from MemberAdded/MemberRemoved and records the
 * event position, so replays and older events never undo newer state.
 */
export interface DuelMembershipRow {
  duelId: string;
  memberAddress: string;
  userId: string | null;
  via: MembershipVia;
  invitationId: string | null;
  txHash: string | null;
  chainState: RowChainState;
  /** True once this join was counted in its invitation's `uses` (never counted twice). */
  useCounted: boolean;
  joinedAt: Date;
  removedAt: Date | null;
  eventBlock: string | null;
  eventLogIndex: number | null;
}

export const DuelMembershipEntity = new EntitySchema<DuelMembershipRow>({
  name: 'DuelMembership',
  tableName: 'duel_memberships',
  indexes: [{ name: 'duel_memberships_member_idx', properties: ['memberAddress', 'joinedAt'] }],
  properties: {
    duelId: { type: 'string', length: 66, primary: true },
    memberAddress: { type: 'string', length: 42, primary: true },
    userId: { type: 'uuid', nullable: true },
    via: { type: 'string', length: 8 },
    invitationId: { type: 'uuid', nullable: true },
    txHash: { type: 'string', length: 66, nullable: true },
    chainState: { type: 'string', length: 10 },
    useCounted: { type: 'boolean', default: false },
    joinedAt: { type: 'Date', columnType: 'timestamptz' },
    removedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    eventBlock: { type: 'bigint', nullable: true },
    eventLogIndex: { type: 'integer', nullable: true },
  },
});
