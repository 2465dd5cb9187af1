import { EntitySchema } from '@mikro-orm/core';

/** A group of sub-markets; the children are `duels.parent_market_id`. */
export interface ParentMarketRow {
  id: string;
  builderAppId: string;
  /** Null for a group the platform owns (an admin's pack). */
  creatorUserId: string | null;
  creatorAddress: string;
  question: string;
  description: string | null;
  category: string;
  tags: string[];
  coverImageUrl: string | null;
  isPrivate: boolean;
  groupKind: 'multi' | 'pack';
  createdAt: Date;
}

export const ParentMarketEntity = new EntitySchema<ParentMarketRow>({
  name: 'ParentMarket',
  tableName: 'parent_markets',
  indexes: [
    { name: 'parent_markets_created_at_idx', properties: ['createdAt'] },
    { name: 'parent_markets_creator_idx', properties: ['creatorAddress'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    builderAppId: { type: 'uuid' },
    creatorUserId: { type: 'uuid', nullable: true },
    creatorAddress: { type: 'string', length: 42 },
    question: { type: 'string', length: 200 },
    description: { type: 'text', nullable: true },
    category: { type: 'string', length: 50 },
    tags: { type: 'string[]', columnType: 'text[]' },
    coverImageUrl: { type: 'text', nullable: true },
    isPrivate: { type: 'boolean' },
    groupKind: { type: 'string', length: 8 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** A parent-level code: joining with it grants membership in every private sub-market. Database only. */
export interface ParentMarketInvitationRow {
  id: string;
  parentMarketId: string;
  code: string;
  codeHash: string;
  maxUses: number;
  uses: number;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdByUserId: string;
  createdAt: Date;
}

export const ParentMarketInvitationEntity = new EntitySchema<ParentMarketInvitationRow>({
  name: 'ParentMarketInvitation',
  tableName: 'parent_market_invitations',
  uniques: [{ name: 'parent_market_invitations_code_hash_unique', properties: ['codeHash'] }],
  indexes: [{ name: 'parent_market_invitations_parent_idx', properties: ['parentMarketId'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    parentMarketId: { type: 'uuid' },
    code: { type: 'string', length: 64 },
    codeHash: { type: 'string', length: 66 },
    maxUses: { type: 'integer' },
    uses: { type: 'integer', default: 0 },
    expiresAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdByUserId: { type: 'uuid' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** Someone who joined a parent market with a parent-level code. */
export interface ParentMarketMemberRow {
  parentMarketId: string;
  memberAddress: string;
  userId: string | null;
  invitationId: string | null;
  joinedAt: Date;
}

export const ParentMarketMemberEntity = new EntitySchema<ParentMarketMemberRow>({
  name: 'ParentMarketMember',
  tableName: 'parent_market_members',
  indexes: [{ name: 'parent_market_members_member_idx', properties: ['memberAddress'] }],
  properties: {
    parentMarketId: { type: 'uuid', primary: true },
    memberAddress: { type: 'string', length: 42, primary: true },
    userId: { type: 'uuid', nullable: true },
    invitationId: { type: 'uuid', nullable: true },
    joinedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
