import { z } from 'zod';
import { PaginationQuerySchema, paginated } from '../common/pagination.js';
import { AddressSchema, DuelIdSchema, HexSchema, TimestampSchema, TxHashSchema } from '../common/primitives.js';

/**
 * An invitation code as people type and share it. Case-sensitive; the chain stores only its
 * keccak256 hash (of the UTF-8 bytes).
 */
export const InviteCodeSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{4,64}$/, 'must be 4–64 characters of A–Z, a–z, 0–9, - and _')
  .describe('Invite code: 4–64 characters of A–Z, a–z, 0–9, - and _ (case-sensitive)');

/** Why a code cannot be used (validate-invite) and the invitation states behind it. */
export const InviteRejectionSchema = z
  .enum(['expired', 'exhausted', 'revoked', 'unknown'])
  .describe('expired (past expiresAt), exhausted (maxUses reached), revoked, unknown (no such code)');

export const InvitationStatusSchema = z
  .enum(['active', 'expired', 'exhausted', 'revoked'])
  .describe('active (usable now), expired, exhausted (maxUses reached) or revoked');

export const MaxUsesSchema = z
  .number()
  .int()
  .min(0)
  .max(1_000_000)
  .describe('How many joins the code allows; 0 = unlimited');

const RemainingUsesSchema = z
  .number()
  .int()
  .min(0)
  .nullable()
  .describe('Joins left before the code is exhausted; null when unlimited');

/** How an address became a member of a private market. */
export const MembershipViaSchema = z
  .enum(['creator', 'invite', 'added', 'parent'])
  .describe(
    'creator (from creation), invite (joined with a code), added (by the creator), parent (parent-market invite)',
  );

const MembershipChainStateSchema = z
  .enum(['pending', 'confirmed'])
  .describe('pending until the indexer has seen the chain event; confirmed afterwards');

/** An invitation to a private duel as its creator sees it. */
export const InvitationSchema = z
  .object({
    inviteCode: InviteCodeSchema.nullable().describe(
      'The code; null for an invitation created directly on chain (only its hash is known)',
    ),
    codeHash: HexSchema.describe('keccak256 of the UTF-8 code: what a frontend passes to join(duelId, codeHash)'),
    duelId: DuelIdSchema,
    maxUses: MaxUsesSchema,
    uses: z.number().int().min(0).describe('Joins recorded through this service'),
    remainingUses: RemainingUsesSchema,
    expiresAt: TimestampSchema.nullable().describe('null = never expires'),
    revokedAt: TimestampSchema.nullable(),
    status: InvitationStatusSchema,
    createdBy: AddressSchema.nullable().describe('Managed wallet that created it; null when created on chain directly'),
    createdAt: TimestampSchema,
    txHash: TxHashSchema.nullable().describe('Transaction that created it on chain'),
    chainState: MembershipChainStateSchema,
  })
  .strict();
export type InvitationDto = z.infer<typeof InvitationSchema>;

export const CreateInvitationRequestSchema = z
  .object({
    duelId: DuelIdSchema.describe('A private duel you created'),
    inviteCode: InviteCodeSchema.optional().describe(
      'Your own code; leave it out for a generated one (16 base32 characters, 80 bits). Codes are unique service-wide',
    ),
    maxUses: MaxUsesSchema.default(0),
    expiresAt: TimestampSchema.nullable()
      .optional()
      .describe('When the code stops working (in the future); null or absent = never'),
  })
  .strict();

/** A user joins a private duel with a code. */
export const JoinRequestSchema = z
  .object({
    inviteCode: InviteCodeSchema,
    duelId: DuelIdSchema.optional().describe('When given, the code must belong to this duel'),
  })
  .strict();

/** The membership of one address in one private duel. */
export const MembershipSchema = z
  .object({
    duelId: DuelIdSchema,
    userAddress: AddressSchema,
    via: MembershipViaSchema,
    joinedAt: TimestampSchema,
    txHash: TxHashSchema.nullable().describe('Transaction that made the address a member; null for the creator'),
    chainState: MembershipChainStateSchema,
  })
  .strict();
export type MembershipDto = z.infer<typeof MembershipSchema>;

export const MemberMutationRequestSchema = z
  .object({
    duelId: DuelIdSchema.describe('A private duel you created'),
    memberAddress: AddressSchema.describe('Managed wallet address of the member'),
  })
  .strict();

export const RemoveMemberResponseSchema = z
  .object({
    duelId: DuelIdSchema,
    userAddress: AddressSchema,
    removed: z.literal(true),
    txHash: TxHashSchema.describe('Accepted, not final'),
  })
  .strict();

export const SyncJoinRequestSchema = z
  .object({
    duelId: DuelIdSchema,
    txHash: TxHashSchema.describe('The join transaction the frontend sent; it must be mined and successful'),
  })
  .strict();

export const RevokeRequestSchema = z
  .object({
    inviteCode: InviteCodeSchema,
    duelId: DuelIdSchema.optional().describe('When given, the code must belong to this duel'),
  })
  .strict();

export const RevokeResponseSchema = z
  .object({
    inviteCode: InviteCodeSchema,
    duelId: DuelIdSchema,
    revokedAt: TimestampSchema,
    txHash: TxHashSchema.nullable().describe('The revocation on chain; null when the code was already revoked'),
  })
  .strict();

export const ValidateInviteRequestSchema = JoinRequestSchema;

export const ValidateInviteResponseSchema = z.discriminatedUnion('valid', [
  z
    .object({
      valid: z.literal(true),
      duelId: DuelIdSchema,
      maxUses: MaxUsesSchema,
      uses: z.number().int().min(0),
      remainingUses: RemainingUsesSchema,
      expiresAt: TimestampSchema.nullable(),
    })
    .strict(),
  z.object({ valid: z.literal(false), reason: InviteRejectionSchema }).strict(),
]);

export const MembershipParamsSchema = z.object({ duelId: DuelIdSchema, userAddress: AddressSchema }).strict();
export const UserAddressParamsSchema = z.object({ userAddress: AddressSchema }).strict();
export const InviteCodeParamsSchema = z.object({ inviteCode: InviteCodeSchema }).strict();

export const MembershipCheckSchema = z
  .object({
    duelId: DuelIdSchema,
    userAddress: AddressSchema,
    isMember: z.boolean().describe('Public duels: always true (everyone may trade them)'),
    isCreator: z.boolean(),
    source: z
      .enum(['database', 'chain', 'public'])
      .describe('database (a recorded membership), chain (fallback read of the contract) or public (not private)'),
  })
  .strict();

export const MembershipsQuerySchema = PaginationQuerySchema.strict();
export const MembershipsResponseSchema = paginated(MembershipSchema);

export const DuelInvitationsResponseSchema = z
  .object({
    duelId: DuelIdSchema,
    activeCount: z.number().int().min(0).describe('Active (usable) invitations'),
    codesVisible: z
      .boolean()
      .describe('True for the creator (bearer token sent): `invitations` lists the codes. Otherwise only the count'),
    invitations: z.array(InvitationSchema).describe('Active invitations with their codes; empty unless codesVisible'),
  })
  .strict();

/** What the contract stores for a code, plus the duel it belongs to. */
export const OnChainInvitationSchema = z
  .object({
    inviteCode: InviteCodeSchema,
    codeHash: HexSchema,
    duelId: DuelIdSchema,
    exists: z.boolean().describe('False while the creating transaction is not yet mined'),
    maxUses: MaxUsesSchema,
    uses: z.number().int().min(0).describe('Joins counted on chain'),
    remainingUses: RemainingUsesSchema,
    expiresAt: TimestampSchema.nullable(),
    revoked: z.boolean(),
    status: InvitationStatusSchema,
  })
  .strict();
