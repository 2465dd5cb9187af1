import { z } from 'zod';
import { ErrorCodeSchema } from '../common/errors.js';
import { PaginationQuerySchema, paginated } from '../common/pagination.js';
import { AddressSchema, DuelIdSchema, TimestampSchema, TxHashSchema } from '../common/primitives.js';
import { CreateDuelRequestSchema, DuelSchema } from './duels.schemas.js';
import {
  InvitationStatusSchema,
  InviteCodeSchema,
  InviteRejectionSchema,
  MaxUsesSchema,
} from './invitations.schemas.js';

export const GroupKindSchema = z
  .enum(['multi', 'pack'])
  .describe('multi (related questions shown together) or pack (a bundle picked as one)');

/** One sub-market of a parent: a CreateDuel body whose category and privacy default to the parent's. */
export const ParentChildRequestSchema = CreateDuelRequestSchema.extend({
  category: z.string().trim().min(1).max(50).optional().describe('Default: the parent’s category'),
  isPrivate: z
    .boolean()
    .optional()
    .describe('Default: the parent’s privacy. A private parent has private children only'),
}).strict();

export const CreateParentMarketRequestSchema = z
  .object({
    question: z.string().trim().min(3).max(200).describe('The parent question, e.g. "Who wins the 2026 final?"'),
    description: z.string().trim().max(2_000).optional(),
    category: z.string().trim().min(1).max(50),
    tags: z.array(z.string().trim().min(1).max(40)).max(10).optional(),
    coverImageUrl: z.string().url().max(2_000).optional(),
    isPrivate: z.boolean().default(false).describe('A private parent is seen by its creator and members only'),
    groupKind: GroupKindSchema.default('multi'),
    markets: z.array(ParentChildRequestSchema).min(1).max(20).describe('1–20 sub-markets, created in order'),
  })
  .strict();

/** What happened to one requested sub-market. */
export const ChildResultSchema = z.discriminatedUnion('status', [
  z
    .object({
      index: z.number().int().min(0).describe('Position in the request’s `markets`'),
      status: z.literal('created'),
      duelId: DuelIdSchema,
      txHash: TxHashSchema,
    })
    .strict(),
  z
    .object({
      index: z.number().int().min(0),
      status: z.literal('failed'),
      code: ErrorCodeSchema,
      message: z.string(),
    })
    .strict(),
]);

export const CreateParentMarketResponseSchema = z
  .object({
    parentMarketId: z.string().uuid(),
    results: z.array(ChildResultSchema).describe('One entry per requested sub-market, in request order'),
    createdCount: z.number().int().min(1),
    failedCount: z.number().int().min(0),
  })
  .strict();

/** A parent market with the sub-markets the caller may see. */
export const ParentMarketSchema = z
  .object({
    id: z.string().uuid(),
    question: z.string(),
    description: z.string().nullable(),
    category: z.string(),
    tags: z.array(z.string()),
    coverImageUrl: z.string().nullable(),
    isPrivate: z.boolean(),
    groupKind: GroupKindSchema,
    creatorAddress: AddressSchema,
    createdAt: TimestampSchema,
    duels: z.array(DuelSchema).describe('Sub-markets visible to the caller, oldest first'),
    hiddenDuelCount: z.number().int().min(0).describe('Private sub-markets the caller may not see'),
  })
  .strict();

export const ParentIdParamsSchema = z.object({ id: z.string().uuid().describe('Parent market id') }).strict();

export const ParentGetQuerySchema = z
  .object({
    userAddress: AddressSchema.optional().describe(
      'Adds `userParticipated` to every sub-market; it never grants visibility',
    ),
  })
  .strict();

export const AddChildRequestSchema = ParentChildRequestSchema;

export const AddChildResponseSchema = z
  .object({
    parentMarketId: z.string().uuid(),
    duelId: DuelIdSchema,
    txHash: TxHashSchema,
    chainState: z.literal('pending'),
    memberGrants: z
      .object({ granted: z.number().int().min(0), failed: z.number().int().min(0) })
      .strict()
      .describe('Existing parent members added to a new private sub-market on chain (platform-signed)'),
  })
  .strict();

export const CreateParentInvitationRequestSchema = z
  .object({
    parentMarketId: z.string().uuid(),
    inviteCode: InviteCodeSchema.optional().describe('Your own code; leave it out for a generated one (80 bits)'),
    maxUses: MaxUsesSchema.default(0),
    expiresAt: TimestampSchema.nullable().optional().describe('In the future; null or absent = never'),
  })
  .strict();

export const ParentInvitationSchema = z
  .object({
    parentMarketId: z.string().uuid(),
    inviteCode: InviteCodeSchema,
    maxUses: MaxUsesSchema,
    uses: z.number().int().min(0),
    remainingUses: z.number().int().min(0).nullable().describe('null when unlimited'),
    expiresAt: TimestampSchema.nullable(),
    revokedAt: TimestampSchema.nullable(),
    status: InvitationStatusSchema,
    createdAt: TimestampSchema,
  })
  .strict();

export const JoinParentRequestSchema = z.object({ inviteCode: InviteCodeSchema }).strict();

export const JoinParentResponseSchema = z
  .object({
    parentMarketId: z.string().uuid(),
    userAddress: AddressSchema,
    duels: z
      .array(
        z
          .object({
            duelId: DuelIdSchema,
            result: z
              .enum(['added', 'already_member', 'failed'])
              .describe('added: the platform added you on chain (accepted, not final)'),
            txHash: TxHashSchema.nullable(),
            error: z.object({ code: ErrorCodeSchema, message: z.string() }).strict().nullable(),
          })
          .strict(),
      )
      .describe('Every private sub-market of the parent'),
  })
  .strict();

export const ParentInvitationsResponseSchema = z
  .object({ parentMarketId: z.string().uuid(), invitations: z.array(ParentInvitationSchema) })
  .strict();

export const ParentMembersResponseSchema = z
  .object({
    parentMarketId: z.string().uuid(),
    members: z.array(
      z
        .object({
          userAddress: AddressSchema,
          via: z.enum(['creator', 'invite']),
          joinedAt: TimestampSchema,
        })
        .strict(),
    ),
  })
  .strict();

export const ValidateParentInviteRequestSchema = JoinParentRequestSchema;

export const ValidateParentInviteResponseSchema = z.discriminatedUnion('valid', [
  z
    .object({
      valid: z.literal(true),
      parentMarketId: z.string().uuid(),
      question: z.string(),
      privateDuelCount: z.number().int().min(0),
      maxUses: MaxUsesSchema,
      uses: z.number().int().min(0),
      remainingUses: z.number().int().min(0).nullable(),
      expiresAt: TimestampSchema.nullable(),
    })
    .strict(),
  z.object({ valid: z.literal(false), reason: InviteRejectionSchema }).strict(),
]);

export const AccessibleQuerySchema = PaginationQuerySchema.strict();
export const AccessibleResponseSchema = paginated(ParentMarketSchema);
