import { z } from 'zod';
import { c } from '../common/contract.js';
import { AddressSchema } from '../common/primitives.js';
import { meta } from '../common/route-meta.js';
import { RequestReportRowSchema } from './reports.schemas.js';

/** A user's request; `kind` says which fields it carries. */
export const CreatePlatformRequestSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('creator'),
      message: z.string().min(1).max(1_000).describe('Why the user wants to create markets'),
    })
    .strict(),
  z
    .object({
      kind: z.literal('league'),
      leagueId: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,100}$/)
        .describe('The league (a duel `leagueId`) to join'),
      message: z.string().min(1).max(1_000).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('token'),
      tokenName: z.string().min(1).max(60),
      tokenSymbol: z.string().regex(/^[A-Z0-9]{2,11}$/, '2-11 capital letters or digits'),
      message: z.string().min(1).max(1_000).optional(),
    })
    .strict(),
]);

export const PlatformRequestSchema = RequestReportRowSchema;

export const DecidePlatformRequestSchema = z
  .object({
    decision: z.enum(['approve', 'reject']),
    reason: z.string().min(1).max(500).optional().describe('Required to reject'),
    tokenAddress: AddressSchema.optional().describe('A token request: where the launched token lives'),
  })
  .strict();

const extension =
  'Documented extension (docs/operations.md, "Requests"): the spec lists the creator-, league- and token-request ' +
  'reports but no route that writes them.';

/** Creator, league and token requests: the records three §4.16 reports list (documented extension). */
export const platformRequestsContract = c.router({
  create: {
    method: 'POST',
    path: '/svc/user/requests',
    body: CreatePlatformRequestSchema,
    responses: { 201: PlatformRequestSchema },
    summary: 'Ask to become a creator, to join a league or to launch a token',
    description:
      `${extension} One pending request per user, kind and subject: another is a 409 CONFLICT with ` +
      '`details.requestId`. Send an Idempotency-Key: a replay answers the same request.',
    metadata: meta('Requests', '4.16', 'bearer', { idempotent: true, extension: true }),
  },
  decide: {
    method: 'POST',
    path: '/svc/admin/requests/:requestId/decision',
    pathParams: z.object({ requestId: z.string().uuid() }).strict(),
    body: DecidePlatformRequestSchema,
    responses: { 200: PlatformRequestSchema },
    summary:
      'Approve or reject a pending request (an approved league request admits the user, a token one records the launch)',
    description:
      `${extension} Decided once: a second decision is a 409 INVALID_STATE with \`details.status\`. ` +
      'VALIDATION_FAILED to reject without a reason; NOT_FOUND for an unknown id.',
    metadata: meta('Requests', '4.16', 'admin', { idempotent: true, extension: true }),
  },
});
