import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { ManualClock } from '../../platform/clock.js';
import type { AdminAuthService } from './admin-auth.service.js';
import { AuthenticationService } from './authentication.service.js';
import type { AdminChallengePrincipal, AdminPrincipal } from './principal.js';
import { TokenService } from './token.service.js';
import type { WalletCredentialVerifier } from './wallet-credential.js';

const T0 = Date.UTC(2026, 5, 1, 12);
const MANAGED = '0x00000000000000000000000000000000000000aa';
const EOA = '0x00000000000000000000000000000000000000bb';

/**
 * Real user tokens on a test clock; the admin side answers by the token's session kind, as
 * AdminAuthService does (its own rules are tested beside it).
 */
function setup() {
  const clock = new ManualClock(T0);
  const tokens = new TokenService('a-user-secret-of-enough-length-0123456', [], 600, 600, clock);
  const challenges = new Set<string>();
  const admins = repositoryMock<AdminAuthService>();
  admins.authenticate.mockImplementation(async (token, purpose) => {
    const claims = await tokens.verifyAdmin(token, challenges.has(token) ? 'duelkit:admin-2fa' : 'duelkit:admin');
    const base = { adminId: claims.sub, email: claims.email, tokenId: claims.jti, expiresAt: claims.exp };
    if (challenges.has(token)) {
      if (purpose !== 'complete-login') throw new Error('the real service refuses this');
      return { kind: 'admin-challenge', ...base } satisfies AdminChallengePrincipal;
    }
    return { kind: 'admin', ...base } satisfies AdminPrincipal;
  });
  const wallets = repositoryMock<WalletCredentialVerifier>();
  const auth = new AuthenticationService(tokens, admins, wallets);
  const adminToken = async (mfaPending = false) => {
    const { token } = await tokens.signAdmin('admin-1', 'ops@duelkit.test', mfaPending);
    if (mfaPending) challenges.add(token);
    return token;
  };
  return { clock, tokens, admins, wallets, auth, adminToken };
}

describe('AuthenticationService', () => {
  it('turns a user token of the requested builder app into its principal', async () => {
    const { auth, tokens } = setup();
    const { token, jti } = await tokens.signUser({ sub: 'u1', bap: 'app-1', address: MANAGED, eoaAddress: EOA });

    expect(await auth.authenticateUser(token, 'app-1')).toEqual({
      kind: 'user',
      userId: 'u1',
      address: MANAGED,
      eoaAddress: EOA,
      builderAppId: 'app-1',
      tokenId: jti,
      expiresAt: T0 / 1000 + 600,
    });
  });

  it('uses the managed address as the EOA of an account without a wallet of its own', async () => {
    const { auth, tokens } = setup();
    const { token } = await tokens.signUser({ sub: 'u1', bap: 'app-1', address: MANAGED, eoaAddress: null });

    expect(await auth.authenticateUser(token, 'app-1')).toMatchObject({ address: MANAGED, eoaAddress: MANAGED });
  });

  it('refuses a user token issued under another builder app with TENANT_MISMATCH', async () => {
    const { auth, tokens } = setup();
    const { token } = await tokens.signUser({ sub: 'u1', bap: 'app-1', address: MANAGED, eoaAddress: null });

    await expect(auth.authenticateUser(token, 'app-2')).rejects.toMatchObject({ code: 'TENANT_MISMATCH' });
    await expect(auth.authenticateBearer(token, 'app-2')).rejects.toMatchObject({ code: 'TENANT_MISMATCH' });
  });

  it('refuses admin tokens, complete or half-way, on user routes with TOKEN_INVALID', async () => {
    const { auth, adminToken } = setup();

    await expect(auth.authenticateUser(await adminToken(), 'app-1')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    await expect(auth.authenticateUser(await adminToken(true), 'app-1')).rejects.toMatchObject({
      code: 'TOKEN_INVALID',
    });
  });

  it('refuses an expired user token with TOKEN_EXPIRED and garbage with TOKEN_INVALID', async () => {
    const { auth, tokens, clock } = setup();
    const { token } = await tokens.signUser({ sub: 'u1', bap: 'app-1', address: MANAGED, eoaAddress: null });

    clock.advance(600_000);

    await expect(auth.authenticateUser(token, 'app-1')).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    await expect(auth.authenticateUser('not.a.jwt', 'app-1')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('on shared routes, takes a user token as the user and an admin session as the admin', async () => {
    const { auth, tokens, adminToken } = setup();
    const { token } = await tokens.signUser({ sub: 'u1', bap: 'app-1', address: MANAGED, eoaAddress: null });

    expect(await auth.authenticateBearer(token, 'app-1')).toMatchObject({ kind: 'user', userId: 'u1' });
    expect(await auth.authenticateBearer(await adminToken(), 'app-1')).toMatchObject({
      kind: 'admin',
      adminId: 'admin-1',
    });
  });

  it('on shared routes, refuses a half-finished admin login with TWO_FACTOR_REQUIRED', async () => {
    const { auth, admins, adminToken } = setup();
    const challenge = await adminToken(true);
    admins.authenticate.mockImplementationOnce((_token, purpose) =>
      purpose === 'session'
        ? Promise.resolve({ kind: 'admin-challenge', adminId: 'admin-1', email: 'e', tokenId: 't', expiresAt: 1 })
        : Promise.reject(new Error('unexpected purpose')),
    );

    await expect(auth.authenticateBearer(challenge, 'app-1')).rejects.toMatchObject({ code: 'TWO_FACTOR_REQUIRED' });
  });

  it('hands wallet credentials to the wallet verifier and admin tokens to the admin rules', async () => {
    const { auth, wallets, adminToken } = setup();
    const principal = { kind: 'wallet' as const, address: EOA, expiresAt: 1 };
    wallets.verify.mockResolvedValue(principal);
    const challenge = await adminToken(true);

    expect(await auth.authenticateWallet({ address: EOA, timestamp: '1', signature: '0x' })).toBe(principal);
    expect(await auth.authenticateAdmin(challenge, 'complete-login')).toMatchObject({ kind: 'admin-challenge' });
  });
});
