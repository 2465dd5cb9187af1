import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AppRoute } from '@ts-rest/core';
import { ERROR_STATUS, enforcedAuth, marketsContract, routeMeta, tournamentsContract } from '@duelkit/contract';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundedUser } from '../../test/support/market-fixtures.js';
import { startTestServer, type TestServer } from '../../test/support/test-server.js';

/**
 * Client mistakes and transport-level abuse answer 4xx with the ApiError body, never 5xx: unbounded
 * numbers, control characters, lying encodings, broken multipart, traversal on static files, huge
 * request lines and headers, deeply nested JSON, oversized proxy parameter sets.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary answer fields
type Body = Record<string, any>;

let server: TestServer;
let userToken: string;
let adminToken: string;

beforeAll(async () => {
  server = await startTestServer({
    RATE_LIMIT_TEAM_PER_MIN: '100000',
    TOURNAMENTS_IP_LIMIT_PER_MIN: '100000',
    SPORTS_PROXY_IP_LIMIT_PER_MIN: '100000',
    SPORTS_HELPERS_IP_LIMIT_PER_MIN: '100000',
  });
  userToken = (await fundedUser(server.container, server.builderKey, 'edge_user', 0n)).token;
  await server.container.identity.admins.create('edge@example.com', 'edge admin password');
  const login = await call('markets', '/svc/admin/auth/login', {
    method: 'POST',
    body: JSON.stringify({ email: 'edge@example.com', password: 'edge admin password' }),
  });
  adminToken = login.body['token'] as string;
}, 120_000);
afterAll(() => server?.close());

type Host = 'markets' | 'tournaments';
const baseOf = (host: Host) => (host === 'markets' ? server.marketsUrl : server.tournamentsUrl);

async function call(host: Host, path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (!headers.has('x-builder-api-key')) headers.set('x-builder-api-key', server.builderKey);
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  const res = await fetch(`${baseOf(host)}${path}`, { ...init, headers });
  const text = await res.text();
  let body: Body;
  try {
    body = JSON.parse(text) as Body;
  } catch {
    body = { raw: text };
  }
  return { status: res.status, body };
}

/** A raw HTTP/1.1 exchange, for what fetch will not send (request lines and headers past the limit). */
function raw(host: Host, path: string, headers: Record<string, string>) {
  const url = new URL(baseOf(host));
  return new Promise<{ status: number; body: Body }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body every error has: a known code with its status, and a request id. */
function expectApiError(res: { status: number; body: Body }, code: string) {
  expect(res.body).toMatchObject({ code, requestId: expect.any(String) as string });
  expect(res.status).toBe(ERROR_STATUS[code as keyof typeof ERROR_STATUS]);
}

// ---- every route of the contract ----

interface ContractRoute {
  readonly host: Host;
  readonly name: string;
  readonly route: AppRoute;
}

function routesOf(host: Host, router: object, prefix = ''): ContractRoute[] {
  return Object.entries(router).flatMap(([name, value]) =>
    value && typeof value === 'object' && 'method' in value && 'path' in value
      ? [{ host, name: `${prefix}${name}`, route: value as AppRoute }]
      : routesOf(host, value as object, `${prefix}${name}.`),
  );
}

const ROUTES = [...routesOf('markets', marketsContract), ...routesOf('tournaments', tournamentsContract)];

/** Unwraps optional, default and effects wrappers down to the schema underneath. */
function base(schema: z.ZodTypeAny): z.ZodTypeAny {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodTypeAny;
    else if (s instanceof z.ZodDefault) s = s.removeDefault() as z.ZodTypeAny;
    else if (s instanceof z.ZodEffects) s = s.innerType() as z.ZodTypeAny;
    else return s;
  }
}

function queryFields(route: AppRoute): [string, z.ZodTypeAny][] {
  const query = 'query' in route && route.query ? base(route.query as z.ZodTypeAny) : null;
  return query instanceof z.ZodObject ? Object.entries(query.shape as Record<string, z.ZodTypeAny>) : [];
}

const SAMPLE_PARAMS: Record<string, string> = {
  duelId: `0x${'ab'.repeat(32)}`,
  address: '0x00000000000000000000000000000000000000aa',
  userAddress: '0x00000000000000000000000000000000000000aa',
  leagueId: 'default',
  id: randomUUID(),
  parentMarketId: randomUUID(),
  inviteCode: 'abcd-1234',
  fixtureId: '1',
  teamId: '1',
};

/** The route's path with plausible values for its parameters, one of them replaced when asked. */
function pathOf(route: AppRoute, override?: { name: string; value: string }): string {
  return route.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) =>
    override?.name === name ? override.value : encodeURIComponent(SAMPLE_PARAMS[name] ?? 'x'),
  );
}

/** Credentials the route asks for, so the request reaches validation. */
function tokenFor(route: AppRoute): string | undefined {
  const meta = routeMeta(route);
  const { personalised } = meta;
  const auth = enforcedAuth(meta);
  if (auth === 'admin' || auth === 'admin-challenge') return adminToken;
  if (auth === 'bearer' || auth === 'jwt-or-wallet' || auth === 'optional-bearer' || personalised) return userToken;
  return undefined;
}

async function send(r: ContractRoute, path: string) {
  const token = tokenFor(r.route);
  const hasBody = r.route.method !== 'GET' && r.route.method !== 'DELETE';
  return call(r.host, path, {
    method: r.route.method,
    ...(token ? { token } : {}),
    ...(hasBody ? { body: '{}' } : {}),
  });
}

const NUMERIC = ROUTES.flatMap((r) =>
  queryFields(r.route)
    .filter(([, schema]) => base(schema) instanceof z.ZodNumber)
    .map(([key]) => [`${r.route.method} ${r.route.path} ?${key}`, r, key] as const),
);

const TEXT_QUERY = ROUTES.flatMap((r) =>
  queryFields(r.route)
    .filter(([, schema]) => {
      const b = base(schema);
      return b instanceof z.ZodString || b instanceof z.ZodEnum;
    })
    .map(([key]) => [`${r.route.method} ${r.route.path} ?${key}`, r, key] as const),
);

const PATH_PARAMS = ROUTES.flatMap((r) =>
  [...r.route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map(
    (m) => [`${r.route.method} ${r.route.path} :${m[1]}`, r, m[1] as string] as const,
  ),
);

describe('numbers in queries are bounded at the contract', () => {
  it('covers the lists named in the issue', () => {
    const covered = new Set(NUMERIC.map(([, r, key]) => `${r.route.path} ${key}`));
    for (const path of [
      '/svc/public/duels/all',
      '/svc/user/duels/get-all-duels',
      '/svc/user/duels/by-league/:leagueId',
      '/svc/leaderboard/creators',
      '/svc/leaderboard/traders',
      '/svc/leaderboard/creators/pnl',
      '/svc/user/duel-invitations/memberships/:userAddress',
    ]) {
      expect(covered).toContain(`${path} page`);
    }
  });

  it.each(NUMERIC)('%s=99999999999999999999 is a 400', async (_, r, key) => {
    const res = await send(r, `${pathOf(r.route)}?${key}=99999999999999999999`);
    expectApiError(res, 'VALIDATION_FAILED');
    expect(Object.keys(res.body['fieldErrors'] as Body)).toContain(`query.${key}`);
  });

  it.each(NUMERIC)('%s with negative, fractional or non-numeric values is a 400', async (_, r, key) => {
    for (const value of ['-1', '1.5', 'abc', 'Infinity', '']) {
      expectApiError(await send(r, `${pathOf(r.route)}?${key}=${value}`), 'VALIDATION_FAILED');
    }
  });

  it.each(TEXT_QUERY)('%s with long or unusual text is never a 5xx', async (_, r, key) => {
    for (const value of [encodeURIComponent('é'.repeat(500)), '%F0%9F%92%A5', "'%3B--", 'a'.repeat(2_000)]) {
      const res = await send(r, `${pathOf(r.route)}?${key}=${value}`);
      expect(res.status, `${key}=${value.slice(0, 20)}`).toBeLessThan(500);
    }
  });

  it('bounds page numbers in POST bodies too', async () => {
    const res = await call('markets', '/svc/user/portfolio/table/history', {
      method: 'POST',
      token: userToken,
      body: JSON.stringify({ page: 1e20 }),
    });
    expectApiError(res, 'VALIDATION_FAILED');
  });
});

describe('control characters are refused as 400', () => {
  it.each(TEXT_QUERY)('%s=%00', async (_, r, key) => {
    expectApiError(await send(r, `${pathOf(r.route)}?${key}=a%00b`), 'VALIDATION_FAILED');
  });

  it.each(PATH_PARAMS)('%s with a NUL byte', async (_, r, name) => {
    expectApiError(await send(r, pathOf(r.route, { name, value: 'a%00b' })), 'VALIDATION_FAILED');
  });

  it.each(PATH_PARAMS)('%s with odd but printable values is never a 5xx', async (_, r, name) => {
    for (const value of ['zz', '-1', '99999999999999999999', encodeURIComponent('é'.repeat(120)), '%20']) {
      const res = await send(r, pathOf(r.route, { name, value }));
      expect(res.status, `${value} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
    }
  });

  it('in the query, as names and nested values, and in any byte below 0x20', async () => {
    for (const query of ['category=%1F', 'category=%7F', 'cat%00egory=x', 'category[a]=%00']) {
      expectApiError(await call('markets', `/svc/public/duels/all?${query}`), 'VALIDATION_FAILED');
    }
  });

  it('as NUL in a JSON body, in values and keys, before any database sees it', async () => {
    const create = (question: string) =>
      call('markets', '/svc/user/duels/create', {
        method: 'POST',
        token: userToken,
        body: JSON.stringify({
          question,
          category: 'Football',
          startTime: new Date(Date.now() + 86_400_000).toISOString(),
          endTime: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        }),
      });
    const res = await create('Will\u0000it rain?');
    expectApiError(res, 'VALIDATION_FAILED');
    expect(res.body['fieldErrors']).toEqual({ 'body.question': ['must not contain NUL characters'] });
    const key = await call('markets', '/svc/user/auth/eoa/challenge', { method: 'POST', body: '{"a\\u0000":1}' });
    expectApiError(key, 'VALIDATION_FAILED');
  });

  it('as malformed percent-encoding in the path', async () => {
    expectApiError(await call('markets', '/svc/user/duels/by-league/%E0%A4%A'), 'VALIDATION_FAILED');
  });
});

describe('bodies that lie about themselves', () => {
  const challenge = JSON.stringify({ address: '0x00000000000000000000000000000000000000aa' });

  it('Content-Encoding: gzip over a plain body is a 400; an honest gzip body is read', async () => {
    const lying = await call('markets', '/svc/user/auth/eoa/challenge', {
      method: 'POST',
      headers: { 'content-encoding': 'gzip' },
      body: challenge,
    });
    expectApiError(lying, 'VALIDATION_FAILED');
    const deflate = await call('markets', '/svc/user/auth/eoa/challenge', {
      method: 'POST',
      headers: { 'content-encoding': 'deflate' },
      body: challenge,
    });
    expectApiError(deflate, 'VALIDATION_FAILED');
    const honest = await call('markets', '/svc/user/auth/eoa/challenge', {
      method: 'POST',
      headers: { 'content-encoding': 'gzip' },
      body: new Uint8Array(gzipSync(challenge)),
    });
    expect(honest.status).toBe(200);
  });

  it('an unknown Content-Encoding is a 415', async () => {
    const res = await call('markets', '/svc/user/auth/eoa/challenge', {
      method: 'POST',
      headers: { 'content-encoding': 'br' },
      body: challenge,
    });
    expectApiError(res, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('JSON nested deeper than the limit is a 400, however deep', async () => {
    for (const depth of [40, 10_000, 300_000]) {
      const res = await call('markets', '/svc/user/auth/eoa/challenge', {
        method: 'POST',
        body: `{"address":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      });
      expect(res.status, `depth ${depth}`).toBe(400);
      expect(['VALIDATION_FAILED', 'MALFORMED_JSON']).toContain(res.body['code']);
    }
  });
});

describe('multipart uploads', () => {
  const upload = (contentType: string, body: BodyInit, headers: Record<string, string> = {}) =>
    call('markets', '/svc/user/auth/profile-image', {
      method: 'POST',
      token: userToken,
      headers: { 'content-type': contentType, ...headers },
      body,
    });
  const part = (boundary: string) =>
    [
      `--${boundary}`,
      'Content-Disposition: form-data; name="image"; filename="a.png"',
      'Content-Type: image/png',
      '',
      'not really a png',
      `--${boundary}--`,
      '',
    ].join('\r\n');

  it('a missing, broken or wrong boundary is a 400 with the error body', async () => {
    expectApiError(await upload('multipart/form-data', part('xyz')), 'VALIDATION_FAILED');
    expectApiError(await upload('multipart/form-data; boundary=', part('xyz')), 'VALIDATION_FAILED');
    expectApiError(await upload('multipart/form-data; boundary=abc', part('xyz')), 'VALIDATION_FAILED');
    expectApiError(await upload('multipart/form-data; boundary=xyz', part('xyz').slice(0, 60)), 'VALIDATION_FAILED');
  });

  it('a gzip Content-Encoding the parser cannot read is a 400', async () => {
    const res = await upload('multipart/form-data; boundary=xyz', new Uint8Array(gzipSync(part('xyz'))), {
      'content-encoding': 'gzip',
    });
    expect(res.status).toBe(400);
  });

  it('a well-formed upload of a non-image still reaches the service', async () => {
    expectApiError(await upload('multipart/form-data; boundary=xyz', part('xyz')), 'UNSUPPORTED_IMAGE');
  });
});

describe('static files', () => {
  it('refuse encoded traversal, NUL bytes and bad encoding with a 4xx error body', async () => {
    for (const path of [
      '/media/..%2f..%2fetc%2fpasswd',
      '/media/%2e%2e/%2e%2e/etc/passwd',
      '/media/..%5c..%5cetc%5cpasswd',
      '/media/a%00.png',
      '/media/%E0%A4%A',
    ]) {
      const res = await call('markets', path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.body['requestId'], path).toEqual(expect.any(String));
      expect(res.body['raw'], path).toBeUndefined();
    }
    expectApiError(await call('markets', '/media/no-such-file.png'), 'NOT_FOUND');
  });
});

describe('oversized requests', () => {
  it('a request line or headers past 16 KB get 431 with the error body, and the server carries on', async () => {
    const longQuery = await raw('markets', `/svc/public/duels/all?category=${'x'.repeat(20_000)}`, {
      'x-builder-api-key': server.builderKey,
    });
    expectApiError(longQuery, 'HEADERS_TOO_LARGE');
    const bigHeader = await raw('tournaments', '/api/tournaments/health', {
      'x-builder-api-key': server.builderKey,
      'x-filler': 'y'.repeat(20_000),
    });
    expectApiError(bigHeader, 'HEADERS_TOO_LARGE');
    expect((await call('markets', '/svc/public/duels/all')).status).toBe(200);
  });

  it('a query string of a thousand parameters is a 400, not a 5xx', async () => {
    const query = Array.from({ length: 1_000 }, (_, i) => `p${i}=${i}`).join('&');
    expectApiError(await call('markets', `/svc/public/duels/all?${query}`), 'VALIDATION_FAILED');
  });

  it('a sports proxy call with 5,000 parameters, or a query string too long to forward, is a 400', async () => {
    const proxy = (params: Record<string, string | number>) =>
      call('tournaments', '/svc/sports/proxy', {
        method: 'POST',
        body: JSON.stringify({ path: 'football/fixtures', params }),
      });
    const many = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`p${i}`, i]));
    const res = await proxy(many);
    expectApiError(res, 'VALIDATION_FAILED');
    expect(Object.keys(res.body['fieldErrors'] as Body)).toContain('body.params');
    const long = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, 'x'.repeat(1_000)]));
    expectApiError(await proxy(long), 'VALIDATION_FAILED');
  });
});
