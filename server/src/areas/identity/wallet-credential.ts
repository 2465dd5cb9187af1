import { createHash } from 'node:crypto';
import { getAddress, isAddress, verifyMessage, type Hex } from 'viem';
import { DomainError } from '../../errors.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import type { WalletPrincipal } from './principal.js';
import type { WalletCredentialRepository } from './wallet-credential.repository.js';

export const WALLET_CREDENTIAL_WINDOW_MS = 5 * 60_000;

/** The order of secp256k1: `s` and `n − s` sign the same message, one with each recovery bit. */
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_ORDER = CURVE_ORDER >> 1n;

/** The fixed message a wallet signs (EIP-191) for the tournaments host. */
export function walletLoginMessage(address: string, timestampMs: number | string): string {
  return `Duelkit Login\nTimestamp: ${timestampMs}\nWallet: ${getAddress(address)}`;
}

/**
 * The one canonical encoding of a 65-byte `r ‖ s ‖ v` signature: low `s` (EIP-2) and `v` 27/28.
 * `v` may come as 0/1 or 27/28; a high `s` is folded to `n − s` with the recovery bit flipped,
 * which recovers the same signer. Null for anything that is not such a signature.
 */
export function canonicalSignature(signature: string): Hex | null {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return null;
  const r = BigInt(`0x${signature.slice(2, 66)}`);
  let s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130), 16);
  let parity = v === 0 || v === 27 ? 0 : v === 1 || v === 28 ? 1 : -1;
  if (parity < 0 || r === 0n || r >= CURVE_ORDER || s === 0n || s >= CURVE_ORDER) return null;
  if (s > HALF_ORDER) {
    s = CURVE_ORDER - s;
    parity ^= 1;
  }
  const word = (n: bigint) => n.toString(16).padStart(64, '0');
  return `0x${word(r)}${word(s)}${parity ? '1c' : '1b'}`;
}

/** What a caller sends in the `x-wallet-*` headers. */
export interface WalletCredential {
  readonly address: string;
  readonly signature: string;
  readonly timestamp: string;
}

/**
 * Verifies a wallet credential: a signature of the fixed message within 5 minutes of the server
 * clock. Each (address, timestamp) is accepted once: the replay record is keyed on what was
 * signed, not on the signature bytes, so re-encoding a signature never makes it new.
 */
export class WalletCredentialVerifier {
  constructor(
    private readonly used: WalletCredentialRepository,
    private readonly clock: Clock = systemClock,
  ) {}

  async verify(credential: WalletCredential): Promise<WalletPrincipal> {
    const { address, timestamp } = credential;
    const fail = (why: string) => new DomainError('WALLET_CREDENTIAL_INVALID', `Wallet credential rejected: ${why}`);
    if (!isAddress(address, { strict: false })) throw fail('x-wallet-address is not an address');
    if (!/^\d{13}$/.test(timestamp)) throw fail('x-wallet-timestamp must be milliseconds since the epoch');
    const ts = Number(timestamp);
    const now = this.clock.now();
    if (Math.abs(now - ts) > WALLET_CREDENTIAL_WINDOW_MS) throw fail('the timestamp is outside the 5-minute window');
    const signature = canonicalSignature(credential.signature);
    if (!signature) throw fail('x-wallet-signature must be a 65-byte hex signature (r, s, v)');
    const signer = getAddress(address);
    const ok = await verifyMessage({
      address: signer,
      message: walletLoginMessage(signer, timestamp),
      signature,
    }).catch(() => false);
    if (!ok) throw fail('the signature does not match');
    const expiresAt = new Date(ts + WALLET_CREDENTIAL_WINDOW_MS);
    const id = createHash('sha256').update(`${signer}|${timestamp}`).digest('hex');
    if (!(await this.used.markUsed(id, expiresAt)))
      throw fail('this credential was already used; sign a new timestamp');
    return { kind: 'wallet', address: signer, expiresAt: Math.floor(expiresAt.getTime() / 1000) };
  }
}
