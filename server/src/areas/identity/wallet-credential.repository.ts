import type { Orm } from '../../platform/db/orm.js';

/** Wallet credentials already accepted, remembered until their window closes. */
export class WalletCredentialRepository {
  constructor(private readonly orm: Orm) {}

  /** Records a credential as used; false when it was recorded before (a replay). */
  async markUsed(id: string, expiresAt: Date): Promise<boolean> {
    const rows = await this.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string }[]>(
        'insert into used_wallet_credentials (id, expires_at) values (?, ?) on conflict (id) do nothing returning id',
        [id, expiresAt],
      );
    return rows.length > 0;
  }

  /** Forgets credentials whose window closed before `before`: they are refused as stale anyway. */
  async prune(before: Date): Promise<void> {
    await this.orm.em
      .fork()
      .getConnection()
      .execute('delete from used_wallet_credentials where expires_at < ?', [before]);
  }
}
