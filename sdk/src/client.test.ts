import { readFileSync } from 'node:fs';
import { http, HttpResponse } from 'msw';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, client, health, KEY, M, mockService, T } from '../test/mock-service.js';
import { DuelkitClient } from './client.js';
import { AuthenticationError, DuelkitError, PermissionDeniedError } from './core/errors.js';
import { VERSION } from './version.js';

const server = mockService();
afterEach(() => {
  vi.unstubAllEnvs();
});

const user = {
  id: '7b0f8a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  address: '0x00000000000000000000000000000000000000Bb',
  eoaAddress: null,
  username: 'alice',
  profileImageUrl: null,
  builderAppId: '9b0f8a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  createdAt: '2026-11-22T12:00:00.000Z',
};

function signInHandlers(counter: { challenges: number; logins: number }, token = () => `tok-${counter.logins}`) {
  return [
    http.post(`${M}/svc/user/auth/eoa/challenge`, () => {
      counter.challenges += 1;
      return HttpResponse.json({
        message: `sign me ${counter.challenges}`,
        nonce: 'n',
        timestamp: '2026-11-22T12:00:00.000Z',
        domain: 'localhost',
        builderAppId: user.builderAppId,
        expiresAt: '2026-11-22T12:05:00.000Z',
      });
    }),
    http.post(`${M}/svc/user/auth/eoa/login`, () => {
      counter.logins += 1;
      return HttpResponse.json({
        exists: true,
        token: token(),
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        user,
      });
    }),
  ];
}

describe('sign-in', () => {
  it('shares one sign-in between concurrent callers', async () => {
    const counter = { challenges: 0, logins: 0 };
    server.use(...signInHandlers(counter));
    const c = client({ signer: privateKeyToAccount(generatePrivateKey()) });
    const sessions = await Promise.all([c.auth.signIn(), c.auth.signIn(), c.auth.signIn()]);
    expect(counter.challenges).toBe(1);
    expect(new Set(sessions.map((s) => s.token)).size).toBe(1);
    expect(sessions[0]?.user?.username).toBe('alice');
  });

  it('signs in again once on a 401 and resends without counting a retry', async () => {
    const counter = { challenges: 0, logins: 0 };
    const tokens: (string | null)[] = [];
    server.use(
      ...signInHandlers(counter),
      http.post(`${M}/svc/user/wallet/sign`, ({ request }) => {
        tokens.push(request.headers.get('authorization'));
        return tokens.length === 1
          ? apiError(401, 'TOKEN_EXPIRED')
          : HttpResponse.json({ address: user.address, signature: '0x1234' });
      }),
    );
    const c = client({ signer: privateKeyToAccount(generatePrivateKey()), maxRetries: 0 });
    const res = await c.wallet.sign({ body: { message: 'hi' } });
    expect(res.signature).toBe('0x1234');
    expect(tokens).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(counter.challenges).toBe(2);
  });

  it('surfaces a second 401 as AuthenticationError without looping, and never re-signs on 403', async () => {
    const counter = { challenges: 0, logins: 0 };
    server.use(
      ...signInHandlers(counter),
      http.post(`${M}/svc/user/wallet/sign`, () => apiError(401, 'TOKEN_INVALID')),
    );
    const c = client({ signer: privateKeyToAccount(generatePrivateKey()) });
    await expect(c.wallet.sign({ body: { message: 'hi' } })).rejects.toBeInstanceOf(AuthenticationError);
    expect(counter.challenges).toBe(2);
    server.use(http.post(`${M}/svc/user/wallet/sign`, () => apiError(403, 'FORBIDDEN')));
    await expect(c.wallet.sign({ body: { message: 'hi' } })).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(counter.challenges).toBe(2);
  });
});

describe('logging', () => {
  it('never hands the builder key or the bearer token to the logger', async () => {
    const lines: string[] = [];
    const sink = (m: string, d?: Record<string, unknown>) => lines.push(`${m} ${JSON.stringify(d ?? {})}`);
    const counter = { challenges: 0, logins: 0 };
    server.use(
      ...signInHandlers(counter, () => 'secret-bearer-token'),
      http.post(`${M}/svc/user/wallet/sign`, () => apiError(500, 'INTERNAL')),
    );
    const c = client({
      signer: privateKeyToAccount(generatePrivateKey()),
      logLevel: 'debug',
      maxRetries: 0,
      logger: { debug: sink, info: sink, warn: sink, error: sink },
    });
    await c.wallet.sign({ body: { message: 'hi' } }).catch(() => undefined);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(KEY);
    expect(lines.join('\n')).not.toContain('secret-bearer-token');
  });
});

describe('types', () => {
  it('are derived from the contract', () => {
    const c = client();
    // @ts-expect-error: `addres` is not a field of register-simple
    void (() => c.bulkRegister.registerSimple({ body: { addres: user.address } }));
    // @ts-expect-error: check-user takes a query, not a body
    void (() => c.bulkRegister.checkUser({ body: { address: user.address } }));
    expect(typeof c.sports.proxy).toBe('function');
  });
});

describe('configuration', () => {
  it('reads the URLs and the builder key from the environment when they are not passed', async () => {
    vi.stubEnv('DUELKIT_MARKETS_URL', M);
    vi.stubEnv('DUELKIT_TOURNAMENTS_URL', `${T}/prefix`);
    vi.stubEnv('DUELKIT_BUILDER_KEY', 'dk_from_env');
    let key: string | null = null;
    server.use(
      http.get(`${T}/prefix/api/parlay/health`, ({ request }) => {
        key = request.headers.get('x-builder-api-key');
        return HttpResponse.json(health);
      }),
    );
    const c = new DuelkitClient();
    expect(c.marketsUrl).toBe(M);
    await c.health.parlayHealth();
    expect(key).toBe('dk_from_env');
  });

  it('defaults to the local server’s two ports', () => {
    vi.stubEnv('DUELKIT_MARKETS_URL', '');
    vi.stubEnv('DUELKIT_TOURNAMENTS_URL', '');
    const c = new DuelkitClient({ builderApiKey: KEY });
    expect([c.marketsUrl, c.tournamentsUrl]).toEqual(['http://localhost:3000', 'http://localhost:3001']);
  });

  it('refuses to start without a builder key', () => {
    vi.stubEnv('DUELKIT_BUILDER_KEY', '');
    expect(() => new DuelkitClient()).toThrow(DuelkitError);
  });

  it('sends a User-Agent naming the SDK and the runtime, after the application’s own token', async () => {
    const agents: (string | null)[] = [];
    server.use(
      http.get(`${T}/api/parlay/health`, ({ request }) => {
        agents.push(request.headers.get('user-agent'));
        return HttpResponse.json(health);
      }),
    );
    await client().health.parlayHealth();
    await client({ userAgent: 'my-app/1.2.0' }).health.parlayHealth();
    expect(agents).toEqual([
      `duelkit-sdk/${VERSION} node/${process.versions.node}`,
      `my-app/1.2.0 duelkit-sdk/${VERSION} node/${process.versions.node}`,
    ]);
  });

  it('has the version of its package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });

  it('makes copies with other options that share the session', async () => {
    const counter = { challenges: 0, logins: 0 };
    const seen: (string | null)[] = [];
    server.use(
      ...signInHandlers(counter),
      http.post(`${M}/svc/user/wallet/sign`, ({ request }) => {
        seen.push(request.headers.get('authorization'));
        return HttpResponse.json({ address: user.address, signature: '0x1234' });
      }),
      http.get(`${M}/svc/admin/auth/verify`, ({ request }) => {
        seen.push(request.headers.get('authorization'));
        return HttpResponse.json({ valid: true, adminId: user.id, expiresAt: '2026-11-22T13:00:00.000Z' });
      }),
    );
    const c = client({ signer: privateKeyToAccount(generatePrivateKey()) });
    await c.auth.signIn();
    const admin = c.withOptions({ adminToken: 'admin-token' });
    await admin.wallet.sign({ body: { message: 'hi' } });
    await admin.adminAuth.verify();
    await c.adminAuth.verify();
    expect(counter.logins).toBe(1);
    expect(seen.slice(0, 2)).toEqual(['Bearer tok-1', 'Bearer admin-token']);
    expect(seen[2]).toBeNull();
  });
});

describe('errors', () => {
  it('turns an HTML 403 page into PermissionDeniedError with code UNKNOWN', async () => {
    server.use(
      http.get(
        `${T}/api/parlay/health`,
        () => new HttpResponse('<html>Forbidden</html>', { status: 403, headers: { 'content-type': 'text/html' } }),
      ),
    );
    const err = await client()
      .health.parlayHealth()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect((err as PermissionDeniedError).code).toBe('UNKNOWN');
  });

  it('keeps a code this SDK does not know yet', async () => {
    server.use(http.get(`${T}/api/parlay/health`, () => apiError(401, 'PASSKEY_REQUIRED')));
    const err = await client()
      .health.parlayHealth()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as AuthenticationError).code).toBe('PASSKEY_REQUIRED');
  });
});
