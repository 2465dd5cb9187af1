import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../platform/clock.js';
import {
  canonicalSignature,
  walletLoginMessage,
  WalletCredentialVerifier,
  WALLET_CREDENTIAL_WINDOW_MS,
} from './wallet-credential.js';
import type { WalletCredentialRepository } from './wallet-credential.repository.js';

const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The same signature with `s` replaced by `n − s` and the recovery bit flipped. */
function malleate(signature: string): string {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130), 16);
  return `${signature.slice(0, 66)}${(CURVE_ORDER - s).toString(16).padStart(64, '0')}${v === 27 ? '1c' : '1b'}`;
}

/** `v` as 0/1 instead of 27/28. */
const zeroBasedV = (signature: string) => `${signature.slice(0, 130)}${signature.endsWith('1b') ? '00' : '01'}`;

class MemoryUsed {
  readonly ids = new Set<string>();
  markUsed(id: string): Promise<boolean> {
    if (this.ids.has(id)) return Promise.resolve(false);
    this.ids.add(id);
    return Promise.resolve(true);
  }
}

async function codeOf(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (err) {
    return err instanceof DomainError ? err.code : 'other';
  }
}

describe('canonicalSignature', () => {
  it('maps every encoding of one signature to the same low-s, v=27/28 form', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signature = await account.signMessage({ message: 'hello' });
    const canonical = canonicalSignature(signature);
    expect(canonical).toBe(signature.toLowerCase());
    expect(canonicalSignature(zeroBasedV(signature))).toBe(canonical);
    expect(canonicalSignature(malleate(signature))).toBe(canonical);
    expect(canonicalSignature(zeroBasedV(malleate(signature)))).toBe(canonical);
  });

  it('refuses what is not a 65-byte signature, a bad v, and r or s out of range', async () => {
    const signature = await privateKeyToAccount(generatePrivateKey()).signMessage({ message: 'x' });
    expect(canonicalSignature(signature.slice(0, 130))).toBeNull();
    expect(canonicalSignature(`${signature.slice(0, 130)}1d`)).toBeNull();
    expect(canonicalSignature(`0x${'0'.repeat(64)}${signature.slice(66)}`)).toBeNull();
    expect(canonicalSignature(`${signature.slice(0, 66)}${CURVE_ORDER.toString(16)}1b`)).toBeNull();
    expect(canonicalSignature('not hex')).toBeNull();
  });
});

describe('WalletCredentialVerifier', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 24, 12));

  async function credential(at = clock.now()) {
    const account = privateKeyToAccount(generatePrivateKey());
    const timestamp = String(at);
    const signature = await account.signMessage({ message: walletLoginMessage(account.address, timestamp) });
    return { address: account.address, timestamp, signature };
  }

  it('accepts a fresh credential once; a re-encoded signature of it is a replay', async () => {
    const verifier = new WalletCredentialVerifier(new MemoryUsed() as unknown as WalletCredentialRepository, clock);
    const c = await credential();
    const principal = await verifier.verify(c);
    expect(principal).toEqual({
      kind: 'wallet',
      address: c.address,
      expiresAt: Math.floor((clock.now() + WALLET_CREDENTIAL_WINDOW_MS) / 1000),
    });
    for (const signature of [c.signature, zeroBasedV(c.signature), malleate(c.signature)]) {
      expect(await codeOf(verifier.verify({ ...c, signature }))).toBe('WALLET_CREDENTIAL_INVALID');
    }
  });

  it('accepts a high-s signature as the same credential it malleates', async () => {
    const verifier = new WalletCredentialVerifier(new MemoryUsed() as unknown as WalletCredentialRepository, clock);
    const c = await credential();
    expect((await verifier.verify({ ...c, signature: malleate(c.signature) })).address).toBe(c.address);
    expect(await codeOf(verifier.verify(c))).toBe('WALLET_CREDENTIAL_INVALID');
  });

  it('refuses stale timestamps, another signer and a lower-case address signed as checksummed', async () => {
    const verifier = new WalletCredentialVerifier(new MemoryUsed() as unknown as WalletCredentialRepository, clock);
    expect(await codeOf(verifier.verify(await credential(clock.now() - WALLET_CREDENTIAL_WINDOW_MS - 1)))).toBe(
      'WALLET_CREDENTIAL_INVALID',
    );
    const c = await credential();
    const other = await credential();
    expect(await codeOf(verifier.verify({ ...c, signature: other.signature }))).toBe('WALLET_CREDENTIAL_INVALID');
    expect((await verifier.verify({ ...c, address: c.address.toLowerCase() })).address).toBe(c.address);
  });
});
