import type { Orm } from '../../platform/db/orm.js';
import { sqlIn, type SqlExec } from '../../platform/db/sql.js';
import { AdminEntity, AdminSessionEntity, type AdminRecord, type AdminSessionRecord } from './identity.entities.js';

/** What proves the second factor: a TOTP time step, or the hash of a backup code. */
export type TwoFactorProof =
  { readonly kind: 'totp'; readonly step: number } | { readonly kind: 'backup'; readonly hash: string };

/** A session row with the state of its admin, as authentication needs it. */
export interface SessionWithAdmin {
  readonly session: AdminSessionRecord;
  readonly email: string;
  readonly deactivatedAt: Date | null;
}

/** How completing a two-factor login went. */
export type ChallengeOutcome = 'completed' | 'challenge-spent' | 'proof-refused';

/**
 * Spends a second-factor proof in one statement: a TOTP step only when it is later than the last
 * one accepted (so a code works once), a backup code by removing its hash.
 */
async function spendProof(sql: SqlExec, adminId: string, proof: TwoFactorProof): Promise<boolean> {
  const rows =
    proof.kind === 'totp'
      ? await sql<{ id: string }>(
          `update admins set totp_last_step = ?
            where id = ? and two_factor_enabled and (totp_last_step is null or totp_last_step < ?) returning id`,
          [proof.step, adminId, proof.step],
        )
      : await sql<{ id: string }>(
          `update admins set backup_code_hashes = array_remove(backup_code_hashes, ?)
            where id = ? and two_factor_enabled and ? = any(backup_code_hashes) returning id`,
          [proof.hash, adminId, proof.hash],
        );
  return rows.length > 0;
}

/** Admin accounts, their second factor and the sessions (admin tokens) issued to them. */
export class AdminRepository {
  constructor(private readonly orm: Orm) {}

  async insert(admin: AdminRecord): Promise<AdminRecord> {
    const em = this.orm.em.fork();
    const row = em.create(AdminEntity, admin);
    await em.flush();
    return row;
  }

  byId(id: string): Promise<AdminRecord | null> {
    return this.orm.em.fork().findOne(AdminEntity, { id });
  }

  byEmail(email: string): Promise<AdminRecord | null> {
    return this.orm.em.fork().findOne(AdminEntity, { email });
  }

  async setPendingSecret(adminId: string, ciphertext: string): Promise<void> {
    await this.orm.em.fork().nativeUpdate(AdminEntity, { id: adminId }, { totpPendingCiphertext: ciphertext });
  }

  /**
   * Turns two-factor on with the pending secret, only if it is still the one the code was checked
   * against and two-factor is still off; false otherwise.
   */
  async enableTwoFactor(
    adminId: string,
    pendingCiphertext: string,
    backupCodeHashes: readonly string[],
  ): Promise<boolean> {
    const updated = await this.orm.em.fork().nativeUpdate(
      AdminEntity,
      { id: adminId, twoFactorEnabled: false, totpPendingCiphertext: pendingCiphertext },
      {
        totpSecretCiphertext: pendingCiphertext,
        totpPendingCiphertext: null,
        twoFactorEnabled: true,
        backupCodeHashes: [...backupCodeHashes],
        totpLastStep: null,
      },
    );
    return updated > 0;
  }

  async disableTwoFactor(adminId: string): Promise<void> {
    await this.orm.em
      .fork()
      .nativeUpdate(
        AdminEntity,
        { id: adminId },
        { totpSecretCiphertext: null, twoFactorEnabled: false, backupCodeHashes: [], totpLastStep: null },
      );
  }

  async setBackupCodes(adminId: string, hashes: readonly string[]): Promise<void> {
    await this.orm.em.fork().nativeUpdate(AdminEntity, { id: adminId }, { backupCodeHashes: [...hashes] });
  }

  /** Spends a second-factor proof; false when it was wrong, used already or two-factor is off. */
  spendProof(adminId: string, proof: TwoFactorProof): Promise<boolean> {
    return spendProof(sqlIn(this.orm.em.fork()), adminId, proof);
  }

  /** Deactivates the account and ends all its sessions, in one transaction. */
  async deactivate(adminId: string, at: Date): Promise<boolean> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      const rows = await sql<{ id: string }>(
        'update admins set deactivated_at = ? where id = ? and deactivated_at is null returning id',
        [at, adminId],
      );
      await sql('update admin_sessions set revoked_at = ? where admin_id = ? and revoked_at is null', [at, adminId]);
      return rows.length > 0;
    });
  }

  // ---- sessions ----

  async insertSession(session: AdminSessionRecord): Promise<void> {
    const em = this.orm.em.fork();
    em.create(AdminSessionEntity, session);
    await em.flush();
  }

  async session(id: string): Promise<SessionWithAdmin | null> {
    const rows = await sqlIn(this.orm.em.fork())<{
      id: string;
      admin_id: string;
      kind: 'session' | 'challenge';
      issued_at: Date;
      expires_at: Date;
      revoked_at: Date | null;
      email: string;
      deactivated_at: Date | null;
    }>(
      `select s.id, s.admin_id, s.kind, s.issued_at, s.expires_at, s.revoked_at, a.email, a.deactivated_at
         from admin_sessions s join admins a on a.id = s.admin_id
        where s.id = ?`,
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      session: {
        id: row.id,
        adminId: row.admin_id,
        kind: row.kind,
        issuedAt: new Date(row.issued_at),
        expiresAt: new Date(row.expires_at),
        revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
      },
      email: row.email,
      deactivatedAt: row.deactivated_at ? new Date(row.deactivated_at) : null,
    };
  }

  async revokeSession(id: string, at: Date): Promise<void> {
    await sqlIn(this.orm.em.fork())('update admin_sessions set revoked_at = ? where id = ? and revoked_at is null', [
      at,
      id,
    ]);
  }

  /** Ends every live session and challenge of the admin except `keep`; returns how many. */
  async revokeOtherSessions(adminId: string, keep: string, at: Date): Promise<number> {
    const rows = await sqlIn(this.orm.em.fork())<{ id: string }>(
      `update admin_sessions set revoked_at = ?
        where admin_id = ? and id <> ? and revoked_at is null and expires_at > ? returning id`,
      [at, adminId, keep, at],
    );
    return rows.length;
  }

  /** Drops rows of sessions that ended more than a day ago; they can no longer authenticate anyway. */
  async pruneSessions(before: Date): Promise<void> {
    await sqlIn(this.orm.em.fork())('delete from admin_sessions where expires_at < ?', [before]);
  }

  /**
   * Completes a two-factor login atomically: with the challenge row locked, spends the proof,
   * consumes the challenge and records the new session. Concurrent attempts with one challenge
   * wait on the lock, so exactly one of them completes; a refused proof leaves the challenge usable.
   */
  async completeChallenge(
    challengeId: string,
    adminId: string,
    proof: TwoFactorProof,
    next: AdminSessionRecord,
    at: Date,
  ): Promise<ChallengeOutcome> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      const live = await sql<{ id: string }>(
        `select id from admin_sessions
          where id = ? and admin_id = ? and kind = 'challenge' and revoked_at is null and expires_at > ?
          for update`,
        [challengeId, adminId, at],
      );
      if (!live.length) return 'challenge-spent';
      if (!(await spendProof(sql, adminId, proof))) return 'proof-refused';
      await sql('update admin_sessions set revoked_at = ? where id = ?', [at, challengeId]);
      await sql(
        'insert into admin_sessions (id, admin_id, kind, issued_at, expires_at, revoked_at) values (?, ?, ?, ?, ?, null)',
        [next.id, next.adminId, next.kind, next.issuedAt, next.expiresAt],
      );
      return 'completed';
    });
  }
}
