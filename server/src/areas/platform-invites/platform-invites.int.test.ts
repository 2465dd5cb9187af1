import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketsApi, signUpWallet } from '../../../test/support/http.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { adminTokenOf } from '../tournaments/tournaments-close.test-kit.js';

let server: TestServer;
let admin: string;
const api = marketsApi(() => server);

beforeAll(async () => {
  server = await startTestServer({ PLATFORM_INVITE_ONLY: 'true' });
  admin = await adminTokenOf(server);
}, 120_000);
afterAll(() => server?.close());

describe('platform invites over HTTP', () => {
  it('gates sign-up on an invite-only deployment, counts uses and shows them in details', async () => {
    const refused = await signUpWallet(api, 'inv_nocode');
    expect([refused.status, refused.body['code']]).toEqual([403, 'INVITE_REQUIRED']);

    const created = await api('/svc/admin/invite/create', { token: admin, body: { code: 'WELCOME-1', maxUses: 1 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ code: 'WELCOME-1', state: 'active', maxUses: 1, uses: 0 });
    const taken = await api('/svc/admin/invite/create', { token: admin, body: { code: 'welcome-1' } });
    expect([taken.status, taken.body['code']]).toEqual([409, 'INVITE_CODE_TAKEN']);

    const { privateKeyToAccount, generatePrivateKey } = await import('viem/accounts');
    const account = privateKeyToAccount(generatePrivateKey());
    const challenge = await api('/svc/user/auth/eoa/challenge', { body: { address: account.address } });
    const message = challenge.body['message'] as string;
    const signature = await account.signMessage({ message });
    const joined = await api('/svc/user/auth/eoa/register', {
      body: { message, signature, username: 'inv_alice', inviteCode: 'welcome-1' },
    });
    expect(joined.status).toBe(201);

    const details = await api(`/svc/admin/invite/${created.body['id']}/details`, { token: admin });
    expect(details.body).toMatchObject({ uses: 1, state: 'exhausted' });
    expect(details.body['usesLog']).toEqual([
      expect.objectContaining({ userId: joined.body['user']['id'], username: 'inv_alice' }),
    ]);

    const second = privateKeyToAccount(generatePrivateKey());
    const c2 = await api('/svc/user/auth/eoa/challenge', { body: { address: second.address } });
    const m2 = c2.body['message'] as string;
    const exhausted = await api('/svc/user/auth/eoa/register', {
      body: {
        message: m2,
        signature: await second.signMessage({ message: m2 }),
        username: 'inv_bob',
        inviteCode: 'WELCOME-1',
      },
    });
    expect([exhausted.status, exhausted.body['code']]).toEqual([409, 'INVITE_EXHAUSTED']);
  });

  it('issues a batch atomically, lists usable and all codes, deactivates one and every code of an owner', async () => {
    const owner = await api('/svc/admin/invite/create', { token: admin, body: { code: 'OWNER-SEED', maxUses: 0 } });
    const { privateKeyToAccount, generatePrivateKey } = await import('viem/accounts');
    const account = privateKeyToAccount(generatePrivateKey());
    const challenge = await api('/svc/user/auth/eoa/challenge', { body: { address: account.address } });
    const message = challenge.body['message'] as string;
    const user = await api('/svc/user/auth/eoa/register', {
      body: {
        message,
        signature: await account.signMessage({ message }),
        username: 'inv_owner',
        inviteCode: 'OWNER-SEED',
      },
    });
    expect(owner.status).toBe(201);
    const ownerUserId = user.body['user']['id'] as string;

    const batch = await api('/svc/admin/invite/create-bulk', {
      token: admin,
      body: { count: 25, prefix: 'B', ownerUserId, maxUses: 3 },
    });
    expect(batch.status).toBe(201);
    expect(batch.body['invites']).toHaveLength(25);
    expect(new Set((batch.body['invites'] as { code: string }[]).map((i) => i.code)).size).toBe(25);
    const tooMany = await api('/svc/admin/invite/create-bulk', { token: admin, body: { count: 501 } });
    expect([tooMany.status, tooMany.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    const unknownOwner = await api('/svc/admin/invite/create-bulk', {
      token: admin,
      body: { count: 2, ownerUserId: '00000000-0000-4000-8000-000000000000' },
    });
    expect([unknownOwner.status, unknownOwner.body['code']]).toEqual([404, 'NOT_FOUND']);

    const mine = await api(`/svc/admin/invite/list?ownerUserId=${ownerUserId}&limit=10`, { token: admin });
    expect(mine.body['pagination']).toMatchObject({ total: 25, hasMore: true });

    const first = (batch.body['invites'] as { id: string }[])[0] as { id: string };
    const off = await api(`/svc/admin/invite/${first.id}/deactivate`, {
      method: 'PATCH',
      token: admin,
      body: { reason: 'leaked' },
    });
    expect(off.body).toMatchObject({ state: 'deactivated', deactivationReason: 'leaked' });
    const again = await api(`/svc/admin/invite/${first.id}/deactivate`, { method: 'PATCH', token: admin, body: {} });
    expect(again.status).toBe(200);

    const invalidated = await api(`/svc/admin/invite/user/${ownerUserId}/invalidate`, {
      method: 'PATCH',
      token: admin,
      body: {},
    });
    expect(invalidated.body).toMatchObject({ userId: ownerUserId, deactivated: 24 });
    const twice = await api(`/svc/admin/invite/user/${ownerUserId}/invalidate`, {
      method: 'PATCH',
      token: admin,
      body: {},
    });
    expect(twice.body['deactivated']).toBe(0);

    const all = await api(`/svc/admin/invite/all?state=deactivated&ownerUserId=${ownerUserId}`, { token: admin });
    expect(all.body['pagination']['total']).toBe(25);
    const usable = await api(`/svc/admin/invite/list?ownerUserId=${ownerUserId}`, { token: admin });
    expect(usable.body['pagination']['total']).toBe(0);
  });

  it('refuses without an admin token, a user token, bad input and unknown ids', async () => {
    expect((await api('/svc/admin/invite/list')).status).toBe(401);
    expect((await api('/svc/admin/invite/all')).status).toBe(401);
    const missing = '00000000-0000-4000-8000-000000000000';
    const notFound = await api(`/svc/admin/invite/${missing}/details`, { token: admin });
    expect([notFound.status, notFound.body['code']]).toEqual([404, 'INVITE_NOT_FOUND']);
    const deact = await api(`/svc/admin/invite/${missing}/deactivate`, { method: 'PATCH', token: admin, body: {} });
    expect(deact.body['code']).toBe('INVITE_NOT_FOUND');
    const noUser = await api(`/svc/admin/invite/user/${missing}/invalidate`, {
      method: 'PATCH',
      token: admin,
      body: {},
    });
    expect([noUser.status, noUser.body['code']]).toEqual([404, 'NOT_FOUND']);
    const badId = await api('/svc/admin/invite/not-a-uuid/details', { token: admin });
    expect(badId.status).toBe(400);
    const past = await api('/svc/admin/invite/create', { token: admin, body: { expiresAt: '2001-01-01T00:00:00Z' } });
    expect([past.status, past.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    const badCode = await api('/svc/admin/invite/create', { token: admin, body: { code: 'a b' } });
    expect(badCode.status).toBe(400);
  });
});
