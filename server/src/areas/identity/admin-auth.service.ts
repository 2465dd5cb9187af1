import { createHash, randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { DomainError } from '../../errors.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import type { AdminRepository, TwoFactorProof } from './admin.repository.js';
import type { AdminRecord } from './identity.entities.js';
import type { AdminChallengePrincipal, AdminPrincipal } from './principal.js';
import type { SecretBox } from './secret-box.js';
import { ADMIN_AUDIENCE, ADMIN_MFA_AUDIENCE, TokenService, USER_AUDIENCE } from './token.service.js';
import { newTotpSecret, totpStepOf } from './totp.js';

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** `scrypt$N$r$p$salt$hash`, all parameters stored so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

const hashCode = (code: string) => createHash('sha256').update(code.toLowerCase()).digest('hex');
const newBackupCodes = () =>
  Array.from({ length: 10 }, () => {
    const raw = randomBytes(8).toString('hex').slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });

// Spent for unknown emails too, so response time does not tell which emails exist.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** Sessions that ended this long ago are deleted when an admin signs in. */
const SESSION_RETENTION_MS = 24 * 3_600_000;

export function toAdmin(a: AdminRecord) {
  return { id: a.id, email: a.email, twoFactorEnabled: a.twoFactorEnabled, createdAt: a.createdAt.toISOString() };
}

/** What an admin token is presented for: any admin route, or completing a two-factor login. */
export type AdminTokenPurpose = 'session' | 'complete-login';

const wrongCode = () => new DomainError('TWO_FACTOR_INVALID', 'The code is wrong, expired or already used');

/**
 * Admin accounts, password login, TOTP two-factor authentication, backup codes and sessions.
 * Every admin token is a session row: it authenticates only while the row is live and the admin
 * active (docs/auth.md).
 */
export class AdminAuthService {
  constructor(
    private readonly admins: AdminRepository,
    private readonly box: SecretBox,
    private readonly tokens: TokenService,
    private readonly clock: Clock = systemClock,
    private readonly issuerName = 'Duelkit',
  ) {}

  async create(email: string, password: string): Promise<AdminRecord> {
    return this.admins.insert({
      id: randomUUID(),
      email: email.toLowerCase(),
      passwordHash: await hashPassword(password),
      totpSecretCiphertext: null,
      totpPendingCiphertext: null,
      twoFactorEnabled: false,
      backupCodeHashes: [],
      totpLastStep: null,
      deactivatedAt: null,
      createdAt: new Date(this.clock.now()),
    });
  }

  /** Switches an account off: it cannot sign in, and every token it holds stops working at once. */
  async deactivate(email: string): Promise<boolean> {
    const admin = await this.admins.byEmail(email.toLowerCase());
    if (!admin) return false;
    return this.admins.deactivate(admin.id, new Date(this.clock.now()));
  }

  async byId(id: string): Promise<AdminRecord> {
    const admin = await this.admins.byId(id);
    if (!admin || admin.deactivatedAt) throw new DomainError('TOKEN_INVALID', 'The admin no longer exists');
    return admin;
  }

  /**
   * The admin a token belongs to. Beyond the signature, the token must be a session this server
   * issued, not revoked, whose admin exists and is active; a two-factor challenge is accepted
   * only for completing the login.
   */
  async authenticate(token: string, purpose: AdminTokenPurpose): Promise<AdminPrincipal | AdminChallengePrincipal> {
    const aud = TokenService.audienceOf(token);
    if (aud === USER_AUDIENCE) throw new DomainError('TOKEN_INVALID', 'A user token is not accepted on admin routes');
    if (aud === ADMIN_MFA_AUDIENCE && purpose !== 'complete-login') {
      throw new DomainError('TWO_FACTOR_REQUIRED', 'Complete the login with 2fa/verify first');
    }
    const claims = await this.tokens.verifyAdmin(
      token,
      purpose === 'complete-login' ? ADMIN_MFA_AUDIENCE : ADMIN_AUDIENCE,
    );
    const found = await this.admins.session(claims.jti);
    if (!found || found.session.adminId !== claims.sub) {
      throw new DomainError('TOKEN_INVALID', 'This token was not issued to an existing admin');
    }
    if (found.deactivatedAt) throw new DomainError('TOKEN_REVOKED', 'The admin account is deactivated');
    if (found.session.revokedAt) throw new DomainError('TOKEN_REVOKED', 'This token was logged out or replaced');
    if ((found.session.kind === 'challenge') !== (purpose === 'complete-login')) {
      throw new DomainError('TOKEN_INVALID', 'This token is not accepted here');
    }
    const principal = {
      adminId: found.session.adminId,
      email: found.email,
      tokenId: found.session.id,
      expiresAt: claims.exp,
    };
    return found.session.kind === 'challenge'
      ? { kind: 'admin-challenge', ...principal }
      : { kind: 'admin', ...principal };
  }

  async login(email: string, password: string) {
    const admin = await this.admins.byEmail(email.toLowerCase());
    const ok = await verifyPassword(password, admin?.passwordHash ?? DUMMY_HASH);
    if (!admin || !ok || admin.deactivatedAt)
      throw new DomainError('INVALID_CREDENTIALS', 'Email or password is wrong');
    await this.admins.pruneSessions(new Date(this.clock.now() - SESSION_RETENTION_MS));
    if (admin.twoFactorEnabled) {
      const challenge = await this.issue(admin, 'challenge');
      await this.admins.insertSession(challenge.record);
      return {
        status: '2fa_required' as const,
        challengeToken: challenge.token,
        expiresAt: challenge.record.expiresAt.toISOString(),
      };
    }
    const session = await this.issue(admin, 'session');
    await this.admins.insertSession(session.record);
    return this.sessionBody(admin, session);
  }

  /**
   * Completes a two-factor login with a TOTP code (each time step once) or an unused backup code.
   * The challenge is consumed in the same transaction that spends the code, so one challenge
   * yields at most one session however many requests race with it.
   */
  async completeLogin(challenge: AdminChallengePrincipal, code: string) {
    const admin = await this.byId(challenge.adminId);
    if (!admin.twoFactorEnabled) throw new DomainError('TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is off');
    const proof = this.proofOf(admin, code, { allowBackup: true });
    const session = await this.issue(admin, 'session');
    const outcome = await this.admins.completeChallenge(
      challenge.tokenId,
      admin.id,
      proof,
      session.record,
      new Date(this.clock.now()),
    );
    if (outcome === 'challenge-spent') {
      throw new DomainError('TOKEN_REVOKED', 'This login challenge was already used; sign in again');
    }
    if (outcome === 'proof-refused') throw wrongCode();
    return this.sessionBody(admin, session);
  }

  async setup(adminId: string) {
    const admin = await this.byId(adminId);
    if (admin.twoFactorEnabled)
      throw new DomainError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already on');
    const { secret, otpauthUri } = newTotpSecret(admin.email, this.issuerName);
    await this.admins.setPendingSecret(adminId, this.box.seal(secret));
    return { secret, otpauthUri };
  }

  /**
   * Turns two-factor on. Every other token of the admin ends: a token obtained with the password
   * alone must not outlive the switch to two factors.
   */
  async verifySetup(caller: AdminPrincipal, code: string) {
    const admin = await this.byId(caller.adminId);
    if (admin.twoFactorEnabled)
      throw new DomainError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already on');
    if (!admin.totpPendingCiphertext) throw new DomainError('TWO_FACTOR_NOT_ENABLED', 'Call 2fa/setup first');
    if (totpStepOf(code, this.box.open(admin.totpPendingCiphertext), this.clock.now()) === null) throw wrongCode();
    const backupCodes = newBackupCodes();
    if (!(await this.admins.enableTwoFactor(admin.id, admin.totpPendingCiphertext, backupCodes.map(hashCode)))) {
      throw new DomainError('CONFLICT', 'Two-factor setup changed meanwhile; call 2fa/setup again');
    }
    await this.revokeOthers(caller);
    return { enabled: true as const, backupCodes };
  }

  async disable(caller: AdminPrincipal, code: string) {
    const admin = await this.byId(caller.adminId);
    if (!admin.twoFactorEnabled) throw new DomainError('TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is off');
    await this.spend(admin, code, { allowBackup: true });
    await this.admins.disableTwoFactor(admin.id);
    await this.revokeOthers(caller);
    return { enabled: false as const };
  }

  async regenerateBackupCodes(caller: AdminPrincipal, code: string) {
    const admin = await this.byId(caller.adminId);
    if (!admin.twoFactorEnabled) throw new DomainError('TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is off');
    await this.spend(admin, code, { allowBackup: false });
    const backupCodes = newBackupCodes();
    await this.admins.setBackupCodes(admin.id, backupCodes.map(hashCode));
    await this.revokeOthers(caller);
    return { backupCodes };
  }

  /** Ends the session of this token (logout). */
  async logout(caller: AdminPrincipal): Promise<void> {
    await this.admins.revokeSession(caller.tokenId, new Date(this.clock.now()));
  }

  private async revokeOthers(caller: AdminPrincipal): Promise<void> {
    await this.admins.revokeOtherSessions(caller.adminId, caller.tokenId, new Date(this.clock.now()));
  }

  private async issue(admin: AdminRecord, kind: 'session' | 'challenge') {
    const signed = await this.tokens.signAdmin(admin.id, admin.email, kind === 'challenge');
    return {
      token: signed.token,
      record: {
        id: signed.jti,
        adminId: admin.id,
        kind,
        issuedAt: new Date(this.clock.now()),
        expiresAt: signed.expiresAt,
        revokedAt: null,
      },
    };
  }

  private sessionBody(admin: AdminRecord, session: { token: string; record: { expiresAt: Date } }) {
    return {
      status: 'authenticated' as const,
      token: session.token,
      expiresAt: session.record.expiresAt.toISOString(),
      admin: toAdmin(admin),
    };
  }

  /** A 6-digit code is a TOTP (its time step is the proof); otherwise, where allowed, a backup code. */
  private proofOf(admin: AdminRecord, code: string, opts: { allowBackup: boolean }): TwoFactorProof {
    if (/^\d{6}$/.test(code)) {
      const secret = admin.totpSecretCiphertext ? this.box.open(admin.totpSecretCiphertext) : null;
      const step = secret ? totpStepOf(code, secret, this.clock.now()) : null;
      if (step === null) throw wrongCode();
      return { kind: 'totp', step };
    }
    if (!opts.allowBackup) throw wrongCode();
    return { kind: 'backup', hash: hashCode(code) };
  }

  private async spend(admin: AdminRecord, code: string, opts: { allowBackup: boolean }): Promise<void> {
    if (!(await this.admins.spendProof(admin.id, this.proofOf(admin, code, opts)))) throw wrongCode();
  }
}
