import { randomUUID } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fundedUser } from '../../test/support/market-fixtures.js';
import { startTestServer, type TestServer } from '../../test/support/test-server.js';
import { signDelivery } from '../areas/money/deposit-webhook.service.js';
import { walletLoginMessage } from '../areas/identity/wallet-credential.js';
import { totpCodeAt } from '../areas/identity/totp.js';

/**
 * The OpenAPI documents say what the server enforces. For every operation of both hosts, as the
 * host serves its document at /openapi.json: each `security` alternative, sent in full, is let in;
 * the same alternative without any one of its credentials (and without any credential at all) is
 * refused with the refusal of the credential that is missing — before the request is validated,
 * so those calls carry an invalid query and body.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary answer fields
type Body = Record<string, any>;
type Host = 'markets' | 'tournaments';
type Scheme =
  | 'builderKey'
  | 'bearerAuth'
  | 'adminAuth'
  | 'adminChallenge'
  | 'walletAddress'
  | 'walletSignature'
  | 'walletTimestamp'
  | 'bridgeSignature'
  | 'bridgeTimestamp';

interface Operation {
  readonly host: Host;
  readonly method: string;
  readonly path: string;
  readonly security: readonly (readonly Scheme[])[];
  readonly params: readonly { name: string; schema: { type?: string; format?: string; pattern?: string } }[];
}

const TOKENS: readonly Scheme[] = ['bearerAuth', 'adminAuth', 'adminChallenge'];
const WALLET: readonly Scheme[] = ['walletAddress', 'walletSignature', 'walletTimestamp'];
const BRIDGE: readonly Scheme[] = ['bridgeSignature', 'bridgeTimestamp'];
const SECRET = 'auth-surface-bridge-secret-0123';

let server: TestServer;
let userToken: string;
let adminToken: string;
let challengeToken: string;
const wallet = privateKeyToAccount(generatePrivateKey());
const operations: Operation[] = [];

beforeAll(async () => {
  server = await startTestServer({
    RATE_LIMIT_TEAM_PER_MIN: '100000',
    TOURNAMENTS_IP_LIMIT_PER_MIN: '100000',
    SPORTS_PROXY_IP_LIMIT_PER_MIN: '100000',
    SPORTS_HELPERS_IP_LIMIT_PER_MIN: '100000',
    BRIDGE_WEBHOOK_SECRET: SECRET,
  });
  userToken = (await fundedUser(server.container, server.builderKey, 'surface_user', 0n)).token;
  await server.container.identity.admins.create('surface@example.com', 'surface admin password');
  // A second admin with two-factor authentication on: its logins answer a challenge token.
  await server.container.identity.admins.create('surface-2fa@example.com', 'surface admin password');
  const session = (await adminLogin('surface-2fa@example.com'))['token'] as string;
  const setup = await adminCall('/svc/admin/auth/2fa/setup', session, {});
  const secret = setup['secret'] as string;
  await adminCall('/svc/admin/auth/2fa/verify-setup', session, { code: totpCodeAt(secret, Date.now()) });
  for (const host of ['markets', 'tournaments'] as const) {
    const doc = (await (await fetch(`${baseOf(host)}/openapi.json`)).json()) as Body;
    for (const [path, item] of Object.entries(doc['paths'] as Record<string, Record<string, Body>>)) {
      for (const [method, op] of Object.entries(item)) {
        operations.push({
          host,
          method: method.toUpperCase(),
          path,
          security: (op['security'] as Record<string, string[]>[]).map((r) => Object.keys(r) as Scheme[]),
          params: ((op['parameters'] ?? []) as Body[]).filter(
            (p) => p['in'] === 'path',
          ) as unknown as Operation['params'],
        });
      }
    }
  }
  // A logout ends the session the calls use: last.
  operations.sort((a, b) => Number(a.path.endsWith('/logout')) - Number(b.path.endsWith('/logout')));
}, 120_000);
afterAll(() => server?.close());

async function adminCall(path: string, token: string | null, body: unknown): Promise<Body> {
  const res = await fetch(`${server.marketsUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-builder-api-key': server.builderKey,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Body;
}

const adminLogin = (email: string) =>
  adminCall('/svc/admin/auth/login', null, { email, password: 'surface admin password' });

/** A fresh admin session and login challenge for each test: the previous test's last call logged the session out. */
beforeEach(async () => {
  adminToken = (await adminLogin('surface@example.com'))['token'] as string;
  challengeToken = (await adminLogin('surface-2fa@example.com'))['challengeToken'] as string;
});

const baseOf = (host: Host) => (host === 'markets' ? server.marketsUrl : server.tournamentsUrl);

/** Syntactically valid values for the path parameter schemas the contract uses. */
const BY_PATTERN: Record<string, string> = {
  '^0x[0-9a-fA-F]{64}$': `0x${'ab'.repeat(32)}`,
  '^0x[0-9a-fA-F]{40}$': `0x${'00'.repeat(19)}aa`,
  '^[0-9a-fA-F]{24}$': 'ab'.repeat(12),
  '^[1-9][0-9]{0,17}$': '1',
  '^[A-Za-z0-9_-]{4,64}$': 'abcd1234',
  '^[1-9][0-9]{0,15}$': '1',
  '^([1-9][0-9]{0,15}|0x[0-9a-fA-F]{1,64})$': '1',
  '^pq_[0-9a-f]{24}$': `pq_${'ab'.repeat(12)}`,
  '^(0|[1-9][0-9]{0,77})$': '1',
};

function valueFor(op: Operation, name: string): string {
  const param = op.params.find((p) => p.name === name);
  const schema = param?.schema ?? {};
  let value: string | undefined;
  if (schema.format === 'uuid') value = randomUUID();
  else if (schema.pattern) value = BY_PATTERN[schema.pattern];
  else if (schema.type === 'integer' || schema.type === 'number') value = '1';
  else if (schema.type === 'string') value = 'x';
  if (value === undefined)
    throw new Error(`${op.method} ${op.path}: no sample for {${name}} ${JSON.stringify(schema)}`);
  if (schema.pattern) expect(new RegExp(schema.pattern).test(value), `${op.path} {${name}}`).toBe(true);
  return encodeURIComponent(value);
}

const urlOf = (op: Operation) => op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => valueFor(op, name));

/** What a request carries besides credentials: a valid-looking input, one the schemas refuse, or unreadable JSON. */
type Input = 'valid' | 'invalid' | 'malformed';

/** Sends `op` with exactly the credentials in `creds`; an invalid input adds an unknown query field and body field. */
async function send(op: Operation, creds: ReadonlySet<Scheme>, input: Input | boolean) {
  const kind: Input = input === true ? 'invalid' : input === false ? 'valid' : input;
  const invalid = kind !== 'valid';
  const headers: Record<string, string> = {};
  const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
  const body = !hasBody
    ? undefined
    : kind === 'malformed'
      ? '{"unexpectedField": tru'
      : JSON.stringify(invalid ? { unexpectedField: true } : {});
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (creds.has('builderKey')) headers['x-builder-api-key'] = server.builderKey;
  if (creds.has('bearerAuth')) headers['authorization'] = `Bearer ${userToken}`;
  if (creds.has('adminAuth')) headers['authorization'] = `Bearer ${adminToken}`;
  if (creds.has('adminChallenge')) headers['authorization'] = `Bearer ${challengeToken}`;
  const ts = String(Date.now());
  if (creds.has('walletAddress')) headers['x-wallet-address'] = wallet.address;
  if (creds.has('walletTimestamp')) headers['x-wallet-timestamp'] = ts;
  if (creds.has('walletSignature')) {
    headers['x-wallet-signature'] = await wallet.signMessage({ message: walletLoginMessage(wallet.address, ts) });
  }
  const seconds = String(Math.floor(Date.now() / 1000));
  if (creds.has('bridgeTimestamp')) headers['x-bridge-timestamp'] = seconds;
  if (creds.has('bridgeSignature')) headers['x-bridge-signature'] = signDelivery(SECRET, seconds, body ?? '');
  const res = await fetch(`${baseOf(op.host)}${urlOf(op)}${invalid ? '?unexpectedField=1' : ''}`, {
    method: op.method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  // An event stream that let the caller in stays open: its status is the answer.
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: {} as Body };
  }
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Body };
}

const satisfied = (op: Operation, creds: ReadonlySet<Scheme>) => op.security.some((r) => r.every((s) => creds.has(s)));

/** The refusal a request missing `missing` (of the alternative it sent) must get. */
function refusalFor(missing: Scheme, sent: ReadonlySet<Scheme>): string {
  if (missing === 'builderKey') return 'BUILDER_KEY_INVALID';
  if (BRIDGE.includes(missing)) return 'SIGNATURE_INVALID';
  if (WALLET.includes(missing))
    return WALLET.some((s) => sent.has(s)) ? 'WALLET_CREDENTIAL_INVALID' : 'UNAUTHENTICATED';
  return 'UNAUTHENTICATED';
}

const label = (op: Operation) => `${op.host} ${op.method} ${op.path}`;

describe('declared security against what the server answers', () => {
  it('reads every operation of both hosts', () => {
    expect(operations.length).toBeGreaterThan(200);
    expect(operations.filter((o) => o.security.length === 0).map(label)).toEqual([]);
  });

  it('declares a bearer token on the withdrawal-requests routes and both signature headers on the bridge webhook', () => {
    const of = (method: string, path: string) => operations.find((o) => o.method === method && o.path === path);
    for (const [method, path] of [
      ['POST', '/svc/user/withdrawal-requests/pre-validate'],
      ['GET', '/svc/user/withdrawal-requests/daily-limit'],
      ['POST', '/svc/user/withdrawal-requests'],
      ['GET', '/svc/user/withdrawal-requests'],
    ] as const) {
      expect(of(method, path)?.security).toEqual([['builderKey', 'bearerAuth']]);
    }
    expect(of('POST', '/svc/webhooks/bridge/deposit')?.security).toEqual([['bridgeSignature', 'bridgeTimestamp']]);
  });

  it('refuses a request with no credentials and an input the schemas refuse, as the declared security says', async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      const res = await send(op, new Set(), true);
      const expected = op.security.every((r) => r.includes('builderKey')) ? 'BUILDER_KEY_INVALID' : 'SIGNATURE_INVALID';
      if (res.status !== 401 || res.body['code'] !== expected) {
        wrong.push(`${label(op)}: ${res.status} ${res.body['code']} (expected ${expected})`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('refuses a request with no credentials and a body that is not even JSON, as the declared security says', async () => {
    const wrong: string[] = [];
    for (const op of operations.filter((o) => o.method !== 'GET' && o.method !== 'DELETE')) {
      const res = await send(op, new Set(), 'malformed');
      const expected = op.security.every((r) => r.includes('builderKey')) ? 'BUILDER_KEY_INVALID' : 'SIGNATURE_INVALID';
      if (res.status !== 401 || res.body['code'] !== expected) {
        wrong.push(`${label(op)}: ${res.status} ${res.body['code']} (expected ${expected})`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('refuses each alternative without any one of its credentials, also with a body that is not JSON', async () => {
    const wrong: string[] = [];
    for (const op of operations.filter((o) => o.method !== 'GET' && o.method !== 'DELETE')) {
      for (const alternative of op.security) {
        for (const missing of alternative) {
          const creds = new Set(alternative.filter((s) => s !== missing));
          if (satisfied(op, creds)) continue;
          const res = await send(op, creds, 'malformed');
          const expected = refusalFor(missing, creds);
          if (res.status !== 401 || res.body['code'] !== expected) {
            wrong.push(`${label(op)} without ${missing}: ${res.status} ${res.body['code']} (expected ${expected})`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 180_000);

  it('answers MALFORMED_JSON once the credentials are there', async () => {
    const op = operations.find((o) => o.method === 'POST' && o.path === '/svc/user/withdrawal-requests');
    if (!op) throw new Error('route missing');
    const res = await send(op, new Set<Scheme>(['builderKey', 'bearerAuth']), 'malformed');
    expect([res.status, res.body['code']]).toEqual([400, 'MALFORMED_JSON']);
  });

  it('refuses each alternative without any one of its credentials, before validating the request', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const op of operations) {
      for (const alternative of op.security) {
        for (const missing of alternative) {
          const creds = new Set(alternative.filter((s) => s !== missing));
          if (satisfied(op, creds)) continue;
          checked++;
          const res = await send(op, creds, true);
          const expected = refusalFor(missing, creds);
          if (res.status !== 401 || res.body['code'] !== expected) {
            wrong.push(`${label(op)} without ${missing}: ${res.status} ${res.body['code']} (expected ${expected})`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  }, 180_000);

  it('refuses a token of the other audience where no alternative lets it in', async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      for (const token of ['adminAuth', 'bearerAuth'] as const) {
        const creds = new Set<Scheme>(['builderKey', token]);
        if (!op.security.some((r) => r.some((s) => TOKENS.includes(s)))) continue;
        const res = await send(op, creds, true);
        const letIn = satisfied(op, creds);
        if (letIn ? res.status === 401 : res.status !== 401 || res.body['code'] === 'BUILDER_KEY_INVALID') {
          wrong.push(
            `${label(op)} with ${token}: ${res.status} ${res.body['code']} (declared ${letIn ? 'in' : 'out'})`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 180_000);

  it('lets each alternative in when all of its credentials are sent', async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      for (const alternative of op.security) {
        const res = await send(op, new Set(alternative), false);
        if (res.status === 401) wrong.push(`${label(op)} with ${alternative.join('+')}: 401 ${res.body['code']}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 180_000);
});
