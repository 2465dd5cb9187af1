import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  CreatePlatformInviteSchema,
  CreatePlatformInvitesBulkSchema,
  DeactivatePlatformInviteSchema,
  InvalidatedInvitesSchema,
  PLATFORM_INVITE_BULK_MAX,
  PlatformInviteAllQuerySchema,
  PlatformInviteBatchSchema,
  PlatformInviteDetailsSchema,
  PlatformInviteIdParamsSchema,
  PlatformInviteListQuerySchema,
  PlatformInvitePageSchema,
  PlatformInviteSchema,
  PlatformInviteUserParamsSchema,
} from './platform-invites.schemas.js';

const tag = 'Admin invites';

/** §4.16 platform invite codes: sign-up gating, owners (referrals), uses (docs/operations.md). */
export const platformInvitesContract = c.router({
  create: {
    method: 'POST',
    path: '/svc/admin/invite/create',
    body: CreatePlatformInviteSchema,
    responses: { 201: PlatformInviteSchema },
    summary: 'Issue one platform invite code (chosen or generated), with max uses, expiry and an owner',
    description:
      'A code admits `maxUses` sign-ups (0 = unlimited) until `expiresAt`. With PLATFORM_INVITE_ONLY=true a sign-up ' +
      'without a usable code is refused. INVITE_CODE_TAKEN (409) for a chosen code that exists (any case); NOT_FOUND ' +
      'for an unknown `ownerUserId`; VALIDATION_FAILED for an `expiresAt` in the past. Send an Idempotency-Key: a ' +
      'replay answers the same code.',
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  createBulk: {
    method: 'POST',
    path: '/svc/admin/invite/create-bulk',
    body: CreatePlatformInvitesBulkSchema,
    responses: { 201: PlatformInviteBatchSchema },
    summary: `Issue up to ${PLATFORM_INVITE_BULK_MAX} generated codes in one transaction (all or none)`,
    description:
      'Every code shares the batch’s settings and `batchId`. NOT_FOUND for an unknown `ownerUserId`; ' +
      'VALIDATION_FAILED for a count above the limit or an `expiresAt` in the past. Send an Idempotency-Key: a replay ' +
      'answers the same batch.',
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  deactivate: {
    method: 'PATCH',
    path: '/svc/admin/invite/:inviteId/deactivate',
    pathParams: PlatformInviteIdParamsSchema,
    body: DeactivatePlatformInviteSchema,
    responses: { 200: PlatformInviteSchema },
    summary: 'Revoke one code: it admits nobody from now on (uses already made stand)',
    description:
      'Deactivating a code that is already deactivated answers it unchanged. INVITE_NOT_FOUND (404) for an unknown id.',
    metadata: meta(tag, '4.16', 'admin', { repeatable: true }),
  },
  invalidateUser: {
    method: 'PATCH',
    path: '/svc/admin/invite/user/:userId/invalidate',
    pathParams: PlatformInviteUserParamsSchema,
    body: DeactivatePlatformInviteSchema,
    responses: { 200: InvalidatedInvitesSchema },
    summary: 'Revoke every code a user owns',
    description: 'NOT_FOUND (404) for an unknown user. A second call deactivates nothing more (`deactivated: 0`).',
    metadata: meta(tag, '4.16', 'admin', { repeatable: true }),
  },
  details: {
    method: 'GET',
    path: '/svc/admin/invite/:inviteId/details',
    pathParams: PlatformInviteIdParamsSchema,
    responses: { 200: PlatformInviteDetailsSchema },
    summary: 'One code with its state and every sign-up made through it',
    description: 'INVITE_NOT_FOUND (404) for an unknown id.',
    metadata: meta(tag, '4.16', 'admin'),
  },
  list: {
    method: 'GET',
    path: '/svc/admin/invite/list',
    query: PlatformInviteListQuerySchema,
    responses: { 200: PlatformInvitePageSchema },
    summary: 'The codes usable now (active, not expired, uses left), newest first',
    description: 'Filter by owner or code prefix.',
    metadata: meta(tag, '4.16', 'admin'),
  },
  all: {
    method: 'GET',
    path: '/svc/admin/invite/all',
    query: PlatformInviteAllQuerySchema,
    responses: { 200: PlatformInvitePageSchema },
    summary: 'Every code whatever its state, newest first',
    description: 'Filter by state, owner or code prefix.',
    metadata: meta(tag, '4.16', 'admin'),
  },
});
