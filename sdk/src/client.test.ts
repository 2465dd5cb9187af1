import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DuelkitClient } from './client.js';
import {
  AbortError,
  AuthenticationError,
  GeoBlockedError,
  isDuelkitError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
} from './core/errors.js';

const M = 'http://markets.test';
const T = 'http://tournaments.test';
const KEY = 'dk_test_builder_key_value';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const address = '0x00000000000000000000000000000000000000aA';
const user = {
  id: '7b0f8a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  address: '0x00000000000000000000000000000000000000Bb',
  eoaAddress: null,
  username: 'alice',
  profileImageUrl: null,
  builderAppId: '9b0f8a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  createdAt: '2026-11-22T12:00:00.000Z',
};
const registered = { address, status: 'created', user };
const apiError = (status: number, code: string, headers: Record<string, string> = {}) =>
  HttpResponse.json({ code, message: code, requestId: 'req-1' }, { status, headers });

function client(extra: Partial<ConstructorParameters<typeof DuelkitClient>[0]> = {}) {
  return new DuelkitClient({ marketsUrl: M, tournamentsUrl: T, builderApiKey: KEY, ...extra });
}

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

describe('retries', () => {
  it('waits Retry-After after a 429 and sends the same Idempotency-Key again', async () => {
    const keys: (string | null)[] = [];
    const times: number[] = [];
    server.use(
      http.post(`${M}/svc/user/bulk-register/register-simple`, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        times.push(Date.now());
        return keys.length === 1
          ? apiError(429, 'RATE_LIMITED', { 'Retry-After': '1' })
          : HttpResponse.json(registered, { status: 201 });
      }),
    );
    const res = await client().bulkRegister.registerSimple.withResponse({ body: { address } });
    expect(res.data.status).toBe('created');
    expect(res.meta.attempts).toBe(2);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(res.meta.idempotencyKey).toBe(keys[0]);
    expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(990);
  });

  it('retries 503 twice and then succeeds', async () => {
    let calls = 0;
    server.use(
      http.get(`${T}/api/parlay/health`, () => {
        calls += 1;
        return calls <= 2
          ? apiError(503, 'UPSTREAM_UNAVAILABLE', { 'retry-after-ms': '10' })
          : HttpResponse.json({ status: 'ok', service: 'parlay', uptimeSeconds: 1, time: '2026-11-22T12:00:00.000Z' });
      }),
    );
    expect((await client().health.parlayHealth()).status).toBe('ok');
    expect(calls).toBe(3);
  });

  it('keeps the caller’s Idempotency-Key', async () => {
    let seen: string | null = null;
    server.use(
      http.post(`${M}/svc/user/bulk-register/register-simple`, ({ request }) => {
        seen = request.headers.get('idempotency-key');
        return HttpResponse.json(registered, { status: 201 });
      }),
    );
    await client().bulkRegister.registerSimple({ body: { address } }, { idempotencyKey: 'my-own-key-1' });
    expect(seen).toBe('my-own-key-1');
  });

  it('returns promptly with AbortError when aborted during backoff', async () => {
    server.use(
      http.get(`${T}/api/parlay/health`, () => apiError(503, 'UPSTREAM_UNAVAILABLE', { 'Retry-After': '10' })),
    );
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    await expect(client().health.parlayHealth({}, { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('throws RateLimitError with retryAfterMs instead of waiting past the caller’s deadline', async () => {
    server.use(http.get(`${T}/api/parlay/health`, () => apiError(429, 'RATE_LIMITED', { 'Retry-After': '30' })));
    const err = await client()
      .health.parlayHealth({}, { timeoutMs: 1_000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(30_000);
  });

  it('never retries GEO_BLOCKED and classifies it', async () => {
    let calls = 0;
    server.use(
      http.post(`${M}/svc/user/bulk-register/register-simple`, () => {
        calls += 1;
        return apiError(403, 'GEO_BLOCKED');
      }),
    );
    const err = await client()
      .bulkRegister.registerSimple({ body: { address } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GeoBlockedError);
    expect(calls).toBe(1);
    expect((err as GeoBlockedError).idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('turns an HTML 403 page into PermissionDeniedError', async () => {
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
    expect(isDuelkitError(err)).toBe(true);
    expect((err as PermissionDeniedError).code).toBe('UNKNOWN');
  });

  it('rejects a 2xx body that breaks the contract with ResponseValidationError', async () => {
    server.use(http.get(`${T}/api/parlay/health`, () => HttpResponse.json({ status: 'fine' })));
    await expect(client().health.parlayHealth()).rejects.toBeInstanceOf(ResponseValidationError);
  });
});

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
    void (() => c.bulkRegister.registerSimple({ body: { addres: address } }));
    // @ts-expect-error: check-user takes a query, not a body
    void (() => c.bulkRegister.checkUser({ body: { address } }));
    expect(typeof c.sports.proxy).toBe('function');
  });
});
