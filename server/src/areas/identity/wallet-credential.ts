import { createHash } from 'node:crypto';
import { getAddress, isAddress, verifyMessage, type Hex } from 'viem';
import type { Orm } from '../../platform/db/orm.js';
import { DomainError } from '../../errors.js';

export const WALLET_CREDENTIAL_WINDOW_MS = 5 * 60_000;

/** The fixed message a wallet signs (EIP-191) for the tournaments host. */
export function walletLoginMessage(address: string, timestampMs: number | string): string {
  return `Duelkit Login\nTimestamp: ${timestampMs}\nWallet: ${getAddress(address)}`;
}

/**
 * Verifies `x-wallet-address`, `x-wallet-signature`, `x-wallet-timestamp`: a signature of the
 * fixed message within 5 minutes of the server clock, each credential accepted once.
 */
export class WalletCredentialVerifier {
  constructor(private readonly orm: Orm) {}

  async verify(address: string, signature: string, timestamp: string): Promise<{ address: string; expiresAt: Date }> {
    const fail = (why: string) => new DomainError('WALLET_CREDENTIAL_INVALID', `Wallet credential rejected: ${why}`);
    if (!isAddress(address, { strict: false })) throw fail('x-wallet-address is not an address');
    if (!/^\d{13}$/.test(timestamp)) throw fail('x-wallet-timestamp must be milliseconds since the epoch');
    const ts = Number(timestamp);
    if (Math.abs(Date.now() - ts) > WALLET_CREDENTIAL_WINDOW_MS)
      throw fail('the timestamp is outside the 5-minute window');
    const ok = await verifyMessage({
      address: getAddress(address),
      message: walletLoginMessage(address, timestamp),
      signature: signature as Hex,
    }).catch(() => false);
    if (!ok) throw fail('the signature does not match');
    const expiresAt = new Date(ts + WALLET_CREDENTIAL_WINDOW_MS);
    const id = createHash('sha256')
      .update(`${getAddress(address)}|${signature.toLowerCase()}`)
      .digest('hex');
    const rows = await this.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string }[]>(
        'insert into used_wallet_credentials (id, expires_at) values (?, ?) on conflict (id) do nothing returning id',
        [id, expiresAt],
      );
    if (!rows.length) throw fail('this credential was already used; sign a new timestamp');
    return { address: getAddress(address), expiresAt };
  }
}
