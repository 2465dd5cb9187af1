import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { totpCodeAt, TOTP_STEP_SECONDS } from './totp.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary answer fields
type Body = Record<string, any>;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function api(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = { 'x-builder-api-key': server.builderKey };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers['authorization'] = `Bearer ${init.token}`;
  const res = await fetch(`${server.marketsUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

/** The code `steps` time steps from now: +1 is still accepted (drift) and later than any used now. */
const code = (secret: string, steps = 0) => totpCodeAt(secret, Date.now() + steps * TOTP_STEP_SECONDS * 1000);

const PASSWORD = 'a long enough password';

async function newAdmin() {
  const email = `admin-${randomUUID().slice(0, 8)}@example.com`;
  await server.container.identity.admins.create(email, PASSWORD);
  return email;
}

async function login(email: string) {
  const res = await api('/svc/admin/auth/login', { body: { email, password: PASSWORD } });
  expect(res.status).toBe(200);
  return res.body;
}

async function sessionToken(email: string): Promise<string> {
  const body = await login(email);
  expect(body['status']).toBe('authenticated');
  return body['token'] as string;
}

/** Turns 2FA on with `token`; the code used is of the current step. */
async function enableTwoFactor(token: string) {
  const setup = await api('/svc/admin/auth/2fa/setup', { body: {}, token });
  const secret = setup.body['secret'] as string;
  const enabled = await api('/svc/admin/auth/2fa/verify-setup', { body: { code: code(secret) }, token });
  expect(enabled.status).toBe(200);
  return { secret, backupCodes: enabled.body['backupCodes'] as string[] };
}

const me = (token: string) => api('/svc/admin/auth/me', { token });

describe('admin tokens are sessions of existing, active admins', () => {
  it('refuses a correctly signed token for an admin that does not exist', async () => {
    const forged = await server.container.identity.tokens.signAdmin(randomUUID(), 'ghost@example.com', false);
    expect(await me(forged.token)).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });
    // Nor does signing one for a real admin help: the server never issued it.
    const email = await newAdmin();
    const real = (await login(email))['admin'] as { id: string };
    const minted = await server.container.identity.tokens.signAdmin(real.id, email, false);
    expect(await me(minted.token)).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });
  });

  it('refuses the token of an admin deleted after it was issued', async () => {
    const email = await newAdmin();
    const token = await sessionToken(email);
    expect((await me(token)).status).toBe(200);
    await server.container.orm.em.fork().getConnection().execute('delete from admins where email = ?', [email]);
    expect(await me(token)).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });
  });

  it('ends every session of a deactivated admin and refuses its password', async () => {
    const email = await newAdmin();
    const first = await sessionToken(email);
    const second = await sessionToken(email);
    expect(await server.container.identity.admins.deactivate(email)).toBe(true);
    for (const token of [first, second]) {
      expect(await me(token)).toMatchObject({ status: 401, body: { code: 'TOKEN_REVOKED' } });
    }
    const again = await api('/svc/admin/auth/login', { body: { email, password: PASSWORD } });
    expect(again).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
  });

  it('refuses a user token and a challenge token everywhere but where each belongs', async () => {
    const email = await newAdmin();
    const token = await sessionToken(email);
    const { secret } = await enableTwoFactor(token);
    const challenge = (await login(email))['challengeToken'] as string;
    expect(await me(challenge)).toMatchObject({ status: 401, body: { code: 'TWO_FACTOR_REQUIRED' } });
    // A full session cannot stand in for the challenge of 2fa/verify.
    const onVerify = await api('/svc/admin/auth/2fa/verify', { body: { code: code(secret, 1) }, token });
    expect(onVerify).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });
  });
});

describe('two-factor login', () => {
  it('accepts a TOTP code once: the same code cannot complete a second login', async () => {
    const email = await newAdmin();
    const { secret } = await enableTwoFactor(await sessionToken(email));
    const totp = code(secret, 1);
    const first = await api('/svc/admin/auth/2fa/verify', {
      body: { code: totp },
      token: (await login(email))['challengeToken'],
    });
    expect(first.body['status']).toBe('authenticated');
    const second = await api('/svc/admin/auth/2fa/verify', {
      body: { code: totp },
      token: (await login(email))['challengeToken'],
    });
    expect(second).toMatchObject({ status: 401, body: { code: 'TWO_FACTOR_INVALID' } });
    // Nor is the code of an earlier step accepted once a later one was used.
    const earlier = await api('/svc/admin/auth/2fa/verify', {
      body: { code: code(secret, 0) },
      token: (await login(email))['challengeToken'],
    });
    expect(earlier).toMatchObject({ status: 401, body: { code: 'TWO_FACTOR_INVALID' } });
  });

  it('turns one challenge into exactly one session under five concurrent verifications', async () => {
    const email = await newAdmin();
    const { secret, backupCodes } = await enableTwoFactor(await sessionToken(email));
    const challenge = (await login(email))['challengeToken'] as string;
    const codes = [code(secret, 1), ...backupCodes.slice(0, 4)];
    const results = await Promise.all(
      codes.map((c) => api('/svc/admin/auth/2fa/verify', { body: { code: c }, token: challenge })),
    );
    const sessions = results.filter((r) => r.status === 200);
    expect(sessions).toHaveLength(1);
    expect(results.filter((r) => r.status === 401).map((r) => r.body['code'] as string)).toEqual(
      Array.from({ length: 4 }, () => 'TOKEN_REVOKED'),
    );
    const [{ n }] = await server.container.orm.em
      .fork()
      .getConnection()
      .execute<[{ n: number }]>(
        `select count(*)::int as n from admin_sessions s join admins a on a.id = s.admin_id
          where a.email = ? and s.kind = 'session'`,
        [email],
      );
    // The session that turned 2FA on, and exactly one from the race.
    expect(n).toBe(2);
    // The losing requests did not spend their backup codes.
    const winner = codes[results.indexOf(sessions[0] as (typeof results)[number])];
    const unspent = backupCodes.slice(0, 4).find((c) => c !== winner) as string;
    const later = await api('/svc/admin/auth/2fa/verify', {
      body: { code: unspent },
      token: (await login(email))['challengeToken'],
    });
    expect(later.body['status']).toBe('authenticated');
  });
});

describe('changing the second factor ends the other sessions', () => {
  it('enabling 2FA revokes tokens issued with the password alone; the caller keeps its own', async () => {
    const email = await newAdmin();
    const caller = await sessionToken(email);
    const elsewhere = await sessionToken(email);
    await enableTwoFactor(caller);
    expect(await me(elsewhere)).toMatchObject({ status: 401, body: { code: 'TOKEN_REVOKED' } });
    expect((await me(caller)).body['twoFactorEnabled']).toBe(true);
  });

  it('regenerating backup codes and disabling 2FA each revoke the other sessions', async () => {
    const email = await newAdmin();
    const caller = await sessionToken(email);
    const { secret, backupCodes } = await enableTwoFactor(caller);
    const other = await api('/svc/admin/auth/2fa/verify', {
      body: { code: backupCodes[0] },
      token: (await login(email))['challengeToken'],
    });
    expect(other.status).toBe(200);
    const regenerated = await api('/svc/admin/auth/2fa/backup-codes/regenerate', {
      body: { code: code(secret, 1) },
      token: caller,
    });
    expect(regenerated.status).toBe(200);
    expect(await me(other.body['token'] as string)).toMatchObject({ status: 401, body: { code: 'TOKEN_REVOKED' } });
    // The old backup codes are gone with the regeneration.
    const withOld = await api('/svc/admin/auth/2fa/verify', {
      body: { code: backupCodes[1] },
      token: (await login(email))['challengeToken'],
    });
    expect(withOld).toMatchObject({ status: 401, body: { code: 'TWO_FACTOR_INVALID' } });

    const third = await api('/svc/admin/auth/2fa/verify', {
      body: { code: (regenerated.body['backupCodes'] as string[])[0] },
      token: (await login(email))['challengeToken'],
    });
    expect(third.status).toBe(200);
    const disabled = await api('/svc/admin/auth/2fa/disable', {
      body: { code: (regenerated.body['backupCodes'] as string[])[1] },
      token: caller,
    });
    expect(disabled.body).toEqual({ enabled: false });
    expect(await me(third.body['token'] as string)).toMatchObject({ status: 401, body: { code: 'TOKEN_REVOKED' } });
    expect((await me(caller)).body['twoFactorEnabled']).toBe(false);
  });
});
