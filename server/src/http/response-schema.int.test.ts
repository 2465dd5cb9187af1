import { initContract } from '@ts-rest/core';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { AmountSchema, ApiErrorSchema, commonResponses, meta, TxHashSchema } from '@duelkit/contract';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { serveOnLoopback } from '../../test/support/http.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostApp, tsRest } from '../app.js';
import { ctxOf } from './request-context.js';
import { createLogger } from '../logger.js';
import { startTestServer, type TestServer } from '../../test/support/test-server.js';

const c = initContract();

/**
 * Routes whose own answers break their response schemas: one that ts-rest's response validation
 * catches, one whose pending answer the idempotency layer shapes before the chain write is
 * recorded. Beside them, a route whose request body is checked as usual.
 */
const brokenContract = c.router(
  {
    brokenRead: {
      method: 'GET',
      path: '/test/broken-read',
      responses: { 200: z.object({ secretBalance: z.number() }).strict() },
      metadata: meta('Test', '0', 'public'),
    },
    brokenGrant: {
      method: 'POST',
      path: '/test/broken-grants',
      body: z.object({ amount: AmountSchema }).strict(),
      responses: { 201: z.object({ txHash: TxHashSchema, secretAmount: AmountSchema }).strict() },
      metadata: meta('Test', '0', 'public', { idempotent: true }),
    },
  },
  { commonResponses, strictStatusCodes: true },
);

/** Two reads as production checks them (RESPONSE_VALIDATION=shaping): one schema shapes, one only checks. */
const productionContract = c.router(
  {
    shapingRead: {
      method: 'GET',
      path: '/test/shaping-read',
      // Not strict: parsing drops unknown keys, so this schema shapes the answer and is always run.
      responses: { 200: z.object({ balance: z.number() }) },
      metadata: meta('Test', '0', 'public'),
    },
    checkingRead: {
      method: 'GET',
      path: '/test/checking-read',
      responses: { 200: z.object({ balance: z.number() }).strict() },
      metadata: meta('Test', '0', 'public'),
    },
  },
  { commonResponses, strictStatusCodes: true },
);

let server: TestServer;
let probe: Awaited<ReturnType<typeof serveOnLoopback>> | undefined;
let production: Awaited<ReturnType<typeof serveOnLoopback>> | undefined;
let url: string;
const logLines: Record<string, unknown>[] = [];

async function call(path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('x-builder-api-key', server.builderKey);
  if (init.body) headers.set('content-type', 'application/json');
  const res = await fetch(`${url}${path}`, { ...init, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as Record<string, unknown> };
}

/** The error lines logged for one request. */
const errorLogsOf = (requestId: string | null) =>
  logLines.filter((l) => l['requestId'] === requestId && l['level'] === 50 && l['route'] !== undefined);

beforeAll(async () => {
  server = await startTestServer();
  const logger = createLogger('info', {
    write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>),
  });
  const s = initServer();
  const app = createHostApp({ ...server.container, logger }, 'markets', (a, options) =>
    createExpressEndpoints(
      brokenContract,
      s.router(brokenContract, {
        // A number that arrives as a string: the kind of slip a response schema is there to catch.
        brokenRead: async () => ({ status: 200, body: { secretBalance: '12' as unknown as number } }),
        brokenGrant: async ({ body, req }) => {
          const to = privateKeyToAccount(generatePrivateKey()).address;
          const answer = (txHash: `0x${string}`) => ({ txHash, secretAmount: Number(body.amount) });
          const txHash = await server.container.chain.mint('credits', to, BigInt(body.amount), {
            write: ctxOf(req).writeKey('grant'),
            result: answer,
          });
          return { status: 201, body: { txHash, secretAmount: body.amount } };
        },
      }),
      a,
      tsRest(options),
    ),
  );
  probe = await serveOnLoopback(app);
  url = probe.url;

  const config = server.container.config;
  const productionApp = createHostApp(
    { ...server.container, logger, config: { ...config, http: { ...config.http, responseValidation: 'shaping' } } },
    'markets',
    (a, options) =>
      createExpressEndpoints(
        productionContract,
        s.router(productionContract, {
          shapingRead: async () => ({ status: 200, body: { balance: '12' as unknown as number } }),
          checkingRead: async () => ({ status: 200, body: { balance: '12' as unknown as number } }),
        }),
        a,
        tsRest(options),
      ),
  );
  production = await serveOnLoopback(productionApp);
}, 120_000);

afterAll(async () => {
  await production?.close();
  await probe?.close();
  await server?.close();
});

describe('an answer that breaks its own response schema', () => {
  it('is a 500 INTERNAL with only the request id and code, logged with the route and the issue', async () => {
    const res = await call('/test/broken-read');
    expect(res.status).toBe(500);
    const body = ApiErrorSchema.parse(res.body);
    expect(body.code).toBe('INTERNAL');
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
    expect(Object.keys(res.body).sort()).toEqual(['code', 'message', 'requestId']);
    expect(res.text).not.toMatch(/secretBalance|Expected|received|schema/);

    const [line, ...more] = errorLogsOf(body.requestId);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ code: 'INTERNAL', route: 'GET /test/broken-read' });
    expect(line?.['issues']).toEqual({ 'response.secretBalance': ['Expected number, received string'] });
  });

  it('is a 500 INTERNAL when the pending answer of an idempotent write is shaped, not a 400', async () => {
    const res = await call('/test/broken-grants', {
      method: 'POST',
      headers: { 'idempotency-key': `broken-${Date.now()}` },
      body: JSON.stringify({ amount: '5000000000000000000' }),
    });
    expect(res.status).toBe(500);
    const body = ApiErrorSchema.parse(res.body);
    expect(body.code).toBe('INTERNAL');
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
    expect(body.fieldErrors).toBeUndefined();
    expect(res.text).not.toMatch(/secretAmount|Expected|received|schema/);

    const [line] = errorLogsOf(body.requestId);
    expect(line).toMatchObject({ code: 'INTERNAL', route: 'POST /test/broken-grants' });
    expect(line?.['issues']).toEqual({ 'response.secretAmount': ['Expected string, received number'] });
  });

  it('leaves a bad request body answered with 400 VALIDATION_FAILED and its field errors', async () => {
    const res = await call('/test/broken-grants', {
      method: 'POST',
      headers: { 'idempotency-key': `bad-${Date.now()}` },
      body: JSON.stringify({ amount: 5, extra: true }),
    });
    expect(res.status).toBe(400);
    const body = ApiErrorSchema.parse(res.body);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(body.fieldErrors ?? {}).sort()).toEqual(['body.amount', 'body.extra']);
    expect(errorLogsOf(body.requestId)).toEqual([]);
  });
});

describe('response validation as production runs it (RESPONSE_VALIDATION=shaping)', () => {
  it('still checks a route whose schema shapes its answers: a broken answer is a logged 500 INTERNAL', async () => {
    const res = await fetch(`${production?.url}/test/shaping-read`, {
      headers: { 'x-builder-api-key': server.builderKey },
    });
    const text = await res.text();
    expect(res.status).toBe(500);
    const body = ApiErrorSchema.parse(JSON.parse(text));
    expect(body.code).toBe('INTERNAL');
    expect(text).not.toMatch(/balance|Expected|received|schema/);
    const [line] = errorLogsOf(body.requestId);
    expect(line).toMatchObject({ code: 'INTERNAL', route: 'GET /test/shaping-read' });
    expect(line?.['issues']).toEqual({ 'response.balance': ['Expected number, received string'] });
  });

  it('skips the check where a schema cannot change an answer: that bug is caught where every answer is checked', async () => {
    const res = await fetch(`${production?.url}/test/checking-read`, {
      headers: { 'x-builder-api-key': server.builderKey },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ balance: '12' });
  });
});
