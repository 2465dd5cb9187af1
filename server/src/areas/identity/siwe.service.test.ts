import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { ManualClock } from '../../platform/clock.js';
import type { SiweNonceRepository } from './siwe-nonce.repository.js';
import { SiweService } from './siwe.service.js';

const SETTINGS = { domain: 'app.duelkit.test', uri: 'https://app.duelkit.test', chainId: 31337, nonceTtlSeconds: 300 };
const alice = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const bob = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

interface NonceRow {
  builderAppId: string;
  address: string;
  expiresAt: Date;
  used: boolean;
}

/** Nonces in memory, consumed by the same rules the repository's statement applies, against the test clock. */
function setup() {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  const rows = new Map<string, NonceRow>();
  const nonces = repositoryMock<SiweNonceRepository>();
  nonces.insert.mockImplementation((n) => {
    rows.set(n.nonce, { builderAppId: n.builderAppId, address: n.address, expiresAt: n.expiresAt, used: false });
    return Promise.resolve();
  });
  nonces.consume.mockImplementation((nonce, builderAppId, address) => {
    const row = rows.get(nonce);
    if (!row) return Promise.resolve('unknown' as const);
    if (row.used) return Promise.resolve('used' as const);
    if (row.expiresAt.getTime() <= clock.now()) return Promise.resolve('expired' as const);
    if (row.builderAppId !== builderAppId || row.address !== address) return Promise.resolve('other-wallet' as const);
    row.used = true;
    return Promise.resolve(true as const);
  });
  return { clock, rows, siwe: new SiweService(nonces, SETTINGS, clock) };
}

describe('SiweService', () => {
  it('issues a challenge bound to the domain and app, expiring after the TTL, and verifies its signature once', async () => {
    const { siwe, rows } = setup();
    const challenge = await siwe.challenge('app-1', alice.address.toLowerCase());

    expect(challenge).toMatchObject({
      domain: SETTINGS.domain,
      builderAppId: 'app-1',
      timestamp: '2026-06-01T12:00:00.000Z',
      expiresAt: '2026-06-01T12:05:00.000Z',
    });
    expect(challenge.message).toContain('urn:duelkit:builder-app:app-1');
    expect(rows.get(challenge.nonce)).toMatchObject({ address: getAddress(alice.address), used: false });

    const signature = await alice.signMessage({ message: challenge.message });
    expect(await siwe.verify('app-1', challenge.message, signature)).toBe(getAddress(alice.address));
    await expect(siwe.verify('app-1', challenge.message, signature)).rejects.toMatchObject({
      code: 'NONCE_REUSED',
    });
  });

  it('refuses a challenge once the clock passes its expiry with NONCE_EXPIRED', async () => {
    const { siwe, clock } = setup();
    const challenge = await siwe.challenge('app-1', alice.address);
    const signature = await alice.signMessage({ message: challenge.message });

    clock.advance(300_000);

    await expect(siwe.verify('app-1', challenge.message, signature)).rejects.toMatchObject({
      code: 'NONCE_EXPIRED',
    });
  });

  it('still accepts a challenge a moment before it expires', async () => {
    const { siwe, clock } = setup();
    const challenge = await siwe.challenge('app-1', alice.address);
    const signature = await alice.signMessage({ message: challenge.message });

    clock.advance(299_000);

    expect(await siwe.verify('app-1', challenge.message, signature)).toBe(getAddress(alice.address));
  });

  it('refuses a challenge issued to another builder app with TENANT_MISMATCH', async () => {
    const { siwe } = setup();
    const challenge = await siwe.challenge('app-1', alice.address);
    const signature = await alice.signMessage({ message: challenge.message });

    await expect(siwe.verify('app-2', challenge.message, signature)).rejects.toMatchObject({
      code: 'TENANT_MISMATCH',
    });
  });

  it('refuses a signature by another wallet with SIGNATURE_INVALID and leaves the nonce unused', async () => {
    const { siwe, rows } = setup();
    const challenge = await siwe.challenge('app-1', alice.address);
    const forged = await bob.signMessage({ message: challenge.message });

    await expect(siwe.verify('app-1', challenge.message, forged)).rejects.toMatchObject({
      code: 'SIGNATURE_INVALID',
    });
    expect(rows.get(challenge.nonce)?.used).toBe(false);
  });

  it('refuses a message for another domain, or that is not a SIWE message, with SIGNATURE_INVALID', async () => {
    const { siwe } = setup();
    const challenge = await siwe.challenge('app-1', alice.address);
    const elsewhere = challenge.message.replace(SETTINGS.domain, 'evil.test');
    const signature = await alice.signMessage({ message: elsewhere });

    await expect(siwe.verify('app-1', elsewhere, signature)).rejects.toMatchObject({ code: 'SIGNATURE_INVALID' });
    await expect(siwe.verify('app-1', 'hello', signature)).rejects.toMatchObject({ code: 'SIGNATURE_INVALID' });
  });

  it('refuses a well-signed message whose nonce was never issued with SIGNATURE_INVALID', async () => {
    const { siwe, rows } = setup();
    const challenge = await siwe.challenge('app-1', alice.address);
    rows.clear();
    const signature = await alice.signMessage({ message: challenge.message });

    await expect(siwe.verify('app-1', challenge.message, signature)).rejects.toMatchObject({
      code: 'SIGNATURE_INVALID',
    });
  });
});
