import { createHash, randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { authenticator } from 'otplib';
import type { Orm } from '../../platform/db/orm.js';
import { DomainError } from '../../errors.js';
import { AdminEntity, RevokedTokenEntity, type AdminRecord } from './identity.entities.js';
import type { SecretBox } from './secret-box.js';
import type { TokenService } from './token.service.js';

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

export function toAdmin(a: AdminRecord) {
  return { id: a.id, email: a.email, twoFactorEnabled: a.twoFactorEnabled, createdAt: a.createdAt.toISOString() };
}

/** Admin accounts, password login, TOTP two-factor authentication, backup codes, logout. */
export class AdminAuthService {
  constructor(
    private readonly orm: Orm,
    private readonly box: SecretBox,
    private readonly tokens: TokenService,
    private readonly issuerName = 'Duelkit',
  ) {
    authenticator.options = { window: 1 };
  }

  async create(email: string, password: string): Promise<AdminRecord> {
    const em = this.orm.em.fork();
    const admin = em.create(AdminEntity, {
      id: randomUUID(),
      email: email.toLowerCase(),
      passwordHash: await hashPassword(password),
      totpSecretCiphertext: null,
      totpPendingCiphertext: null,
      twoFactorEnabled: false,
      backupCodeHashes: [],
      createdAt: new Date(),
    });
    await em.flush();
    return admin;
  }

  async byId(id: string): Promise<AdminRecord> {
    const admin = await this.orm.em.fork().findOne(AdminEntity, { id });
    if (!admin) throw new DomainError('TOKEN_INVALID', 'The admin no longer exists');
    return admin;
  }

  async login(email: string, password: string) {
    const admin = await this.orm.em.fork().findOne(AdminEntity, { email: email.toLowerCase() });
    const ok = await verifyPassword(password, admin?.passwordHash ?? DUMMY_HASH);
    if (!admin || !ok) throw new DomainError('INVALID_CREDENTIALS', 'Email or password is wrong');
    if (admin.twoFactorEnabled) {
      const { token, expiresAt } = await this.tokens.signAdmin(admin.id, admin.email, true);
      return { status: '2fa_required' as const, challengeToken: token, expiresAt: expiresAt.toISOString() };
    }
    return this.session(admin);
  }

  async session(admin: AdminRecord) {
    const { token, expiresAt } = await this.tokens.signAdmin(admin.id, admin.email, false);
    return { status: 'authenticated' as const, token, expiresAt: expiresAt.toISOString(), admin: toAdmin(admin) };
  }

  /** Completes a two-factor login with a TOTP or an unused backup code (which it consumes). */
  async completeLogin(adminId: string, challengeJti: string, challengeExp: number, code: string) {
    const admin = await this.byId(adminId);
    if (!admin.twoFactorEnabled) throw new DomainError('TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is off');
    await this.checkCode(admin, code, { allowBackup: true });
    await this.revoke(challengeJti, challengeExp);
    return this.session(await this.byId(adminId));
  }

  async setup(adminId: string) {
    const admin = await this.byId(adminId);
    if (admin.twoFactorEnabled)
      throw new DomainError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already on');
    const secret = authenticator.generateSecret(20);
    await this.orm.em
      .fork()
      .nativeUpdate(AdminEntity, { id: adminId }, { totpPendingCiphertext: this.box.seal(secret) });
    return { secret, otpauthUri: authenticator.keyuri(admin.email, this.issuerName, secret) };
  }

  async verifySetup(adminId: string, code: string) {
    const admin = await this.byId(adminId);
    if (admin.twoFactorEnabled)
      throw new DomainError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already on');
    if (!admin.totpPendingCiphertext) throw new DomainError('TWO_FACTOR_NOT_ENABLED', 'Call 2fa/setup first');
    const secret = this.box.open(admin.totpPendingCiphertext);
    if (!authenticator.check(code, secret)) throw new DomainError('TWO_FACTOR_INVALID', 'The code is wrong or expired');
    const backupCodes = newBackupCodes();
    await this.orm.em.fork().nativeUpdate(
      AdminEntity,
      { id: adminId },
      {
        totpSecretCiphertext: admin.totpPendingCiphertext,
        totpPendingCiphertext: null,
        twoFactorEnabled: true,
        backupCodeHashes: backupCodes.map(hashCode),
      },
    );
    return { enabled: true as const, backupCodes };
  }

  async disable(adminId: string, code: string) {
    const admin = await this.byId(adminId);
    if (!admin.twoFactorEnabled) throw new DomainError('TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is off');
    await this.checkCode(admin, code, { allowBackup: true });
    await this.orm.em.fork().nativeUpdate(
      AdminEntity,
      { id: adminId },
      {
        totpSecretCiphertext: null,
        twoFactorEnabled: false,
        backupCodeHashes: [],
      },
    );
    return { enabled: false as const };
  }

  async regenerateBackupCodes(adminId: string, code: string) {
    const admin = await this.byId(adminId);
    if (!admin.twoFactorEnabled) throw new DomainError('TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is off');
    await this.checkCode(admin, code, { allowBackup: false });
    const backupCodes = newBackupCodes();
    await this.orm.em
      .fork()
      .nativeUpdate(AdminEntity, { id: adminId }, { backupCodeHashes: backupCodes.map(hashCode) });
    return { backupCodes };
  }

  async revoke(jti: string, exp: number): Promise<void> {
    await this.orm.em
      .fork()
      .getConnection()
      .execute('insert into revoked_tokens (id, expires_at) values (?, ?) on conflict (id) do nothing', [
        jti,
        new Date(exp * 1000),
      ]);
  }

  async isRevoked(jti: string): Promise<boolean> {
    return (await this.orm.em.fork().count(RevokedTokenEntity, { id: jti })) > 0;
  }

  private async checkCode(admin: AdminRecord, code: string, opts: { allowBackup: boolean }): Promise<void> {
    if (/^\d{6}$/.test(code)) {
      const secret = admin.totpSecretCiphertext ? this.box.open(admin.totpSecretCiphertext) : null;
      if (secret && authenticator.check(code, secret)) return;
      throw new DomainError('TWO_FACTOR_INVALID', 'The code is wrong or expired');
    }
    if (opts.allowBackup) {
      const hash = hashCode(code);
      // Removing the hash in the same statement that checks it makes each backup code single-use.
      const rows = await this.orm.em
        .fork()
        .getConnection()
        .execute<{ id: string }[]>(
          'update admins set backup_code_hashes = array_remove(backup_code_hashes, ?) where id = ? and ? = any(backup_code_hashes) returning id',
          [hash, admin.id, hash],
        );
      if (rows.length) return;
    }
    throw new DomainError('TWO_FACTOR_INVALID', 'The code is wrong or already used');
  }
}
