import { z } from 'zod';
import { PaginationQuerySchema, paginated } from '../common/pagination.js';
import { AddressSchema, TimestampSchema } from '../common/primitives.js';

/** Largest batch `create-bulk` makes in one call (all or none). */
export const PLATFORM_INVITE_BULK_MAX = 500;

/** A code of 4-64 letters, digits, `_` or `-`; matched without regard to case. */
export const PlatformInviteCodeSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{4,64}$/, '4-64 letters, digits, _ or -')
  .describe('The code a new user signs up with (case-insensitive)');

/**
 * `active`: usable now. `deactivated`: revoked by an admin (deactivate, or invalidate of its owner).
 * `expired`: past `expiresAt`. `exhausted`: `uses` reached `maxUses`.
 */
export const PlatformInviteStateSchema = z.enum(['active', 'deactivated', 'expired', 'exhausted']);

export const PlatformInviteSchema = z
  .object({
    id: z.string().uuid(),
    code: PlatformInviteCodeSchema,
    state: PlatformInviteStateSchema,
    ownerUserId: z
      .string()
      .uuid()
      .nullable()
      .describe('The user the code belongs to (its referrer); null for a house code'),
    maxUses: z.number().int().min(0).describe('Sign-ups the code admits; 0 = unlimited'),
    uses: z.number().int().min(0),
    expiresAt: TimestampSchema.nullable(),
    note: z.string().nullable(),
    batchId: z.string().uuid().nullable().describe('The create-bulk call that made it'),
    createdBy: z.string().describe('The admin who created it (email)'),
    createdAt: TimestampSchema,
    deactivatedAt: TimestampSchema.nullable(),
    deactivationReason: z.string().nullable(),
  })
  .strict();
export type PlatformInvite = z.infer<typeof PlatformInviteSchema>;

const common = {
  ownerUserId: z.string().uuid().optional().describe('The user who owns the code (referrals count through it)'),
  maxUses: z.number().int().min(0).max(1_000_000).default(1).describe('Sign-ups the code admits; 0 = unlimited'),
  expiresAt: TimestampSchema.optional().describe('After this instant the code admits nobody'),
  note: z.string().min(1).max(200).optional(),
};

export const CreatePlatformInviteSchema = z
  .object({
    code: PlatformInviteCodeSchema.optional().describe('A chosen code; omitted, the server generates one'),
    ...common,
  })
  .strict();
export type CreatePlatformInvite = z.infer<typeof CreatePlatformInviteSchema>;

export const CreatePlatformInvitesBulkSchema = z
  .object({
    count: z
      .number()
      .int()
      .min(1)
      .max(PLATFORM_INVITE_BULK_MAX)
      .describe(`How many codes, 1-${PLATFORM_INVITE_BULK_MAX}`),
    prefix: z
      .string()
      .regex(/^[A-Za-z0-9]{1,16}$/)
      .optional()
      .describe('Every generated code starts with it'),
    ...common,
  })
  .strict();
export type CreatePlatformInvitesBulk = z.infer<typeof CreatePlatformInvitesBulkSchema>;

export const PlatformInviteBatchSchema = z
  .object({ batchId: z.string().uuid(), invites: z.array(PlatformInviteSchema) })
  .strict();

export const PlatformInviteIdParamsSchema = z.object({ inviteId: z.string().uuid() }).strict();
export const PlatformInviteUserParamsSchema = z.object({ userId: z.string().uuid() }).strict();

export const DeactivatePlatformInviteSchema = z
  .object({ reason: z.string().min(1).max(300).optional() })
  .strict()
  .optional()
  .default({});

export const InvalidatedInvitesSchema = z
  .object({
    userId: z.string().uuid(),
    deactivated: z
      .number()
      .int()
      .min(0)
      .describe('Codes this call deactivated (already inactive ones are not counted)'),
    invites: z.array(PlatformInviteSchema).describe('Every code the user owns, after the call'),
  })
  .strict();

/** One sign-up through a code. */
export const PlatformInviteUseSchema = z
  .object({
    userId: z.string().uuid(),
    username: z.string().nullable(),
    address: AddressSchema.describe('The new user’s managed wallet'),
    usedAt: TimestampSchema,
  })
  .strict();

export const PlatformInviteDetailsSchema = PlatformInviteSchema.extend({
  usesLog: z.array(PlatformInviteUseSchema).describe('Every sign-up through the code, oldest first'),
}).strict();

export const PlatformInviteListQuerySchema = PaginationQuerySchema.extend({
  ownerUserId: z.string().uuid().optional(),
  code: z.string().max(64).optional().describe('Codes that start with this (case-insensitive)'),
}).strict();

export const PlatformInviteAllQuerySchema = PlatformInviteListQuerySchema.extend({
  state: PlatformInviteStateSchema.optional(),
}).strict();

export const PlatformInvitePageSchema = paginated(PlatformInviteSchema);
