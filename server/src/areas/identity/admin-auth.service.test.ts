import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { ManualClock } from '../../platform/clock.js';
import type { AdminRepository, TwoFactorProof } from './admin.repository.js';
import { AdminAuthService } from './admin-auth.service.js';
import type { AdminRecord, AdminSessionRecord } from './identity.entities.js';
import type { AdminPrincipal } from './principal.js';
import { SecretBox } from './secret-box.js';
import { TokenService } from './token.service.js';
import { totpCodeAt } from './totp.js';

const T0 = Date.UTC(2026, 5, 1, 12);
const PASSWORD = 'correct horse battery staple';
const ADMIN_TTL_SECONDS = 3_600;

/**
 * The stored format with a cheap cost: the parameters travel with the hash, so verification runs
 * at this cost instead of the production one (hundreds of milliseconds per check).
 */
function cheapHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: 16, r: 8, p: 1 });
  return ['scrypt', 16, 8, 1, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

const sha256 = (code: string) => createHash('sha256').update(code.toLowerCase()).digest('hex');

/** Admins and sessions in memory, changed by the same conditions the repository's statements apply. */
function setup() {
  const clock = new ManualClock(T0);
  const box = new SecretBox(Buffer.alloc(32, 7));
  const tokens = new TokenService('an-admin-secret-of-enough-length-0123', [], 60, ADMIN_TTL_SECONDS, clock);
  const admins = new Map<string, AdminRecord>();
  const sessions = new Map<string, AdminSessionRecord>();
  const repo = repositoryMock<AdminRepository>();

  const spend = (adminId: string, proof: TwoFactorProof): boolean => {
    const a = admins.get(adminId);
    if (!a?.twoFactorEnabled) return false;
    if (proof.kind === 'totp') {
      if (a.totpLastStep !== null && a.totpLastStep >= proof.step) return false;
      a.totpLastStep = proof.step;
      return true;
    }
    if (!a.backupCodeHashes.includes(proof.hash)) return false;
    a.backupCodeHashes = a.backupCodeHashes.filter((h) => h !== proof.hash);
    return true;
  };

  repo.byId.mockImplementation((id) => Promise.resolve(admins.has(id) ? { ...admins.get(id)! } : null));
  repo.byEmail.mockImplementation((email) =>
    Promise.resolve([...admins.values()].find((a) => a.email === email) ?? null),
  );
  repo.setPendingSecret.mockImplementation((id, ciphertext) => {
    admins.get(id)!.totpPendingCiphertext = ciphertext;
    return Promise.resolve();
  });
  repo.enableTwoFactor.mockImplementation((id, pending, hashes) => {
    const a = admins.get(id);
    if (!a || a.twoFactorEnabled || a.totpPendingCiphertext !== pending) return Promise.resolve(false);
    Object.assign(a, {
      totpSecretCiphertext: pending,
      totpPendingCiphertext: null,
      twoFactorEnabled: true,
      backupCodeHashes: [...hashes],
      totpLastStep: null,
    });
    return Promise.resolve(true);
  });
  repo.disableTwoFactor.mockImplementation((id) => {
    Object.assign(admins.get(id)!, {
      totpSecretCiphertext: null,
      twoFactorEnabled: false,
      backupCodeHashes: [],
      totpLastStep: null,
    });
    return Promise.resolve();
  });
  repo.setBackupCodes.mockImplementation((id, hashes) => {
    admins.get(id)!.backupCodeHashes = [...hashes];
    return Promise.resolve();
  });
  repo.spendProof.mockImplementation((id, proof) => Promise.resolve(spend(id, proof)));
  repo.deactivate.mockImplementation((id, at) => {
    const a = admins.get(id);
    if (!a || a.deactivatedAt) return Promise.resolve(false);
    a.deactivatedAt = at;
    for (const s of sessions.values()) if (s.adminId === id) s.revokedAt ??= at;
    return Promise.resolve(true);
  });
  repo.insertSession.mockImplementation((s) => {
    sessions.set(s.id, { ...s });
    return Promise.resolve();
  });
  repo.session.mockImplementation((id) => {
    const s = sessions.get(id);
    const a = s && admins.get(s.adminId);
    return Promise.resolve(s && a ? { session: { ...s }, email: a.email, deactivatedAt: a.deactivatedAt } : null);
  });
  repo.revokeSession.mockImplementation((id, at) => {
    const s = sessions.get(id);
    if (s) s.revokedAt ??= at;
    return Promise.resolve();
  });
  repo.revokeOtherSessions.mockImplementation((adminId, keep, at) => {
    let n = 0;
    for (const s of sessions.values()) {
      if (s.adminId === adminId && s.id !== keep && !s.revokedAt && s.expiresAt > at) {
        s.revokedAt = at;
        n++;
      }
    }
    return Promise.resolve(n);
  });
  repo.pruneSessions.mockImplementation((before) => {
    for (const [id, s] of sessions) if (s.expiresAt < before) sessions.delete(id);
    return Promise.resolve();
  });
  repo.completeChallenge.mockImplementation((challengeId, adminId, proof, next, at) => {
    const c = sessions.get(challengeId);
    if (!c || c.adminId !== adminId || c.kind !== 'challenge' || c.revokedAt || c.expiresAt <= at) {
      return Promise.resolve('challenge-spent' as const);
    }
    if (!spend(adminId, proof)) return Promise.resolve('proof-refused' as const);
    c.revokedAt = at;
    sessions.set(next.id, { ...next });
    return Promise.resolve('completed' as const);
  });

  const service = new AdminAuthService(repo, box, tokens, clock, 'Duelkit Test');

  const seed = (email = 'ops@duelkit.test', over: Partial<AdminRecord> = {}): AdminRecord => {
    const record: AdminRecord = {
      id: `admin-${admins.size + 1}`,
      email,
      passwordHash: cheapHash(PASSWORD),
      totpSecretCiphertext: null,
      totpPendingCiphertext: null,
      twoFactorEnabled: false,
      backupCodeHashes: [],
      totpLastStep: null,
      deactivatedAt: null,
      createdAt: new Date(T0),
      ...over,
    };
    admins.set(record.id, record);
    return record;
  };

  /** Signs in with the password alone and answers the session principal. */
  const signIn = async (email = 'ops@duelkit.test'): Promise<{ token: string; principal: AdminPrincipal }> => {
    const body = await service.login(email, PASSWORD);
    if (body.status !== 'authenticated') throw new Error('expected a session');
    const principal = await service.authenticate(body.token, 'session');
    if (principal.kind !== 'admin') throw new Error('expected an admin');
    return { token: body.token, principal };
  };

  /** Turns two-factor on through setup and verification; answers the TOTP secret and backup codes. */
  const enrol = async (caller: AdminPrincipal) => {
    const { secret } = await service.setup(caller.adminId);
    const { backupCodes } = await service.verifySetup(caller, totpCodeAt(secret, clock.now()));
    return { secret, backupCodes };
  };

  return { clock, tokens, repo, admins, sessions, service, seed, signIn, enrol };
}

describe('AdminAuthService', () => {
  describe('password login', () => {
    it('issues a session token that authenticates as the admin, recorded as a live session', async () => {
      const { service, seed, sessions } = setup();
      const admin = seed('ops@duelkit.test');

      const body = await service.login('OPS@duelkit.test', PASSWORD);

      expect(body).toMatchObject({
        status: 'authenticated',
        expiresAt: new Date(T0 + ADMIN_TTL_SECONDS * 1000).toISOString(),
        admin: { id: admin.id, email: 'ops@duelkit.test', twoFactorEnabled: false },
      });
      if (body.status !== 'authenticated') throw new Error('unreachable');
      const principal = await service.authenticate(body.token, 'session');
      expect(principal).toMatchObject({ kind: 'admin', adminId: admin.id, email: 'ops@duelkit.test' });
      expect(sessions.get(principal.tokenId)).toMatchObject({
        adminId: admin.id,
        kind: 'session',
        issuedAt: new Date(T0),
        revokedAt: null,
      });
    });

    it('refuses a wrong password, and the right password of a deactivated admin, with INVALID_CREDENTIALS', async () => {
      const { service, seed, sessions } = setup();
      seed('ops@duelkit.test');
      seed('gone@duelkit.test', { deactivatedAt: new Date(T0 - 1) });

      await expect(service.login('ops@duelkit.test', 'wrong')).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
      await expect(service.login('gone@duelkit.test', PASSWORD)).rejects.toMatchObject({
        code: 'INVALID_CREDENTIALS',
      });
      expect(sessions.size).toBe(0);
    });

    it('deletes sessions that ended more than a day ago when an admin signs in, and keeps younger ones', async () => {
      const { service, seed, sessions } = setup();
      const admin = seed();
      const ended = (id: string, msAgo: number) =>
        sessions.set(id, {
          id,
          adminId: admin.id,
          kind: 'session',
          issuedAt: new Date(T0 - msAgo - 1),
          expiresAt: new Date(T0 - msAgo),
          revokedAt: null,
        });
      ended('old', 24 * 3_600_000 + 1);
      ended('recent', 24 * 3_600_000 - 1);

      await service.login('ops@duelkit.test', PASSWORD);

      expect(sessions.has('old')).toBe(false);
      expect(sessions.has('recent')).toBe(true);
    });
  });

  describe('authenticate', () => {
    it('refuses a token whose session was logged out with TOKEN_REVOKED', async () => {
      const { service, seed, signIn } = setup();
      seed();
      const { token, principal } = await signIn();

      await service.logout(principal);

      await expect(service.authenticate(token, 'session')).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
    });

    it('ends every token of an admin the moment it is deactivated', async () => {
      const { service, seed, signIn } = setup();
      seed();
      const { token } = await signIn();

      expect(await service.deactivate('OPS@duelkit.test')).toBe(true);

      await expect(service.authenticate(token, 'session')).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
      await expect(service.login('ops@duelkit.test', PASSWORD)).rejects.toMatchObject({
        code: 'INVALID_CREDENTIALS',
      });
      expect(await service.deactivate('nobody@duelkit.test')).toBe(false);
    });

    it('refuses a well-signed token with no session row, or a row of another admin, with TOKEN_INVALID', async () => {
      const { service, seed, signIn, sessions, tokens } = setup();
      seed();
      seed('other@duelkit.test');
      const { token, principal } = await signIn();
      const foreign = await tokens.signAdmin('admin-2', 'other@duelkit.test', false);
      sessions.set(foreign.jti, { ...sessions.get(principal.tokenId)!, id: foreign.jti, adminId: 'admin-1' });

      await expect(service.authenticate(foreign.token, 'session')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
      sessions.clear();
      await expect(service.authenticate(token, 'session')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    });

    it('refuses a user token on admin routes with TOKEN_INVALID', async () => {
      const { service, tokens } = setup();
      const { token } = await tokens.signUser({ sub: 'u1', bap: 'app', address: '0x01', eoaAddress: null });

      await expect(service.authenticate(token, 'session')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    });

    it('refuses a session token where a login challenge is expected with TOKEN_INVALID', async () => {
      const { service, seed, signIn } = setup();
      seed();
      const { token } = await signIn();

      await expect(service.authenticate(token, 'complete-login')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    });

    it('refuses a token past its expiry with TOKEN_EXPIRED', async () => {
      const { service, seed, signIn, clock } = setup();
      seed();
      const { token } = await signIn();

      clock.advance(ADMIN_TTL_SECONDS * 1000);

      await expect(service.authenticate(token, 'session')).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    });

    it('refuses the token of an admin that no longer exists in byId with TOKEN_INVALID', async () => {
      const { service, seed } = setup();
      seed('gone@duelkit.test', { deactivatedAt: new Date(T0) });

      await expect(service.byId('admin-1')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
      await expect(service.byId('admin-9')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    });
  });

  describe('two-factor login', () => {
    it('answers a challenge that only 2fa/verify accepts, then one session for the current code', async () => {
      const { service, seed, signIn, enrol, clock, sessions } = setup();
      seed();
      const { secret } = await enrol((await signIn()).principal);
      clock.advance(30_000);

      const first = await service.login('ops@duelkit.test', PASSWORD);
      expect(first).toMatchObject({
        status: '2fa_required',
        expiresAt: new Date(clock.now() + 300_000).toISOString(),
      });
      if (first.status !== '2fa_required') throw new Error('unreachable');
      await expect(service.authenticate(first.challengeToken, 'session')).rejects.toMatchObject({
        code: 'TWO_FACTOR_REQUIRED',
      });
      const challenge = await service.authenticate(first.challengeToken, 'complete-login');
      expect(challenge.kind).toBe('admin-challenge');
      if (challenge.kind !== 'admin-challenge') throw new Error('unreachable');

      const done = await service.completeLogin(challenge, totpCodeAt(secret, clock.now()));

      expect(done).toMatchObject({ status: 'authenticated', admin: { twoFactorEnabled: true } });
      expect(await service.authenticate(done.token, 'session')).toMatchObject({ kind: 'admin' });
      expect(sessions.get(challenge.tokenId)?.revokedAt).toEqual(new Date(clock.now()));
      await expect(service.completeLogin(challenge, totpCodeAt(secret, clock.now() + 30_000))).rejects.toMatchObject({
        code: 'TOKEN_REVOKED',
      });
    });

    it('accepts a TOTP code once per time step; a refused code leaves the challenge usable', async () => {
      const { service, seed, signIn, enrol, clock } = setup();
      seed();
      const { secret } = await enrol((await signIn()).principal);
      clock.advance(30_000);
      const code = totpCodeAt(secret, clock.now());

      await service.completeLogin(await challengeFor(service), code);
      const second = await challengeFor(service);
      await expect(service.completeLogin(second, code)).rejects.toMatchObject({ code: 'TWO_FACTOR_INVALID' });

      clock.advance(30_000);
      await expect(service.completeLogin(second, totpCodeAt(secret, clock.now()))).resolves.toMatchObject({
        status: 'authenticated',
      });
    });

    it('accepts each backup code once, in any case, and refuses a wrong code without spending the challenge', async () => {
      const { service, seed, signIn, enrol } = setup();
      seed();
      const { backupCodes } = await enrol((await signIn()).principal);
      const backup = backupCodes[0]!;

      const c1 = await challengeFor(service);
      await expect(service.completeLogin(c1, '000000')).rejects.toMatchObject({ code: 'TWO_FACTOR_INVALID' });
      await expect(service.completeLogin(c1, backup.toUpperCase())).resolves.toMatchObject({
        status: 'authenticated',
      });
      await expect(service.completeLogin(await challengeFor(service), backup)).rejects.toMatchObject({
        code: 'TWO_FACTOR_INVALID',
      });
    });

    it('refuses a challenge past its five minutes with TOKEN_EXPIRED', async () => {
      const { service, seed, signIn, enrol, clock } = setup();
      seed();
      await enrol((await signIn()).principal);
      const body = await service.login('ops@duelkit.test', PASSWORD);
      if (body.status !== '2fa_required') throw new Error('expected a challenge');

      clock.advance(300_000);

      await expect(service.authenticate(body.challengeToken, 'complete-login')).rejects.toMatchObject({
        code: 'TOKEN_EXPIRED',
      });
    });

    it('refuses to complete a login once two-factor was switched off with TWO_FACTOR_NOT_ENABLED', async () => {
      const { service, seed, signIn, enrol, admins } = setup();
      seed();
      await enrol((await signIn()).principal);
      const body = await service.login('ops@duelkit.test', PASSWORD);
      if (body.status !== '2fa_required') throw new Error('expected a challenge');
      const challenge = await service.authenticate(body.challengeToken, 'complete-login');
      if (challenge.kind !== 'admin-challenge') throw new Error('expected a challenge');
      admins.get('admin-1')!.twoFactorEnabled = false;

      await expect(service.completeLogin(challenge, '123456')).rejects.toMatchObject({
        code: 'TWO_FACTOR_NOT_ENABLED',
      });
    });
  });

  describe('two-factor setup', () => {
    it('turns two-factor on with a code of the pending secret, with ten backup codes, ending every other token', async () => {
      const { service, seed, signIn, clock, admins, sessions } = setup();
      seed();
      const { principal } = await signIn();
      const other = await signIn();
      const { secret, otpauthUri } = await service.setup(principal.adminId);
      expect(otpauthUri).toContain('Duelkit%20Test');

      await expect(service.verifySetup(principal, '000000')).rejects.toMatchObject({ code: 'TWO_FACTOR_INVALID' });
      expect(admins.get('admin-1')?.twoFactorEnabled).toBe(false);

      const result = await service.verifySetup(principal, totpCodeAt(secret, clock.now()));

      expect(result.enabled).toBe(true);
      expect(result.backupCodes).toHaveLength(10);
      expect(new Set(result.backupCodes).size).toBe(10);
      for (const code of result.backupCodes) expect(code).toMatch(/^[0-9a-f]{5}-[0-9a-f]{5}$/);
      expect(admins.get('admin-1')).toMatchObject({
        twoFactorEnabled: true,
        totpPendingCiphertext: null,
        backupCodeHashes: result.backupCodes.map(sha256),
      });
      expect(sessions.get(other.principal.tokenId)?.revokedAt).toEqual(new Date(T0));
      expect(sessions.get(principal.tokenId)?.revokedAt).toBeNull();
    });

    it('refuses verification before setup with TWO_FACTOR_NOT_ENABLED, and setup when already on with TWO_FACTOR_ALREADY_ENABLED', async () => {
      const { service, seed, signIn, enrol } = setup();
      seed();
      const { principal } = await signIn();

      await expect(service.verifySetup(principal, '123456')).rejects.toMatchObject({
        code: 'TWO_FACTOR_NOT_ENABLED',
      });
      await enrol(principal);
      await expect(service.setup(principal.adminId)).rejects.toMatchObject({ code: 'TWO_FACTOR_ALREADY_ENABLED' });
      await expect(service.verifySetup(principal, '123456')).rejects.toMatchObject({
        code: 'TWO_FACTOR_ALREADY_ENABLED',
      });
    });

    it('refuses with CONFLICT when the pending secret changed between the check and the switch', async () => {
      const { service, repo, seed, signIn, clock, admins } = setup();
      seed();
      const { principal } = await signIn();
      const { secret } = await service.setup(principal.adminId);
      const code = totpCodeAt(secret, clock.now());
      // A second setup lands right after verifySetup read the admin.
      const read = { ...admins.get('admin-1')! };
      repo.byId.mockImplementationOnce(async (id) => {
        await service.setup(id);
        return read;
      });

      await expect(service.verifySetup(principal, code)).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(admins.get('admin-1')?.twoFactorEnabled).toBe(false);
    });
  });

  describe('with two-factor on', () => {
    it('switches two-factor off for a valid code and ends the other tokens; off twice is TWO_FACTOR_NOT_ENABLED', async () => {
      const { service, seed, signIn, enrol, clock, admins } = setup();
      seed();
      const { principal } = await signIn();
      const { secret } = await enrol(principal);
      const other = (await service.completeLogin(await challengeFor(service), totpCodeAt(secret, clock.now()))).token;
      clock.advance(30_000);

      await expect(service.disable(principal, '000000')).rejects.toMatchObject({ code: 'TWO_FACTOR_INVALID' });
      expect(await service.disable(principal, totpCodeAt(secret, clock.now()))).toEqual({ enabled: false });

      expect(admins.get('admin-1')).toMatchObject({ twoFactorEnabled: false, totpSecretCiphertext: null });
      await expect(service.authenticate(other, 'session')).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
      await expect(service.disable(principal, '123456')).rejects.toMatchObject({ code: 'TWO_FACTOR_NOT_ENABLED' });
    });

    it('regenerates backup codes only for a TOTP code: the old codes stop working, the new ones work', async () => {
      const { service, seed, signIn, enrol, clock } = setup();
      seed();
      const { principal } = await signIn();
      const { secret, backupCodes: old } = await enrol(principal);
      clock.advance(30_000);

      await expect(service.regenerateBackupCodes(principal, old[0]!)).rejects.toMatchObject({
        code: 'TWO_FACTOR_INVALID',
      });
      const { backupCodes } = await service.regenerateBackupCodes(principal, totpCodeAt(secret, clock.now()));

      expect(backupCodes).toHaveLength(10);
      await expect(service.completeLogin(await challengeFor(service), old[1]!)).rejects.toMatchObject({
        code: 'TWO_FACTOR_INVALID',
      });
      await expect(service.completeLogin(await challengeFor(service), backupCodes[0]!)).resolves.toMatchObject({
        status: 'authenticated',
      });
    });

    it('refuses to regenerate backup codes while two-factor is off with TWO_FACTOR_NOT_ENABLED', async () => {
      const { service, seed, signIn } = setup();
      seed();
      const { principal } = await signIn();

      await expect(service.regenerateBackupCodes(principal, '123456')).rejects.toMatchObject({
        code: 'TWO_FACTOR_NOT_ENABLED',
      });
    });
  });
});

/** A fresh login challenge of the seeded admin. */
async function challengeFor(service: AdminAuthService) {
  const body = await service.login('ops@duelkit.test', PASSWORD);
  if (body.status !== '2fa_required') throw new Error('expected a challenge');
  const c = await service.authenticate(body.challengeToken, 'complete-login');
  if (c.kind !== 'admin-challenge') throw new Error('expected a challenge');
  return c;
}
