import { EntitySchema } from '@mikro-orm/core';

const timestamptz = { type: 'Date', columnType: 'timestamptz' } as const;

/** A platform invite code (docs/operations.md, "Invites"); `code_lower` makes codes case-insensitive. */
export const PlatformInviteEntity = new EntitySchema<Record<string, unknown>>({
  name: 'PlatformInvite',
  tableName: 'platform_invites',
  uniques: [{ name: 'platform_invites_code_lower_unique', properties: ['codeLower'] }],
  indexes: [
    { name: 'platform_invites_owner_idx', properties: ['ownerUserId'] },
    { name: 'platform_invites_created_idx', properties: ['createdAt', 'id'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    code: { type: 'string', length: 64 },
    codeLower: { type: 'string', length: 64 },
    ownerUserId: { type: 'uuid', nullable: true },
    maxUses: { type: 'integer' },
    uses: { type: 'integer', default: 0 },
    expiresAt: { ...timestamptz, nullable: true },
    note: { type: 'string', length: 200, nullable: true },
    batchId: { type: 'uuid', nullable: true },
    createdBy: { type: 'string', length: 320 },
    createdAt: timestamptz,
    deactivatedAt: { ...timestamptz, nullable: true },
    deactivatedBy: { type: 'string', length: 320, nullable: true },
    deactivationReason: { type: 'string', length: 300, nullable: true },
  },
});

/** One sign-up through a code: a user signs up once, so at most one row per user. */
export const PlatformInviteUseEntity = new EntitySchema<Record<string, unknown>>({
  name: 'PlatformInviteUse',
  tableName: 'platform_invite_uses',
  uniques: [{ name: 'platform_invite_uses_user_unique', properties: ['userId'] }],
  indexes: [
    { name: 'platform_invite_uses_invite_idx', properties: ['inviteId', 'usedAt'] },
    { name: 'platform_invite_uses_used_idx', properties: ['usedAt', 'id'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    inviteId: { type: 'uuid' },
    userId: { type: 'uuid' },
    usedAt: timestamptz,
  },
});

/** The platform invite tables. */
export const platformInvitesEntities: readonly EntitySchema[] = [PlatformInviteEntity, PlatformInviteUseEntity];
