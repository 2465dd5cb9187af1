import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Orm } from '../../platform/db/orm.js';
import { sqlIn, type SqlExec } from '../../platform/db/sql.js';
import { UserEntity, UserIdentityEntity, type UserIdentityRecord, type UserRecord } from './identity.entities.js';

/** Which unique rule a new row broke. */
export type UserConflict = 'username' | 'eoa';

/** Users of builder apps and their identity-provider links. */
export class UserRepository {
  constructor(private readonly orm: Orm) {}

  byId(id: string): Promise<UserRecord | null> {
    return this.orm.em.fork().findOne(UserEntity, { id });
  }

  /** `eoa` in its checksummed form, as stored. */
  byEoa(builderAppId: string, eoa: string): Promise<UserRecord | null> {
    return this.orm.em.fork().findOne(UserEntity, { builderAppId, eoaAddress: eoa });
  }

  async usernameTaken(builderAppId: string, usernameLower: string): Promise<boolean> {
    return (await this.orm.em.fork().count(UserEntity, { builderAppId, usernameLower })) > 0;
  }

  /** Inserts a user; a unique rule it breaks comes back as a conflict instead of an exception. */
  async insert(
    user: UserRecord,
    within?: (sql: SqlExec) => Promise<void>,
  ): Promise<UserRecord | { conflict: UserConflict }> {
    try {
      return await this.orm.em.fork().transactional(async (em) => {
        const row = em.create(UserEntity, user);
        await em.flush();
        // Inside the same transaction: a sign-up whose invite use fails is not created.
        if (within) await within(sqlIn(em));
        return row;
      });
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) {
        return { conflict: String(err.message).includes('username') ? 'username' : 'eoa' };
      }
      throw err;
    }
  }

  async setProfileImage(userId: string, url: string): Promise<void> {
    await this.orm.em.fork().nativeUpdate(UserEntity, { id: userId }, { profileImageUrl: url });
  }

  async byIdentity(builderAppId: string, issuer: string, subject: string): Promise<UserRecord | null> {
    const em = this.orm.em.fork();
    const link = await em.findOne(UserIdentityEntity, { builderAppId, issuer, subject });
    return link ? em.findOne(UserEntity, { id: link.userId }) : null;
  }

  /** Links an identity-provider subject; false when that subject is linked already. */
  async linkIdentity(link: UserIdentityRecord): Promise<boolean> {
    const em = this.orm.em.fork();
    em.create(UserIdentityEntity, link);
    try {
      await em.flush();
      return true;
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) return false;
      throw err;
    }
  }
}
