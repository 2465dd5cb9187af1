import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS,
  apiError,
  client,
  DUEL_ID,
  health,
  KEY,
  M,
  mockService,
  recordingLogger,
  T,
} from '../../test/mock-service.js';
import {
  AbortError,
  ConflictError,
  ConnectionError,
  GeoBlockedError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '../core/errors.js';

const server = mockService();

const user = {
  id: '7b0f8a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  address: '0x00000000000000000000000000000000000000Bb',
  eoaAddress: null,
  username: 'alice',
  profileImageUrl: null,
  builderAppId: '9b0f8a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  createdAt: '2026-11-22T12:00:00.000Z',
};
const registered = { address: ADDRESS, status: 'created', user };
const membership = {
  duelId: DUEL_ID,
  userAddress: user.address,
  via: 'invite',
  joinedAt: '2026-11-22T12:00:00.000Z',
  txHash: `0x${'cd'.repeat(32)}`,
  chainState: 'confirmed',
};
const stats = { recomputed: true };

/** Records the Idempotency-Key of each request and answers with `answers` in turn (the last one repeats). */
function sequence(answers: (() => Response | Promise<Response>)[]) {
  const keys: (string | null)[] = [];
  const resolver = ({ request }: { request: Request }) => {
    keys.push(request.headers.get('idempotency-key'));
    const answer = answers[Math.min(keys.length, answers.length) - 1];
    return answer ? answer() : HttpResponse.error();
  };
  return { keys, resolver };
}

describe('Retry-After', () => {
  it('waits what the service asks and sends the same Idempotency-Key again', async () => {
    const seq = sequence([
      () => apiError(429, 'RATE_LIMITED', { 'Retry-After': '1' }),
      () => HttpResponse.json(registered, { status: 201 }),
    ]);
    server.use(http.post(`${M}/svc/user/bulk-register/register-simple`, seq.resolver));
    const log = recordingLogger();
    const res = await client({ logger: log.logger, logLevel: 'info' }).bulkRegister.registerSimple.withResponse({
      body: { address: ADDRESS },
    });
    expect(res.data.status).toBe('created');
    expect(res.meta.attempts).toBe(2);
    expect(seq.keys).toHaveLength(2);
    expect(seq.keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seq.keys[1]).toBe(seq.keys[0]);
    expect(res.meta.idempotencyKey).toBe(seq.keys[0]);
    expect(log.waits()).toEqual([1_000]);
  });

  it('does not wait for a Retry-After above the cap: the error comes at once with retryAfterMs', async () => {
    const seq = sequence([() => apiError(429, 'RATE_LIMITED', { 'Retry-After': '900' })]);
    server.use(http.post(`${M}/svc/admin/auth/login`, seq.resolver));
    const err = await client()
      .adminAuth.login({ body: { email: 'ops@example.com', password: 'wrong password' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(900_000);
    expect(seq.keys).toHaveLength(1);
  });

  it('honours a lower cap set on the client', async () => {
    const seq = sequence([() => apiError(503, 'SERVICE_UNAVAILABLE', { 'Retry-After': '5' })]);
    server.use(http.get(`${T}/api/parlay/health`, seq.resolver));
    const err = await client({ maxRetryAfterMs: 2_000 })
      .health.parlayHealth()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(seq.keys).toHaveLength(1);
  });

  it('does not start a wait that would pass the call’s total budget', async () => {
    const seq = sequence([() => apiError(429, 'RATE_LIMITED', { 'Retry-After': '30' })]);
    server.use(http.get(`${T}/api/parlay/health`, seq.resolver));
    const err = await client()
      .health.parlayHealth({}, { totalTimeoutMs: 1_000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(30_000);
    expect(seq.keys).toHaveLength(1);
  });

  it('shortens the last attempt to what remains of the total budget', async () => {
    server.use(
      http.get(`${T}/api/parlay/health`, async () => {
        await delay(5_000);
        return HttpResponse.json(health);
      }),
    );
    const err = await client({ timeoutMs: 30_000, totalTimeoutMs: 200 })
      .health.parlayHealth()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
  });
});

describe('Idempotency-Key', () => {
  it('goes on every non-GET, whether or not the route stores answers, and never on a GET', async () => {
    const seen: Record<string, string | null> = {};
    server.use(
      http.post(`${M}/svc/protocol-stats/refresh`, ({ request }) => {
        seen['refresh'] = request.headers.get('idempotency-key');
        return HttpResponse.json(stats, { status: 201 });
      }),
      http.delete(`${M}/svc/admin/auth/logout`, ({ request }) => {
        seen['logout'] = request.headers.get('idempotency-key');
        return HttpResponse.json({ loggedOut: true });
      }),
      http.get(`${T}/api/parlay/health`, ({ request }) => {
        seen['health'] = request.headers.get('idempotency-key');
        return HttpResponse.json(health);
      }),
    );
    const c = client({ adminToken: 'admin-token' });
    await c.protocolStats.refresh({ body: {} }).catch(() => undefined);
    await c.adminAuth.logout();
    await c.health.parlayHealth();
    expect(seen['refresh']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen['logout']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen['logout']).not.toBe(seen['refresh']);
    expect(seen['health']).toBeNull();
  });

  it('is new for each logical call', async () => {
    const seq = sequence([() => HttpResponse.json({ loggedOut: true })]);
    server.use(http.delete(`${M}/svc/admin/auth/logout`, seq.resolver));
    const c = client({ adminToken: 'admin-token' });
    await c.adminAuth.logout();
    await c.adminAuth.logout();
    expect(seq.keys[0]).not.toBe(seq.keys[1]);
  });

  it('keeps the caller’s key', async () => {
    const seq = sequence([() => HttpResponse.json(registered, { status: 201 })]);
    server.use(http.post(`${M}/svc/user/bulk-register/register-simple`, seq.resolver));
    await client().bulkRegister.registerSimple({ body: { address: ADDRESS } }, { idempotencyKey: 'my-own-key-1' });
    expect(seq.keys).toEqual(['my-own-key-1']);
  });

  it('is reused when a timed-out attempt is retried', async () => {
    const seq = sequence([
      async () => {
        await delay(2_000);
        return HttpResponse.json({ loggedOut: true });
      },
      () => HttpResponse.json({ loggedOut: true }),
    ]);
    server.use(http.delete(`${M}/svc/admin/auth/logout`, seq.resolver));
    const res = await client({ adminToken: 't', timeoutMs: 100 }).adminAuth.logout.withResponse();
    expect(res.meta.attempts).toBe(2);
    expect(seq.keys[1]).toBe(seq.keys[0]);
  });

  it('is reused when a connection failure is retried, and is on the error when retries run out', async () => {
    const seq = sequence([() => HttpResponse.error()]);
    server.use(http.post(`${M}/svc/user/bulk-register/register-simple`, seq.resolver));
    const err = await client({ maxRetries: 1 })
      .bulkRegister.registerSimple({ body: { address: ADDRESS } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(seq.keys).toHaveLength(2);
    expect(seq.keys[1]).toBe(seq.keys[0]);
    expect((err as ConnectionError).idempotencyKey).toBe(seq.keys[0]);
  });
});

describe('routes a client may not simply send again', () => {
  const signedIn = {
    body: { message: 'duelkit.example wants you to sign in', signature: `0x${'ab'.repeat(65)}` },
  } as const;

  it('does not resend a one-time sign-in after a timeout or a 5xx: it may have run', async () => {
    const slow = sequence([
      async () => {
        await delay(2_000);
        return HttpResponse.json({ exists: false });
      },
    ]);
    server.use(http.post(`${M}/svc/user/auth/eoa/login`, slow.resolver));
    const timedOut = await client({ timeoutMs: 100 })
      .auth.eoaLogin(signedIn)
      .catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect(slow.keys).toHaveLength(1);

    const failing = sequence([() => apiError(503, 'DATABASE_UNAVAILABLE', { 'Retry-After': '1' })]);
    server.use(http.post(`${M}/svc/user/auth/eoa/login`, failing.resolver));
    const unavailable = await client()
      .auth.eoaLogin(signedIn)
      .catch((e: unknown) => e);
    expect(unavailable).toBeInstanceOf(ServerError);
    expect(failing.keys).toHaveLength(1);
  });

  it('resends a one-time sign-in the service refused before running it (429)', async () => {
    const seq = sequence([
      () => apiError(429, 'RATE_LIMITED', { 'retry-after-ms': '10' }),
      () => HttpResponse.json({ exists: false }),
    ]);
    server.use(http.post(`${M}/svc/user/auth/eoa/login`, seq.resolver));
    const res = await client().auth.eoaLogin.withResponse(signedIn);
    expect([res.data, res.meta.attempts]).toEqual([{ exists: false }, 2]);
  });
});

describe('retryable codes come from the contract’s error table', () => {
  it('retries 409 IDEMPOTENCY_KEY_IN_FLIGHT until the first request has finished', async () => {
    const seq = sequence([
      () => apiError(409, 'IDEMPOTENCY_KEY_IN_FLIGHT', { 'retry-after-ms': '10' }),
      () => HttpResponse.json(registered, { status: 201, headers: { 'idempotent-replayed': 'true' } }),
    ]);
    server.use(http.post(`${M}/svc/user/bulk-register/register-simple`, seq.resolver));
    const res = await client().bulkRegister.registerSimple.withResponse({ body: { address: ADDRESS } });
    expect(res.meta.replayed).toBe(true);
    expect(seq.keys).toHaveLength(2);
    expect(seq.keys[1]).toBe(seq.keys[0]);
  });

  it('retries 409 JOIN_TX_PENDING until the join is mined', async () => {
    const seq = sequence([
      () => apiError(409, 'JOIN_TX_PENDING', { 'retry-after-ms': '10' }),
      () => apiError(409, 'JOIN_TX_PENDING', { 'retry-after-ms': '10' }),
      () => HttpResponse.json(membership),
    ]);
    server.use(http.post(`${M}/svc/user/duel-invitations/sync-join-success`, seq.resolver));
    const res = await client().invitations.syncJoinSuccess.withResponse(
      { body: { duelId: DUEL_ID, txHash: membership.txHash } },
      { accessToken: 'user-token' },
    );
    expect(res.data.chainState).toBe('confirmed');
    expect(res.meta.attempts).toBe(3);
  });

  it('never retries another 409 or GEO_BLOCKED', async () => {
    const conflict = sequence([() => apiError(409, 'INVALID_STATE')]);
    const geo = sequence([() => apiError(403, 'GEO_BLOCKED')]);
    server.use(
      http.post(`${M}/svc/user/duel-invitations/sync-join-success`, conflict.resolver),
      http.post(`${M}/svc/user/bulk-register/register-simple`, geo.resolver),
    );
    const c = client();
    const e1 = await c.invitations
      .syncJoinSuccess({ body: { duelId: DUEL_ID, txHash: membership.txHash } }, { accessToken: 'u' })
      .catch((e: unknown) => e);
    const e2 = await c.bulkRegister.registerSimple({ body: { address: ADDRESS } }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ConflictError);
    expect(e2).toBeInstanceOf(GeoBlockedError);
    expect(conflict.keys).toHaveLength(1);
    expect(geo.keys).toHaveLength(1);
  });

  it('retries 503 with backoff when no Retry-After is sent, at most maxRetries times', async () => {
    const seq = sequence([() => apiError(503, 'UPSTREAM_UNAVAILABLE')]);
    server.use(http.get(`${T}/api/parlay/health`, seq.resolver));
    const log = recordingLogger();
    const err = await client({ logger: log.logger, logLevel: 'info' })
      .health.parlayHealth()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(seq.keys).toHaveLength(3);
    const [first, second] = log.waits() as number[];
    expect(first).toBeGreaterThanOrEqual(250);
    expect(first).toBeLessThanOrEqual(500);
    expect(second).toBeGreaterThanOrEqual(500);
    expect(second).toBeLessThanOrEqual(1_000);
  });
});

describe('per-request options', () => {
  it('override the client’s headers, retries and admin token for one call', async () => {
    const seen: Headers[] = [];
    server.use(
      http.get(`${M}/svc/admin/auth/verify`, ({ request }) => {
        seen.push(request.headers);
        return apiError(503, 'DATABASE_UNAVAILABLE', { 'retry-after-ms': '10' });
      }),
    );
    const c = client({ adminToken: 'client-token', headers: { 'x-team': 'blue', 'x-trace': 'on' } });
    await c.adminAuth
      .verify({}, { maxRetries: 0, adminToken: 'call-token', headers: { 'x-trace': null, 'x-call': '1' } })
      .catch(() => undefined);
    await c.adminAuth.verify({}, { maxRetries: 1 }).catch(() => undefined);
    expect(seen).toHaveLength(3);
    const [one, two] = seen as [Headers, Headers];
    expect(one.get('authorization')).toBe('Bearer call-token');
    expect(one.get('x-team')).toBe('blue');
    expect(one.get('x-trace')).toBeNull();
    expect(one.get('x-call')).toBe('1');
    expect(one.get('x-builder-api-key')).toBe(KEY);
    expect(two.get('authorization')).toBe('Bearer client-token');
    expect(two.get('x-trace')).toBe('on');
  });

  it('takes a timeout for one call', async () => {
    server.use(
      http.get(`${T}/api/parlay/health`, async () => {
        await delay(2_000);
        return HttpResponse.json(health);
      }),
    );
    const err = await client()
      .health.parlayHealth({}, { timeoutMs: 50, maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
  });

  it('sends a user token given for one call instead of signing in', async () => {
    let auth: string | null = null;
    server.use(
      http.post(`${M}/svc/user/duel-invitations/sync-join-success`, ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json(membership);
      }),
    );
    await client().invitations.syncJoinSuccess(
      { body: { duelId: DUEL_ID, txHash: membership.txHash } },
      { accessToken: 'someone-else' },
    );
    expect(auth).toBe('Bearer someone-else');
  });
});

describe('abort', () => {
  it('cuts a wait between retries short', async () => {
    const controller = new AbortController();
    server.use(
      http.get(`${T}/api/parlay/health`, () => {
        setTimeout(() => controller.abort(), 20);
        return apiError(503, 'UPSTREAM_UNAVAILABLE', { 'Retry-After': '30' });
      }),
    );
    const err = await client()
      .health.parlayHealth({}, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortError);
  });

  it('keeps the Idempotency-Key on an AbortError during a wait, so the call can be repeated later', async () => {
    const controller = new AbortController();
    const seq = sequence([
      () => {
        setTimeout(() => controller.abort(), 20);
        return apiError(429, 'RATE_LIMITED', { 'Retry-After': '30' });
      },
    ]);
    server.use(http.post(`${M}/svc/user/bulk-register/register-simple`, seq.resolver));
    const err = await client()
      .bulkRegister.registerSimple({ body: { address: ADDRESS } }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortError);
    expect((err as AbortError).idempotencyKey).toBe(seq.keys[0]);
  });

  it('stops a request in flight and does not retry it', async () => {
    const controller = new AbortController();
    let calls = 0;
    server.use(
      http.get(`${T}/api/parlay/health`, async () => {
        calls += 1;
        setTimeout(() => controller.abort(), 20);
        await delay(2_000);
        return HttpResponse.json(health);
      }),
    );
    const err = await client()
      .health.parlayHealth({}, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortError);
    expect(calls).toBe(1);
  });

  it('sends nothing when the signal has already fired', async () => {
    let calls = 0;
    server.use(
      http.get(`${T}/api/parlay/health`, () => {
        calls += 1;
        return HttpResponse.json(health);
      }),
    );
    const err = await client()
      .health.parlayHealth({}, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortError);
    expect(calls).toBe(0);
  });
});
