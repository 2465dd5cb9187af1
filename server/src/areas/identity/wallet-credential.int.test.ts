import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { walletLoginMessage } from './wallet-credential.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The other valid encoding of a signature: `n − s` with the recovery bit flipped. */
function highS(signature: string): string {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130), 16);
  return `${signature.slice(0, 66)}${(CURVE_ORDER - s).toString(16).padStart(64, '0')}${v === 27 ? '1c' : '1b'}`;
}

/** `v` as 0/1 instead of 27/28. */
const zeroV = (signature: string) => `${signature.slice(0, 130)}${signature.endsWith('1b') ? '00' : '01'}`;

async function walletLogin(headers: Record<string, string>) {
  const res = await fetch(`${server.tournamentsUrl}/user/auth/login`, {
    method: 'POST',
    headers: { 'x-builder-api-key': server.builderKey, 'content-type': 'application/json', ...headers },
    body: '{}',
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function signed() {
  const account = privateKeyToAccount(generatePrivateKey());
  const timestamp = String(Date.now());
  const signature = await account.signMessage({ message: walletLoginMessage(account.address, timestamp) });
  return { address: account.address, timestamp, signature };
}

const headersOf = (c: { address: string; timestamp: string; signature: string }) => ({
  'x-wallet-address': c.address,
  'x-wallet-timestamp': c.timestamp,
  'x-wallet-signature': c.signature,
});

describe('wallet credentials on the tournaments host', () => {
  it('cannot be replayed by re-encoding the signature (v 27↔0, high s, both)', async () => {
    const c = await signed();
    expect(await walletLogin(headersOf(c))).toMatchObject({
      status: 200,
      body: { method: 'wallet', address: getAddress(c.address) },
    });
    for (const signature of [c.signature, zeroV(c.signature), highS(c.signature), zeroV(highS(c.signature))]) {
      expect(await walletLogin(headersOf({ ...c, signature }))).toMatchObject({
        status: 401,
        body: { code: 'WALLET_CREDENTIAL_INVALID' },
      });
    }
  });

  it('treats a first use in any encoding as the one use of that credential', async () => {
    const c = await signed();
    expect((await walletLogin(headersOf({ ...c, signature: highS(c.signature) }))).status).toBe(200);
    expect((await walletLogin(headersOf(c))).body['code']).toBe('WALLET_CREDENTIAL_INVALID');
  });

  it('refuses a signature that is not 65 bytes, and a credential of another wallet', async () => {
    const c = await signed();
    expect((await walletLogin(headersOf({ ...c, signature: c.signature.slice(0, 130) }))).status).toBe(401);
    const other = await signed();
    expect((await walletLogin(headersOf({ ...c, signature: other.signature }))).status).toBe(401);
    // Neither refusal spent the credential.
    expect((await walletLogin(headersOf(c))).status).toBe(200);
  });
});
