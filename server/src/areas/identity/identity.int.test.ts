import { createServer, type Server } from 'node:http';
import { systemClock } from '../../platform/clock.js';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { authenticator } from 'otplib';
import { getAddress, verifyMessage, verifyTypedData } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { walletLoginMessage } from './wallet-credential.js';

// Response bodies are read loosely here; their shapes are checked by the contract tests.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

let server: TestServer;
let issuer: {
  url: string;
  server: Server;
  sign: (claims: Record<string, unknown>, opts?: { aud?: string; exp?: string }) => Promise<string>;
};

async function startIssuer() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const srv = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  return {
    url,
    server: srv,
    sign: (claims: Record<string, unknown>, opts: { aud?: string; exp?: string } = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(url)
        .setAudience(opts.aud ?? 'duelkit-test')
        .setIssuedAt()
        .setExpirationTime(opts.exp ?? '10m')
        .sign(privateKey),
  };
}

beforeAll(async () => {
  issuer = await startIssuer();
  server = await startTestServer({
    IDP_ISSUERS: JSON.stringify([{ issuer: issuer.url, jwksUri: `${issuer.url}/jwks`, audience: 'duelkit-test' }]),
  });
});
afterAll(async () => {
  await server?.close();
  issuer?.server.close();
});

async function api(
  path: string,
  init: { method?: string; body?: unknown; token?: string; key?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { 'x-builder-api-key': init.key ?? server.builderKey, ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers['authorization'] = `Bearer ${init.token}`;
  const base = path.startsWith('/user/') ? server.tournamentsUrl : server.marketsUrl;
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

async function signedChallenge(account: ReturnType<typeof privateKeyToAccount>, key?: string) {
  const challenge = await api('/svc/user/auth/eoa/challenge', {
    body: { address: account.address },
    ...(key ? { key } : {}),
  });
  expect(challenge.status).toBe(200);
  const message = challenge.body['message'] as string;
  return { message, signature: await account.signMessage({ message }) };
}

async function register(username: string) {
  const account = privateKeyToAccount(generatePrivateKey());
  const res = await api('/svc/user/auth/eoa/register', { body: { ...(await signedChallenge(account)), username } });
  expect(res.status).toBe(201);
  return { account, token: res.body['token'] as string, user: res.body['user'] as { address: string; id: string } };
}

describe('wallet sign-in', () => {
  it('registers a new wallet, then signs it in, and the token works on bearer routes', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const first = await api('/svc/user/auth/eoa/login', { body: await signedChallenge(account) });
    expect(first).toEqual({ status: 200, body: { exists: false } });
    const reg = await api('/svc/user/auth/eoa/register', {
      body: { ...(await signedChallenge(account)), username: 'alice_1' },
    });
    expect(reg.status).toBe(201);
    expect(reg.body['user']).toMatchObject({ username: 'alice_1', eoaAddress: account.address });
    const again = await api('/svc/user/auth/eoa/login', { body: await signedChallenge(account) });
    expect(again.body).toMatchObject({ exists: true, user: { id: reg.body['user'].id } });
    const sig = await api('/svc/user/wallet/sign', { body: { message: 'hello' }, token: again.body['token'] });
    expect(sig.status).toBe(200);
    expect(sig.body['address']).toBe(reg.body['user'].address);
    expect(
      await verifyMessage({ address: sig.body['address'], message: 'hello', signature: sig.body['signature'] }),
    ).toBe(true);
  });

  it('refuses a reused nonce, a bad signature and a taken username', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signed = await signedChallenge(account);
    await api('/svc/user/auth/eoa/login', { body: signed });
    expect((await api('/svc/user/auth/eoa/login', { body: signed })).body['code']).toBe('NONCE_REUSED');
    const other = privateKeyToAccount(generatePrivateKey());
    const forged = await signedChallenge(account);
    const bad = await api('/svc/user/auth/eoa/login', {
      body: { message: forged.message, signature: await other.signMessage({ message: forged.message }) },
    });
    expect(bad).toMatchObject({ status: 401, body: { code: 'SIGNATURE_INVALID' } });
    await register('bob_taken');
    const dup = await api('/svc/user/auth/eoa/register', {
      body: { ...(await signedChallenge(other)), username: 'BOB_TAKEN' },
    });
    expect(dup).toMatchObject({ status: 409, body: { code: 'USERNAME_TAKEN' } });
    expect((await api('/svc/user/auth/check-username?username=Bob_Taken')).body).toEqual({
      username: 'Bob_Taken',
      available: false,
      reason: 'taken',
    });
    expect((await api('/svc/user/auth/check-username?username=9lives')).body).toMatchObject({
      available: false,
      reason: 'invalid',
    });
  });

  it('refuses an expired nonce', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signed = await signedChallenge(account);
    await server.container.orm.em
      .fork()
      .getConnection()
      .execute("update auth_nonces set expires_at = now() - interval '1 second'");
    expect((await api('/svc/user/auth/eoa/login', { body: signed })).body['code']).toBe('NONCE_EXPIRED');
  });

  it('rejects a challenge or token from another builder app with TENANT_MISMATCH', async () => {
    const otherKey = await server.createKey();
    const { account, token } = await register('carol_1');
    const foreign = await signedChallenge(account, otherKey);
    expect((await api('/svc/user/auth/eoa/login', { body: foreign })).body['code']).toBe('TENANT_MISMATCH');
    const res = await api('/svc/user/wallet/sign', { body: { message: 'x' }, token, key: otherKey });
    expect(res).toMatchObject({ status: 401, body: { code: 'TENANT_MISMATCH' } });
  });

  it('rejects tampered, expired and alg:none tokens with their codes', async () => {
    const { token } = await register('dave_1');
    const [h, p, s] = token.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, address: '0x0000000000000000000000000000000000000001' })).toString('base64url')}.${s}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    for (const bad of [tampered, none, 'garbage']) {
      expect((await api('/svc/user/wallet/sign', { body: { message: 'x' }, token: bad })).body['code']).toBe(
        'TOKEN_INVALID',
      );
    }
    const { TokenService } = await import('./token.service.js');
    const expired = await new TokenService(server.container.config.auth.jwtSecret, [], -10, 60, systemClock).signUser({
      sub: payload['sub'] as string,
      bap: payload['bap'] as string,
      address: payload['address'] as string,
      eoaAddress: null,
    });
    expect((await api('/svc/user/wallet/sign', { body: { message: 'x' }, token: expired.token })).body['code']).toBe(
      'TOKEN_EXPIRED',
    );
    expect((await api('/svc/user/wallet/sign', { body: { message: 'x' } })).body['code']).toBe('UNAUTHENTICATED');
  });

  it('signs EIP-712 typed data with the managed wallet', async () => {
    const { token, user } = await register('erin_1');
    const typed = {
      domain: { name: 'Duelkit', version: '1', chainId: 31337 },
      types: {
        Mail: [
          { name: 'to', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
      },
      primaryType: 'Mail' as const,
      message: { to: '0x00000000000000000000000000000000000000aa', amount: '5000000000000000000' },
    };
    const res = await api('/svc/user/wallet/sign-typed-data', { body: typed, token });
    expect(res.status).toBe(200);
    expect(
      await verifyTypedData({
        address: user.address as `0x${string}`,
        ...typed,
        message: { ...typed.message, amount: 5_000_000_000_000_000_000n },
        signature: res.body['signature'],
      }),
    ).toBe(true);
  });
});

describe('bulk registration', () => {
  it('creates, reports existing and invalid addresses, and refuses more than 200', async () => {
    const a = privateKeyToAccount(generatePrivateKey()).address;
    const b = privateKeyToAccount(generatePrivateKey()).address;
    expect((await api('/svc/user/bulk-register/register-simple', { body: { address: a } })).body).toMatchObject({
      status: 'created',
    });
    const bulk = await api('/svc/user/bulk-register/register-bulk', {
      body: { addresses: [a, b, b.toLowerCase(), 'nope'] },
    });
    expect(bulk.body).toMatchObject({ created: 1, existing: 2, invalid: 1 });
    expect((await api(`/svc/user/bulk-register/check-user?address=${b}`)).body).toEqual({ exists: true, address: b });
    const tooMany = Array.from({ length: 201 }, () => privateKeyToAccount(generatePrivateKey()).address);
    expect((await api('/svc/user/bulk-register/register-bulk', { body: { addresses: tooMany } })).status).toBe(400);
    // A bulk-registered wallet can sign in.
    const account = privateKeyToAccount(generatePrivateKey());
    await api('/svc/user/bulk-register/register-simple', { body: { address: account.address } });
    expect((await api('/svc/user/auth/eoa/login', { body: await signedChallenge(account) })).body['exists']).toBe(true);
  });
});

describe('profile images', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  const upload = async (token: string, bytes: Buffer, name: string) => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${server.marketsUrl}/svc/user/auth/profile-image`, {
      method: 'POST',
      headers: { 'x-builder-api-key': server.builderKey, authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Body };
  };

  it('stores a PNG by content and serves it; refuses text named .png and files over 5 MB', async () => {
    const { token } = await register('fay_1');
    const ok = await upload(token, png, 'me.txt');
    expect(ok.status).toBe(200);
    const url = new URL(ok.body['profileImageUrl'] as string);
    const served = await fetch(`${server.marketsUrl}${url.pathname}`);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
    expect((await upload(token, Buffer.from('not an image'), 'fake.png')).body['code']).toBe('UNSUPPORTED_IMAGE');
    expect((await upload(token, Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024)]), 'big.png')).status).toBe(413);
  });
});

describe('identity providers', () => {
  it('registers, logs in and migrates with tokens from a trusted issuer; refuses a wrong audience or expiry', async () => {
    const idToken = await issuer.sign({ sub: 'idp-user-1' });
    expect((await api('/svc/user/auth/idp/login', { body: { idToken } })).body).toEqual({ exists: false });
    const reg = await api('/svc/user/auth/idp/register', { body: { idToken, username: 'gina_1' } });
    expect(reg.status).toBe(201);
    expect((await api('/svc/user/auth/idp/login', { body: { idToken } })).body['user'].id).toBe(reg.body['user'].id);
    expect(
      (await api('/svc/user/auth/idp/login', { body: { idToken: await issuer.sign({ sub: 'x' }, { aud: 'other' }) } }))
        .body['code'],
    ).toBe('IDENTITY_TOKEN_INVALID');
    expect(
      (await api('/svc/user/auth/idp/login', { body: { idToken: await issuer.sign({ sub: 'x' }, { exp: '-1m' }) } }))
        .body['code'],
    ).toBe('IDENTITY_TOKEN_INVALID');

    const wallet = await register('hank_1');
    const migrate = await api('/svc/user/auth/idp/migrate', {
      body: { idToken: await issuer.sign({ sub: 'idp-user-2' }), ...(await signedChallenge(wallet.account)) },
    });
    expect(migrate.body['user'].id).toBe(wallet.user.id);
    expect(
      (await api('/svc/user/auth/idp/login', { body: { idToken: await issuer.sign({ sub: 'idp-user-2' }) } })).body[
        'user'
      ].id,
    ).toBe(wallet.user.id);
  });
});

describe('tournaments host', () => {
  it('accepts a markets JWT and a wallet credential once, within its window', async () => {
    const { token, user } = await register('ivy_1');
    expect((await api('/user/auth/check', { token })).body).toEqual({
      authenticated: true,
      address: user.address,
      method: 'jwt',
    });
    expect((await api('/user/auth/check')).body).toEqual({ authenticated: false });
    expect((await api('/user/auth/login', { body: {}, token })).body).toMatchObject({
      method: 'jwt',
      address: user.address,
    });

    const account = privateKeyToAccount(generatePrivateKey());
    const ts = String(Date.now());
    const headers = {
      'x-wallet-address': account.address,
      'x-wallet-timestamp': ts,
      'x-wallet-signature': await account.signMessage({ message: walletLoginMessage(account.address, ts) }),
    };
    expect((await api('/user/auth/login', { body: {}, headers })).body).toMatchObject({
      method: 'wallet',
      address: getAddress(account.address),
    });
    expect((await api('/user/auth/login', { body: {}, headers })).body['code']).toBe('WALLET_CREDENTIAL_INVALID');
    const old = String(Date.now() - 6 * 60_000);
    const stale = {
      ...headers,
      'x-wallet-timestamp': old,
      'x-wallet-signature': await account.signMessage({ message: walletLoginMessage(account.address, old) }),
    };
    expect((await api('/user/auth/login', { body: {}, headers: stale })).body['code']).toBe(
      'WALLET_CREDENTIAL_INVALID',
    );
    expect((await api('/user/auth/login', { body: {} })).body['code']).toBe('UNAUTHENTICATED');
  });

  it('ignores x-wallet-* headers on markets-host user routes', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const ts = String(Date.now());
    const res = await api('/svc/user/wallet/sign', {
      body: { message: 'x' },
      headers: {
        'x-wallet-address': account.address,
        'x-wallet-timestamp': ts,
        'x-wallet-signature': await account.signMessage({ message: walletLoginMessage(account.address, ts) }),
      },
    });
    expect(res).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
  });
});

describe('admin auth', () => {
  it('logs in without 2FA, keeps admin and user tokens apart, and revokes on logout', async () => {
    await server.container.identity.admins.create('root@example.com', 'correct horse battery');
    expect(
      (await api('/svc/admin/auth/login', { body: { email: 'root@example.com', password: 'wrong' } })).body['code'],
    ).toBe('INVALID_CREDENTIALS');
    expect(
      (await api('/svc/admin/auth/login', { body: { email: 'nobody@example.com', password: 'wrong' } })).body['code'],
    ).toBe('INVALID_CREDENTIALS');
    const login = await api('/svc/admin/auth/login', {
      body: { email: 'root@example.com', password: 'correct horse battery' },
    });
    expect(login.body['status']).toBe('authenticated');
    const token = login.body['token'] as string;
    expect((await api('/svc/admin/auth/me', { token })).body).toMatchObject({
      email: 'root@example.com',
      twoFactorEnabled: false,
    });
    const { token: userToken } = await register('judy_1');
    expect((await api('/svc/admin/auth/me', { token: userToken })).status).toBe(401);
    expect((await api('/svc/user/wallet/sign', { body: { message: 'x' }, token })).status).toBe(401);
    expect((await api('/svc/admin/auth/logout', { method: 'DELETE', token })).body).toEqual({ loggedOut: true });
    expect((await api('/svc/admin/auth/verify', { token })).body['code']).toBe('TOKEN_REVOKED');
  });

  it('with 2FA on, cannot act until the TOTP step; a backup code works once', async () => {
    await server.container.identity.admins.create('ops@example.com', 'another long password');
    const first = await api('/svc/admin/auth/login', {
      body: { email: 'ops@example.com', password: 'another long password' },
    });
    const token = first.body['token'] as string;
    const setup = await api('/svc/admin/auth/2fa/setup', { body: {}, token });
    const secret = setup.body['secret'] as string;
    expect(setup.body['otpauthUri']).toContain('otpauth://totp/');
    const enabled = await api('/svc/admin/auth/2fa/verify-setup', {
      body: { code: authenticator.generate(secret) },
      token,
    });
    const backupCodes = enabled.body['backupCodes'] as string[];
    expect(backupCodes).toHaveLength(10);

    const login = await api('/svc/admin/auth/login', {
      body: { email: 'ops@example.com', password: 'another long password' },
    });
    expect(login.body['status']).toBe('2fa_required');
    const challenge = login.body['challengeToken'] as string;
    expect((await api('/svc/admin/auth/me', { token: challenge })).body['code']).toBe('TWO_FACTOR_REQUIRED');
    expect((await api('/svc/admin/auth/2fa/verify', { body: { code: '000000' }, token: challenge })).body['code']).toBe(
      'TWO_FACTOR_INVALID',
    );
    const done = await api('/svc/admin/auth/2fa/verify', {
      body: { code: authenticator.generate(secret) },
      token: challenge,
    });
    expect(done.body['status']).toBe('authenticated');
    expect((await api('/svc/admin/auth/me', { token: done.body['token'] })).body['twoFactorEnabled']).toBe(true);

    const again = await api('/svc/admin/auth/login', {
      body: { email: 'ops@example.com', password: 'another long password' },
    });
    const viaBackup = await api('/svc/admin/auth/2fa/verify', {
      body: { code: backupCodes[0] },
      token: again.body['challengeToken'],
    });
    expect(viaBackup.body['status']).toBe('authenticated');
    const third = await api('/svc/admin/auth/login', {
      body: { email: 'ops@example.com', password: 'another long password' },
    });
    expect(
      (await api('/svc/admin/auth/2fa/verify', { body: { code: backupCodes[0] }, token: third.body['challengeToken'] }))
        .body['code'],
    ).toBe('TWO_FACTOR_INVALID');
  });

  it('limits login attempts per email with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (await api('/svc/admin/auth/login', { body: { email: 'target@example.com', password: 'x' } })).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
