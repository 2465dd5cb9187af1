import { z } from 'zod';
import { AddressSchema, HexSchema, TimestampSchema } from '../common/primitives.js';

/** Usernames: 3–20 characters, letters, digits and `_`, starting with a letter; unique per builder app ignoring case. */
export const UsernameSchema = z
  .string()
  .min(3)
  .max(20)
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'must start with a letter and contain only letters, digits and _')
  .describe('3–20 characters: letters, digits and _, starting with a letter; unique per builder app, case-insensitive');

/** An account of a builder app's user. */
export const UserSchema = z
  .object({
    id: z.string().uuid(),
    address: AddressSchema.describe('Managed wallet address: holds funds and positions'),
    eoaAddress: AddressSchema.nullable().describe('The wallet that signs in, when the account has one'),
    username: z.string().nullable(),
    profileImageUrl: z.string().url().nullable(),
    builderAppId: z.string().uuid(),
    createdAt: TimestampSchema,
  })
  .strict();
export type User = z.infer<typeof UserSchema>;

/** A signed-in session. */
export const SessionSchema = z
  .object({
    exists: z.literal(true),
    token: z.string().describe('User JWT: send as Authorization: Bearer <token>'),
    expiresAt: TimestampSchema,
    user: UserSchema,
  })
  .strict();

export const EoaChallengeRequestSchema = z.object({ address: AddressSchema }).strict();
export const EoaChallengeSchema = z
  .object({
    message: z.string().describe('EIP-4361 (Sign-In with Ethereum) message to sign with personal_sign'),
    nonce: z.string(),
    timestamp: TimestampSchema.describe('When the challenge was issued'),
    domain: z.string(),
    builderAppId: z.string().uuid(),
    expiresAt: TimestampSchema.describe('The nonce is single-use and expires 5 minutes after issue'),
  })
  .strict();

export const SignedMessageSchema = z
  .object({
    message: z.string().min(1).max(4000).describe('The challenge message, unchanged'),
    signature: HexSchema.describe('personal_sign signature of the message'),
  })
  .strict();

export const EoaLoginResponseSchema = z.discriminatedUnion('exists', [
  SessionSchema,
  z
    .object({ exists: z.literal(false) })
    .strict()
    .describe('No account for this wallet yet: register it'),
]);

/** A platform invite code; required when the deployment is invite-only (docs/operations.md, "Invites"). */
const InviteCodeField = z
  .string()
  .regex(/^[A-Za-z0-9_-]{4,64}$/)
  .optional()
  .describe('A platform invite code; required when the deployment is invite-only');

export const EoaRegisterRequestSchema = SignedMessageSchema.extend({
  username: UsernameSchema,
  inviteCode: InviteCodeField,
}).strict();

/** An identity-provider token: an OIDC id_token or a JWT access token. */
const IdpTokenFields = {
  idToken: z.string().min(10).max(8000).optional(),
  accessToken: z.string().min(10).max(8000).optional(),
};
const oneToken = (v: { idToken?: string | undefined; accessToken?: string | undefined }) =>
  Boolean(v.idToken) !== Boolean(v.accessToken);
const ONE_TOKEN = { message: 'send exactly one of idToken or accessToken', path: ['idToken'] };

export const IdpLoginRequestSchema = z.object(IdpTokenFields).strict().refine(oneToken, ONE_TOKEN);
export const IdpRegisterRequestSchema = z
  .object({ ...IdpTokenFields, username: UsernameSchema, inviteCode: InviteCodeField })
  .strict()
  .refine(oneToken, ONE_TOKEN);
export const IdpMigrateRequestSchema = z
  .object({
    ...IdpTokenFields,
    message: SignedMessageSchema.shape.message,
    signature: SignedMessageSchema.shape.signature,
  })
  .strict()
  .refine(oneToken, ONE_TOKEN);
export const IdpLoginResponseSchema = EoaLoginResponseSchema;

export const CheckUsernameQuerySchema = z.object({ username: z.string().min(1).max(100) }).strict();
export const CheckUsernameResponseSchema = z
  .object({
    username: z.string(),
    available: z.boolean(),
    reason: z.enum(['taken', 'invalid', 'reserved']).optional(),
  })
  .strict();

export const ProfileImageRequestSchema = z
  .object({ image: z.unknown().describe('The image file (PNG, JPEG, WebP or GIF, at most 5 MB)') })
  .describe('multipart/form-data with one file field `image`');
export const ProfileImageResponseSchema = z.object({ profileImageUrl: z.string().url() }).strict();

export const SignMessageRequestSchema = z
  .object({
    message: z.union([
      z.string().min(1).max(10_000),
      z.object({ raw: HexSchema }).strict().describe('Raw bytes to sign'),
    ]),
  })
  .strict();
export const SignatureResponseSchema = z
  .object({ address: AddressSchema.describe('Managed wallet that signed'), signature: HexSchema })
  .strict();

const TypedDataField = z.object({ name: z.string().min(1).max(100), type: z.string().min(1).max(100) }).strict();
export const SignTypedDataRequestSchema = z
  .object({
    domain: z
      .object({
        name: z.string().max(200).optional(),
        version: z.string().max(50).optional(),
        chainId: z.number().int().positive().optional(),
        verifyingContract: AddressSchema.optional(),
        salt: HexSchema.optional(),
      })
      .strict(),
    types: z.record(z.string().min(1).max(100), z.array(TypedDataField).max(50)),
    primaryType: z.string().min(1).max(100),
    message: z.record(z.string(), z.unknown()).describe('Values for the primary type; numbers may be decimal strings'),
  })
  .strict();

export const RegisterSimpleRequestSchema = z.object({ address: AddressSchema }).strict();
export const RegisterSimpleResponseSchema = z
  .object({ address: AddressSchema, status: z.enum(['created', 'exists']), user: UserSchema })
  .strict();
export const RegisterBulkRequestSchema = z
  .object({ addresses: z.array(z.string().max(100)).min(1).max(200, 'at most 200 addresses per call') })
  .strict();
export const RegisterBulkResponseSchema = z
  .object({
    results: z.array(
      z
        .object({
          address: z.string(),
          status: z.enum(['created', 'exists', 'invalid']),
          reason: z.string().optional(),
        })
        .strict(),
    ),
    created: z.number().int(),
    existing: z.number().int(),
    invalid: z.number().int(),
  })
  .strict();
export const CheckUserQuerySchema = z.object({ address: AddressSchema }).strict();
export const CheckUserResponseSchema = z.object({ exists: z.boolean(), address: AddressSchema }).strict();
