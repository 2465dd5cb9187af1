import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initContract } from '@ts-rest/core';
import { AmountSchema, ApiErrorSchema, HealthSchema, ReadinessSchema, commonResponses, meta } from '@duelkit/contract';

const c = initContract();
import { createHostApp, tsRest } from '../app.js';
import { startTestServer, type TestServer } from '../../test/support/test-server.js';

/** A contract of our own mounted behind the real middleware stack: one idempotent write. */
const probeContract = c.router(
  {
    createOrder: {
      method: 'POST',
      path: '/test/orders',
      body: z.object({ amount: AmountSchema, note: z.string().max(20).optional() }).strict(),
      responses: { 201: z.object({ id: z.number(), amount: AmountSchema, effects: z.number() }).strict() },
      metadata: meta('Test', '0', 'public', { idempotent: true }),
    },
  },
  { commonResponses, strictStatusCodes: true },
);

let server: TestServer;
let probe: Server;
let probeUrl: string;

async function call(url: string, init: RequestInit & { key?: string | null } = {}) {
  const headers = new Headers(init.headers);
  if (init.key !== null) headers.set('x-builder-api-key', init.key ?? server.builderKey);
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_TEAM_PER_MIN: '1000', JSON_BODY_LIMIT: '2kb' });
  const conn = server.container.orm.em.fork().getConnection();
  await conn.execute('create table test_effects (id serial primary key, amount numeric(78,0) not null)');
  const s = initServer();
  const app = createHostApp(server.container, 'markets', (a, options) =>
    createExpressEndpoints(
      probeContract,
      s.router(probeContract, {
        createOrder: async ({ body }) => {
          // Slow enough that concurrent duplicates really overlap with the first request.
          await new Promise((r) => setTimeout(r, 150));
          const em = server.container.orm.em.fork();
          const [row] = await em
            .getConnection()
            .execute<{ id: number }[]>('insert into test_effects (amount) values (?) returning id', [body.amount]);
          const [{ n }] = await em
            .getConnection()
            .execute<[{ n: number }]>('select count(*)::int as n from test_effects');
          return { status: 201, body: { id: Number(row?.id), amount: body.amount, effects: n } };
        },
      }),
      a,
      tsRest(options),
    ),
  );
  probe = createServer(app);
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => probe?.close(r));
  await server?.close();
});

describe('builder keys', () => {
  it('rejects a request without a builder key with 401 BUILDER_KEY_INVALID and the request id', async () => {
    const res = await call(`${server.tournamentsUrl}/api/parlay/health`, { key: null });
    expect(res.status).toBe(401);
    expect(ApiErrorSchema.parse(res.body).code).toBe('BUILDER_KEY_INVALID');
    expect(res.body?.['requestId']).toBe(res.headers.get('x-request-id'));
  });

  it('rejects an unknown and a revoked key', async () => {
    expect((await call(`${server.tournamentsUrl}/api/parlay/health`, { key: 'dk_nope' })).status).toBe(401);
    const created = await server.container.builderKeys.create({ name: 'to-revoke', tier: 'team' });
    expect((await call(`${server.tournamentsUrl}/api/parlay/health`, { key: created.key })).status).toBe(200);
    await server.container.builderKeys.revoke(created.tenant.keyId);
    expect((await call(`${server.tournamentsUrl}/api/parlay/health`, { key: created.key })).status).toBe(401);
  });

  it('accepts one key on both hosts and leaves operational routes open', async () => {
    expect((await call(`${server.tournamentsUrl}/api/tournaments/health`)).status).toBe(200);
    expect((await call(`${server.marketsUrl}/health`, { key: null })).status).toBe(200);
    expect((await call(`${server.marketsUrl}/ready`, { key: null })).status).toBe(200);
    const doc = await call(`${server.marketsUrl}/openapi.json`, { key: null });
    expect(doc.body?.['openapi']).toMatch(/^3\./);
  });
});

describe('security headers and CORS', () => {
  it('gives an API answer the API security headers, not a document policy', async () => {
    const res = await call(`${server.tournamentsUrl}/api/tournaments/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    // Nothing keeps a builder's web app on another origin from showing an uploaded image.
    expect(res.headers.get('cross-origin-resource-policy')).toBeNull();
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('allows a cross-origin caller and exposes the headers it needs; a same-origin answer carries neither', async () => {
    const cross = await call(`${server.tournamentsUrl}/api/tournaments/health`, {
      headers: { origin: 'https://app.example' },
    });
    expect(cross.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(cross.headers.get('access-control-expose-headers')?.split(',')).toEqual(
      expect.arrayContaining(['x-request-id', 'Retry-After', 'RateLimit-Remaining', 'Idempotent-Replayed']),
    );
    const same = await call(`${server.tournamentsUrl}/api/tournaments/health`);
    expect(same.headers.get('access-control-allow-origin')).toBeNull();
    expect(same.headers.get('access-control-expose-headers')).toBeNull();
  });

  it('answers a preflight', async () => {
    const res = await fetch(`${server.marketsUrl}/svc/public/duels/all`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-builder-api-key',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('access-control-allow-headers')).toContain('x-builder-api-key');
  });

  it('keeps the document policy on the reference pages', async () => {
    const res = await fetch(`${server.marketsUrl}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const guide = await fetch(`${server.marketsUrl}/docs/init.js`);
    expect(guide.status).toBe(200);
    expect(guide.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});

describe('parlay health probes', () => {
  it('answers liveness and readiness with the builder key, and refuses both without it', async () => {
    const live = await call(`${server.tournamentsUrl}/api/parlay/health/live`);
    expect(live.status).toBe(200);
    expect(HealthSchema.parse(live.body)).toMatchObject({ status: 'ok', service: 'parlay' });
    const ready = await call(`${server.tournamentsUrl}/api/parlay/health/ready`);
    expect(ready.status).toBe(200);
    const readiness = ReadinessSchema.parse(ready.body);
    expect(readiness.status).not.toBe('not_ready');
    expect(readiness.checks['postgres']?.status).toBe('up');
    for (const path of ['/api/parlay/health/live', '/api/parlay/health/ready']) {
      const refused = await call(`${server.tournamentsUrl}${path}`, { key: null });
      expect(refused.status).toBe(401);
      expect(ApiErrorSchema.parse(refused.body).code).toBe('BUILDER_KEY_INVALID');
    }
  });
});

describe('request ids and errors', () => {
  it('echoes a sane client request id and replaces an insane one', async () => {
    const ok = await call(`${server.tournamentsUrl}/api/parlay/health`, { headers: { 'x-request-id': 'abc-123' } });
    expect(ok.headers.get('x-request-id')).toBe('abc-123');
    const bad = await call(`${server.tournamentsUrl}/api/parlay/health`, {
      headers: { 'x-request-id': 'a b<script>' },
    });
    expect(bad.headers.get('x-request-id')).not.toBe('a b<script>');
  });

  it('answers unknown routes with 404 ROUTE_NOT_FOUND in the error body', async () => {
    const res = await call(`${server.marketsUrl}/svc/nope`);
    expect(res.status).toBe(404);
    expect(ApiErrorSchema.parse(res.body).code).toBe('ROUTE_NOT_FOUND');
  });

  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const res = await call(`${probeUrl}/test/orders`, { method: 'POST', body: '{"amount": ' });
    expect(res.status).toBe(400);
    expect(res.body?.['code']).toBe('MALFORMED_JSON');
  });

  it('answers wrong types and unknown fields with 400 VALIDATION_FAILED and per-field errors', async () => {
    const res = await call(`${probeUrl}/test/orders`, {
      method: 'POST',
      body: JSON.stringify({ amount: 5, extra: true }),
    });
    expect(res.status).toBe(400);
    const body = ApiErrorSchema.parse(res.body);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(body.fieldErrors ?? {}).sort()).toEqual(['body.amount', 'body.extra']);
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE, not 500', async () => {
    const res = await call(`${probeUrl}/test/orders`, {
      method: 'POST',
      body: JSON.stringify({ amount: '1', note: 'x'.repeat(5000) }),
    });
    expect(res.status).toBe(413);
    expect(res.body?.['code']).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('idempotency', () => {
  const order = (key: string, amount = '5000000000000000000') =>
    call(`${probeUrl}/test/orders`, {
      method: 'POST',
      body: JSON.stringify({ amount }),
      headers: { 'Idempotency-Key': key },
    });

  it('replays the stored response for a repeated Idempotency-Key', async () => {
    const first = await order('replay-1');
    const second = await order('replay-1');
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
  });

  it('rejects the same key with a different body with 422 IDEMPOTENCY_KEY_REUSED', async () => {
    await order('reuse-1', '1');
    const res = await order('reuse-1', '2');
    expect(res.status).toBe(422);
    expect(res.body?.['code']).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('treats body key order as the same request', async () => {
    const a = await call(`${probeUrl}/test/orders`, {
      method: 'POST',
      body: '{"amount":"7","note":"n"}',
      headers: { 'Idempotency-Key': 'order-1' },
    });
    const b = await call(`${probeUrl}/test/orders`, {
      method: 'POST',
      body: '{"note":"n","amount":"7"}',
      headers: { 'Idempotency-Key': 'order-1' },
    });
    expect(b.body).toEqual(a.body);
  });

  it('runs exactly one effect for 25 concurrent duplicates, all answered with the same body', async () => {
    const conn = server.container.orm.em.fork().getConnection();
    const [{ n: before }] = await conn.execute<[{ n: number }]>('select count(*)::int as n from test_effects');
    const results = await Promise.all(Array.from({ length: 25 }, () => order('concurrent-1', '42')));
    const [{ n: after }] = await conn.execute<[{ n: number }]>('select count(*)::int as n from test_effects');
    expect(after - before).toBe(1);
    expect(new Set(results.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(24);
  });

  it('does not store a validation failure, so the corrected request runs under the same key', async () => {
    const bad = await call(`${probeUrl}/test/orders`, {
      method: 'POST',
      body: JSON.stringify({ amount: 'x' }),
      headers: { 'Idempotency-Key': 'fix-1' },
    });
    expect(bad.status).toBe(400);
    const retry = await order('fix-1', '9');
    // A different body after a validation failure is not a reuse: nothing was stored.
    expect(retry.status).toBe(201);
  });

  it('rejects a malformed Idempotency-Key', async () => {
    const res = await order('has space');
    expect(res.status).toBe(400);
    expect(res.body?.['fieldErrors']).toHaveProperty(['headers.idempotency-key']);
  });
});
