import type { Orm } from '../../platform/db/orm.js';

/** Why a nonce could not be consumed. */
export type NonceRefusal = 'unknown' | 'used' | 'expired' | 'other-wallet';

/** Single-use Sign-In with Ethereum nonces. */
export class SiweNonceRepository {
  constructor(private readonly orm: Orm) {}

  async insert(nonce: { nonce: string; builderAppId: string; address: string; expiresAt: Date }): Promise<void> {
    await this.orm.em
      .fork()
      .getConnection()
      .execute('insert into auth_nonces (nonce, builder_app_id, address, expires_at) values (?, ?, ?, ?)', [
        nonce.nonce,
        nonce.builderAppId,
        nonce.address,
        nonce.expiresAt,
      ]);
  }

  /**
   * Marks the nonce used when it belongs to this app and address, is unused and unexpired, in one
   * statement, so two logins with one signed message never both pass. Otherwise says why not.
   */
  async consume(nonce: string, builderAppId: string, address: string): Promise<true | NonceRefusal> {
    const rows = await this.orm.em
      .fork()
      .getConnection()
      .execute<{ expired: boolean; used: boolean; spent: string | number }[]>(
        `with spent as (
           update auth_nonces set used_at = now()
            where nonce = ? and builder_app_id = ? and address = ? and used_at is null and expires_at > now()
           returning nonce)
         select (select count(*) from spent) = 0 and n.expires_at <= now() as expired,
                (select count(*) from spent) = 0 and n.used_at is not null as used,
                (select count(*) from spent) as spent
           from auth_nonces n where n.nonce = ?`,
        [nonce, builderAppId, address, nonce],
      );
    const row = rows[0];
    if (!row) return 'unknown';
    if (Number(row.spent) === 1) return true;
    if (row.used) return 'used';
    if (row.expired) return 'expired';
    return 'other-wallet';
  }
}
