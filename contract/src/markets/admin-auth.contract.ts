import { z } from 'zod';
import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { TimestampSchema } from '../common/primitives.js';

const tag = 'Admin auth';

export const AdminSchema = z
  .object({
    id: z.string().uuid(),
    email: z.string().email(),
    twoFactorEnabled: z.boolean(),
    createdAt: TimestampSchema,
  })
  .strict();

const AdminSessionSchema = z
  .object({
    status: z.literal('authenticated'),
    token: z.string().describe('Admin JWT (audience duelkit:admin); never accepted on user routes'),
    expiresAt: TimestampSchema,
    admin: AdminSchema,
  })
  .strict();

const TotpCode = z
  .string()
  .regex(/^(\d{6}|[a-z0-9]{5}-[a-z0-9]{5})$/, 'a 6-digit authenticator code or a backup code (xxxxx-xxxxx)');
const BackupCodes = z.array(z.string()).length(10).describe('Single-use backup codes, shown once');

/** §4.16 admin authentication with optional TOTP two-factor authentication. */
export const adminAuthContract = c.router({
  login: {
    method: 'POST',
    path: '/svc/admin/auth/login',
    body: z.object({ email: z.string().email().max(320), password: z.string().min(1).max(200) }).strict(),
    responses: {
      200: z.discriminatedUnion('status', [
        AdminSessionSchema,
        z
          .object({
            status: z.literal('2fa_required'),
            challengeToken: z
              .string()
              .describe('Send as the bearer token of 2fa/verify; valid 5 minutes, for nothing else'),
            expiresAt: TimestampSchema,
          })
          .strict(),
      ]),
    },
    summary: 'Sign in; with two-factor authentication on, returns a challenge for 2fa/verify',
    metadata: meta(tag, '4.16', 'public', { repeatable: true }),
  },
  twoFactorSetup: {
    method: 'POST',
    path: '/svc/admin/auth/2fa/setup',
    body: z.object({}).strict(),
    responses: { 200: z.object({ secret: z.string(), otpauthUri: z.string() }).strict() },
    summary: 'Start two-factor setup: a new TOTP secret (inactive until verify-setup)',
    metadata: meta(tag, '4.16', 'admin', { repeatable: true }),
  },
  twoFactorVerify: {
    method: 'POST',
    path: '/svc/admin/auth/2fa/verify',
    body: z.object({ code: TotpCode }).strict(),
    responses: { 200: AdminSessionSchema },
    summary: 'Complete a two-factor login with a TOTP or backup code (bearer: the challenge token)',
    description:
      'A TOTP code is accepted once (and never after a later one); a backup code once. One challenge yields at most one session: concurrent attempts after the first answer TOKEN_REVOKED. A wrong code (TWO_FACTOR_INVALID) leaves the challenge usable.',
    metadata: meta(tag, '4.16', 'admin', { enforced: 'admin-challenge' }),
  },
  twoFactorVerifySetup: {
    method: 'POST',
    path: '/svc/admin/auth/2fa/verify-setup',
    body: z.object({ code: z.string().regex(/^\d{6}$/) }).strict(),
    responses: { 200: z.object({ enabled: z.literal(true), backupCodes: BackupCodes }).strict() },
    summary: 'Turn two-factor authentication on with a code from the new secret',
    description: 'Ends every other session and challenge of this admin; the calling token stays valid.',
    metadata: meta(tag, '4.16', 'admin'),
  },
  twoFactorDisable: {
    method: 'POST',
    path: '/svc/admin/auth/2fa/disable',
    body: z.object({ code: TotpCode }).strict(),
    responses: { 200: z.object({ enabled: z.literal(false) }).strict() },
    summary: 'Turn two-factor authentication off (needs a current code)',
    description:
      'Takes a TOTP or a backup code. Ends every other session of this admin; the calling token stays valid.',
    metadata: meta(tag, '4.16', 'admin', { repeatable: true }),
  },
  regenerateBackupCodes: {
    method: 'POST',
    path: '/svc/admin/auth/2fa/backup-codes/regenerate',
    body: z.object({ code: z.string().regex(/^\d{6}$/) }).strict(),
    responses: { 200: z.object({ backupCodes: BackupCodes }).strict() },
    summary: 'Replace all backup codes with 10 new ones (needs a current code)',
    description: 'Takes a TOTP code. Ends every other session of this admin; the calling token stays valid.',
    metadata: meta(tag, '4.16', 'admin', { repeatable: true }),
  },
  logout: {
    method: 'DELETE',
    path: '/svc/admin/auth/logout',
    body: null,
    responses: { 200: z.object({ loggedOut: z.literal(true) }).strict() },
    summary: 'Revoke the admin token until it expires',
    metadata: meta(tag, '4.16', 'admin', { repeatable: true }),
  },
  me: {
    method: 'GET',
    path: '/svc/admin/auth/me',
    responses: { 200: AdminSchema },
    summary: 'The signed-in admin',
    metadata: meta(tag, '4.16', 'admin'),
  },
  verify: {
    method: 'GET',
    path: '/svc/admin/auth/verify',
    responses: {
      200: z.object({ valid: z.literal(true), adminId: z.string().uuid(), expiresAt: TimestampSchema }).strict(),
    },
    summary: 'Whether the admin token is valid',
    metadata: meta(tag, '4.16', 'admin'),
  },
});
