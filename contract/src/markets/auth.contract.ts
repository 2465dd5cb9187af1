import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  CheckUsernameQuerySchema,
  CheckUsernameResponseSchema,
  EoaChallengeRequestSchema,
  EoaChallengeSchema,
  EoaLoginResponseSchema,
  EoaRegisterRequestSchema,
  IdpLoginRequestSchema,
  IdpLoginResponseSchema,
  IdpMigrateRequestSchema,
  IdpRegisterRequestSchema,
  ProfileImageRequestSchema,
  ProfileImageResponseSchema,
  SessionSchema,
  SignedMessageSchema,
} from './auth.schemas.js';

const tag = 'User auth';

/** §4.1 user sign-in: SIWE challenge/login/register, identity-provider tokens, username, profile image. */
export const authContract = c.router({
  eoaChallenge: {
    method: 'POST',
    path: '/svc/user/auth/eoa/challenge',
    body: EoaChallengeRequestSchema,
    responses: { 200: EoaChallengeSchema },
    summary: 'Get a Sign-In with Ethereum message bound to this builder app and domain',
    description:
      'Step 1 of the wallet sign-in: sign the `message` with personal_sign and send it to eoa/login (or eoa/register). ' +
      'The nonce is single-use and expires after 5 minutes. A malformed address is a 400 VALIDATION_FAILED.',
    metadata: meta(tag, '4.1', 'public', { repeatable: true }),
  },
  eoaLogin: {
    method: 'POST',
    path: '/svc/user/auth/eoa/login',
    body: SignedMessageSchema,
    responses: { 200: EoaLoginResponseSchema },
    summary: 'Sign in with a signed challenge; `exists: false` when the wallet has no account yet',
    description:
      'Refusals: SIGNATURE_INVALID (401) when the message is not a challenge of this app or the signature does not ' +
      'match, NONCE_EXPIRED (401) after 5 minutes, NONCE_REUSED (401) for a challenge already used: ask for a new one.',
    metadata: meta(tag, '4.1', 'public'),
  },
  eoaRegister: {
    method: 'POST',
    path: '/svc/user/auth/eoa/register',
    body: EoaRegisterRequestSchema,
    responses: { 201: SessionSchema },
    summary: 'Create an account (and its managed wallet) for a signed challenge',
    metadata: meta(tag, '4.1', 'public', { idempotent: true }),
  },
  idpLogin: {
    method: 'POST',
    path: '/svc/user/auth/idp/login',
    body: IdpLoginRequestSchema,
    responses: { 200: IdpLoginResponseSchema },
    summary: 'Sign in with an identity-provider token',
    metadata: meta(tag, '4.1', 'public', { repeatable: true }),
  },
  idpRegister: {
    method: 'POST',
    path: '/svc/user/auth/idp/register',
    body: IdpRegisterRequestSchema,
    responses: { 201: SessionSchema },
    summary: 'Create an account for an identity-provider identity',
    metadata: meta(tag, '4.1', 'public', { idempotent: true }),
  },
  idpMigrate: {
    method: 'POST',
    path: '/svc/user/auth/idp/migrate',
    body: IdpMigrateRequestSchema,
    responses: { 200: SessionSchema },
    summary: 'Link an identity-provider identity to the wallet account that signed the challenge',
    description: 'See docs/auth.md: proves both the identity (token) and the wallet (signed challenge).',
    metadata: meta(tag, '4.1', 'public'),
  },
  checkUsername: {
    method: 'GET',
    path: '/svc/user/auth/check-username',
    query: CheckUsernameQuerySchema,
    responses: { 200: CheckUsernameResponseSchema },
    summary: 'Whether a username can be registered in this builder app',
    metadata: meta(tag, '4.1', 'public'),
  },
  profileImage: {
    method: 'POST',
    path: '/svc/user/auth/profile-image',
    contentType: 'multipart/form-data',
    body: ProfileImageRequestSchema,
    responses: { 200: ProfileImageResponseSchema },
    summary: "Upload the caller's profile image (PNG, JPEG, WebP or GIF; at most 5 MB)",
    metadata: meta(tag, '4.1', 'bearer', { repeatable: true }),
  },
});
