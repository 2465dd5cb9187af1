import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { authenticator } from 'otplib';
import { verifyMessage } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, DuelkitClient, RegistrationRequiredError } from '@duelkit/sdk';
import { type ServerProcess, startServer } from './support.js';

/** The deployment's JWT secret: set here, so a test can sign what the server would. */
const JWT_SECRET = randomBytes(32).toString('hex');
let server: ServerProcess;
beforeAll(async () => {
  server = await startServer({ JWT_SECRET });
}, 120_000);
afterAll(() => server?.stop());

const clientFor = (key: string, signer = privateKeyToAccount(generatePrivateKey())) =>
  new DuelkitClient({
    marketsUrl: server.marketsUrl,
    tournamentsUrl: server.tournamentsUrl,
    builderApiKey: key,
    signer,
    maxRetries: 0,
  });

describe('identity through the SDK', () => {
  it('registers a new wallet, signs it in again, and signs with the managed wallet', async () => {
    const signer = privateKeyToAccount(generatePrivateKey());
    const client = clientFor(server.builderKey, signer);
    await expect(client.auth.signIn()).rejects.toBeInstanceOf(RegistrationRequiredError);
    const first = await client.auth.signIn({ username: 'e2e_alice' });
    expect(first.user?.eoaAddress).toBe(signer.address);
    const again = await clientFor(server.builderKey, signer).auth.signIn();
    expect(again.user?.id).toBe(first.user?.id);
    const signed = await client.wallet.sign({ body: { message: 'e2e' } });
    expect(signed.address).toBe(first.user?.address);
    expect(
      await verifyMessage({
        address: signed.address as `0x${string}`,
        message: 'e2e',
        signature: signed.signature as `0x${string}`,
      }),
    ).toBe(true);
  });

  it('fails a reused nonce and a token presented with another builder key', async () => {
    const signer = privateKeyToAccount(generatePrivateKey());
    const client = clientFor(server.builderKey, signer);
    const challenge = await client.auth.eoaChallenge({ body: { address: signer.address } });
    const signature = await signer.signMessage({ message: challenge.message });
    await client.auth.eoaLogin({ body: { message: challenge.message, signature } });
    const reused = await client.auth
      .eoaLogin({ body: { message: challenge.message, signature } })
      .catch((e: unknown) => e);
    expect((reused as AuthenticationError).code).toBe('NONCE_REUSED');

    const session = await clientFor(server.builderKey, signer).auth.signIn({ username: 'e2e_bob' });
    const foreign = new DuelkitClient({
      marketsUrl: server.marketsUrl,
      tournamentsUrl: server.tournamentsUrl,
      builderApiKey: await server.createKey(),
      tokenStore: { get: () => ({ token: session.token, expiresAt: session.expiresAt }), set: () => undefined },
      maxRetries: 0,
    });
    const err = await foreign.wallet.sign({ body: { message: 'x' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as AuthenticationError).code).toBe('TENANT_MISMATCH');
  });

  it('fails tampered, expired and alg:none tokens with their codes', async () => {
    const session = await clientFor(server.builderKey).auth.signIn({ username: 'e2e_carl' });
    const [h, p, sig] = session.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const forge = (payload: Record<string, unknown>, header = h, signature = sig) =>
      `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
    const cases: [string, string][] = [
      [forge({ ...claims, address: '0x0000000000000000000000000000000000000001' }), 'TOKEN_INVALID'],
      [forge(claims, Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url'), ''), 'TOKEN_INVALID'],
    ];
    // The same token, expired five seconds ago and signed with the deployment's secret (HS256).
    const expiredPayload = Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) - 5 })).toString(
      'base64url',
    );
    const expired = {
      token: `${h}.${expiredPayload}.${createHmac('sha256', JWT_SECRET).update(`${h}.${expiredPayload}`).digest('base64url')}`,
    };
    cases.push([expired.token, 'TOKEN_EXPIRED']);
    for (const [token, code] of cases) {
      const c = new DuelkitClient({
        marketsUrl: server.marketsUrl,
        tournamentsUrl: server.tournamentsUrl,
        builderApiKey: server.builderKey,
        tokenStore: {
          get: () => ({ token, expiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
          set: () => undefined,
        },
        maxRetries: 0,
      });
      const err = await c.wallet.sign({ body: { message: 'x' } }).catch((e: unknown) => e);
      expect(err, code).toBeInstanceOf(AuthenticationError);
      expect((err as AuthenticationError).code).toBe(code);
    }
  });

  it('keeps an admin with 2FA from acting until the TOTP step', async () => {
    await server.createAdmin('e2e-admin@example.com', 'e2e admin password');
    let admin = clientFor(server.builderKey);
    const login = await admin.adminAuth.login({
      body: { email: 'e2e-admin@example.com', password: 'e2e admin password' },
    });
    if (login.status !== 'authenticated') throw new Error('expected a session');
    admin = admin.withOptions({ adminToken: login.token });
    const { secret } = await admin.adminAuth.twoFactorSetup({ body: {} });
    await admin.adminAuth.twoFactorVerifySetup({ body: { code: authenticator.generate(secret) } });

    const second = await admin.adminAuth.login({
      body: { email: 'e2e-admin@example.com', password: 'e2e admin password' },
    });
    if (second.status !== '2fa_required') throw new Error('expected a 2FA challenge');
    admin = admin.withOptions({ adminToken: second.challengeToken });
    const blocked = await admin.adminAuth.me().catch((e: unknown) => e);
    expect((blocked as AuthenticationError).code).toBe('TWO_FACTOR_REQUIRED');
    const done = await admin.adminAuth.twoFactorVerify({ body: { code: authenticator.generate(secret) } });
    admin = admin.withOptions({ adminToken: done.token });
    expect((await admin.adminAuth.me()).twoFactorEnabled).toBe(true);
  });
});

describe('examples/quickstart.ts', () => {
  it('signs in against a running server and prints the user', async () => {
    const run = promisify(execFile);
    const root = fileURLToPath(new URL('../', import.meta.url));
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', '--conditions=duelkit-source', 'examples/quickstart.ts'],
      {
        cwd: root,
        env: {
          ...process.env,
          DUELKIT_BUILDER_KEY: server.builderKey,
          DUELKIT_MARKETS_URL: server.marketsUrl,
          DUELKIT_TOURNAMENTS_URL: server.tournamentsUrl,
        },
      },
    );
    const printed = JSON.parse(stdout) as { wallet: string; user: { eoaAddress: string; username: string } };
    expect(printed.user.eoaAddress).toBe(printed.wallet);
    expect(printed.user.username).toMatch(/^user_/);
  }, 60_000);
});
