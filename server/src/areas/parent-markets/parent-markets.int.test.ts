import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { marketsApi, signUpWallet, type Body } from '../../../test/support/http.js';

// Bodies are read loosely here; their shapes are enforced by the contract (response validation is on).
interface User {
  token: string;
  address: `0x${string}`;
}

const UNIT = 10n ** 18n;
let server: TestServer;

const api = marketsApi(() => server);

async function signUp(username: string): Promise<User> {
  const res = await signUpWallet(api, username);
  return { token: res.body['token'], address: res.body['user']['address'] };
}

const child = (question: string) => ({
  question,
  startTime: new Date(Date.now() + 60_000).toISOString(),
  endTime: new Date(Date.now() + 3_600_000).toISOString(),
});

beforeAll(async () => {
  server = await startTestServer({ DUEL_PRIVATE_LEAD_SECONDS: '0', INDEXER_INTERVAL_MS: '200', JOBS_ENABLED: 'true' });
}, 120_000);
afterAll(() => server?.close());

describe('parent markets over HTTP', () => {
  it('opens a private sub-market added later to the members who already joined the parent', async () => {
    const owner = await signUp('pmk_owner');
    const member = await signUp('pmk_member');
    const outsider = await signUp('pmk_outsider');
    await server.container.chain.mint('credits', owner.address, 1_000n * UNIT);
    const created = await api('/svc/user/parent-markets/create', {
      token: owner.token,
      body: { question: 'Weekend league', category: 'Football', isPrivate: true, markets: [child('First game?')] },
    });
    expect(created.status).toBe(201);
    const parentId = created.body['parentMarketId'] as string;
    const invite = await api('/svc/user/parent-markets/create-invitation', {
      token: owner.token,
      body: { parentMarketId: parentId, inviteCode: 'weekend-league' },
    });
    expect(invite.status).toBe(201);
    const joined = await api('/svc/user/parent-markets/join', {
      token: member.token,
      body: { inviteCode: 'weekend-league' },
    });
    expect(joined.status).toBe(200);

    const added = await api(`/svc/user/parent-markets/${parentId}/add-duel`, {
      token: member.token,
      body: child('Not yours to add?'),
    });
    expect([added.status, added.body['code']]).toEqual([403, 'FORBIDDEN']);
    const second = await api(`/svc/user/parent-markets/${parentId}/add-duel`, {
      token: owner.token,
      body: child('Second game?'),
    });
    expect(second.status).toBe(201);
    expect(second.body['memberGrants']).toEqual({ granted: 1, failed: 0 });
    expect(await server.container.chain.isMember(second.body['duelId'] as `0x${string}`, member.address)).toBe(true);

    const asMember = await api(`/svc/user/parent-markets/${parentId}`, { token: member.token });
    expect((asMember.body['duels'] as Body[]).map((d) => d['question'] as string)).toEqual([
      'First game?',
      'Second game?',
    ]);
    const asOutsider = await api(`/svc/user/parent-markets/${parentId}`, { token: outsider.token });
    expect([asOutsider.status, asOutsider.body['code']]).toEqual([403, 'PRIVATE_MARKET']);
    const members = await api(`/svc/user/parent-markets/${parentId}/members`, { token: member.token });
    expect((members.body['members'] as Body[]).map((m) => [m['userAddress'] as string, m['via'] as string])).toEqual([
      [owner.address, 'creator'],
      [member.address, 'invite'],
    ]);
    expect((await api(`/svc/user/parent-markets/${parentId}/members`)).status).toBe(403);
    expect((await api('/svc/user/parent-markets/accessible', { token: outsider.token })).body['data']).toEqual([]);
  }, 60_000);

  it('routes /accessible before /{id} and rejects a malformed id', async () => {
    const someone = await signUp('pmk_someone');
    expect((await api('/svc/user/parent-markets/accessible', { token: someone.token })).status).toBe(200);
    const bad = await api('/svc/user/parent-markets/not-a-uuid');
    expect([bad.status, bad.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
  });
});
