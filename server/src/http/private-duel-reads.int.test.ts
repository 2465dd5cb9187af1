import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../test/support/market-fixtures.js';
import { marketsApi, signUpWallet, type Body } from '../../test/support/http.js';
import { startTestServer, type TestServer } from '../../test/support/test-server.js';

/**
 * Every read of a private duel (and of its private parent market), as its creator, a member, an
 * outsider and an anonymous caller: docs/private-markets.md, "Who reads what".
 */

type Role = 'creator' | 'member' | 'outsider' | 'anonymous';
const ROLES: readonly Role[] = ['creator', 'member', 'outsider', 'anonymous'];

interface User {
  token: string;
  address: `0x${string}`;
}

const UNIT = 10n ** 18n;
let server: TestServer;
const api = marketsApi(() => server);
const users = {} as Record<Exclude<Role, 'anonymous'>, User>;
let duelId: string;
let parentId: string;

async function signUp(username: string): Promise<User> {
  const res = await signUpWallet(api, username);
  expect(res.status).toBe(201);
  return { token: res.body['token'], address: res.body['user']['address'] };
}

const tokenOf = (role: Role) => (role === 'anonymous' ? undefined : users[role].token);
const addressOf = (role: Role) => (role === 'anonymous' ? users.creator.address : users[role].address);

beforeAll(async () => {
  server = await startTestServer({
    DUEL_PRIVATE_LEAD_SECONDS: '0',
    INDEXER_INTERVAL_MS: '200',
    JOBS_ENABLED: 'true',
    // Four roles times every read: past the default per-key budget of a minute.
    RATE_LIMIT_TEAM_PER_MIN: '10000',
  });
  users.creator = await signUp('pdr_creator');
  users.member = await signUp('pdr_member');
  users.outsider = await signUp('pdr_outsider');
  await server.container.chain.mint('credits', users.creator.address, 1_000n * UNIT);
  const created = await api('/svc/user/parent-markets/create', {
    token: users.creator.token,
    body: {
      question: 'Private league',
      category: 'Football',
      isPrivate: true,
      markets: [
        {
          question: 'Private game?',
          startTime: new Date(Date.now() + 3_600_000).toISOString(),
          endTime: new Date(Date.now() + 7_200_000).toISOString(),
        },
      ],
    },
  });
  expect(created.status).toBe(201);
  parentId = created.body['parentMarketId'];
  duelId = (created.body['results'] as Body[])[0]?.['duelId'];
  await until(
    () => api(`/svc/user/duels/get-duel-by-id/${duelId}`, { token: users.creator.token }),
    (r) => r.body['chainState'] === 'confirmed',
  );
  const invite = await api('/svc/user/parent-markets/create-invitation', {
    token: users.creator.token,
    body: { parentMarketId: parentId, inviteCode: 'private-league' },
  });
  expect(invite.status).toBe(201);
  const joined = await api('/svc/user/parent-markets/join', {
    token: users.member.token,
    body: { inviteCode: 'private-league' },
  });
  expect(joined.status).toBe(200);
  await until(
    () => server.container.chain.isMember(duelId as `0x${string}`, users.member.address),
    (member) => member,
  );
}, 120_000);
afterAll(() => server?.close());

/** What a role gets: a status, and the error code when it is refused. */
type Outcome = readonly [number] | readonly [number, string];

/** Creator and members read; others are refused as for any private market. */
const membersRead = (ok: number, anonymous: Outcome): Record<Role, Outcome> => ({
  creator: [ok],
  member: [ok],
  outsider: [403, 'PRIVATE_MARKET'],
  anonymous,
});
/** A bearer route members read. */
const bearerRead = (ok = 200) => membersRead(ok, [401, 'UNAUTHENTICATED']);
/** A public route that shows a private market to a member who sends their token. */
const personalisedRead = (ok = 200) => membersRead(ok, [403, 'PRIVATE_MARKET']);
/** Only the creator. */
const creatorOnly: Record<Role, Outcome> = {
  creator: [200],
  member: [403, 'FORBIDDEN'],
  outsider: [403, 'FORBIDDEN'],
  anonymous: [401, 'UNAUTHENTICATED'],
};
/** Answers everyone, revealing nothing private (checked below). */
const everyone: Record<Role, Outcome> = { creator: [200], member: [200], outsider: [200], anonymous: [200] };

interface Read {
  readonly name: string;
  readonly call: (role: Role) => { path: string; body?: unknown };
  readonly expect: Record<Role, Outcome>;
}

const quote = () => ({ duelId, optionIndex: 0, betAmountUsdc: (5n * UNIT).toString() });

const READS: readonly Read[] = [
  {
    name: 'get-duel-by-id',
    call: () => ({ path: `/svc/user/duels/get-duel-by-id/${duelId}` }),
    expect: personalisedRead(),
  },
  {
    name: 'public get-duel-by-id',
    call: () => ({ path: `/svc/public/duels/get-duel-by-id/${duelId}` }),
    expect: personalisedRead(),
  },
  { name: 'participants', call: () => ({ path: `/svc/user/duels/participants/${duelId}` }), expect: bearerRead() },
  { name: 'og-metadata', call: () => ({ path: `/svc/duels/og-metadata/${duelId}` }), expect: everyone },
  { name: 'public contests', call: () => ({ path: `/svc/user/duels/contest/${duelId}` }), expect: personalisedRead() },
  { name: 'my-contest', call: () => ({ path: `/svc/user/duels/contest/${duelId}/my-contest` }), expect: bearerRead() },
  { name: 'creator contests', call: () => ({ path: `/svc/user/duels/${duelId}/contests` }), expect: creatorOnly },
  {
    name: 'sell-unlock-liquidity',
    call: () => ({ path: `/svc/user/bets/sell-unlock-liquidity/${duelId}` }),
    expect: bearerRead(),
  },
  {
    name: 'public sell-unlock-liquidity',
    call: () => ({ path: `/svc/public/bets/sell-unlock-liquidity/${duelId}` }),
    expect: personalisedRead(),
  },
  {
    name: 'user-shares',
    call: (role) => ({ path: `/svc/user/bets/user-shares/${duelId}/${addressOf(role)}` }),
    expect: bearerRead(),
  },
  {
    name: 'estimated-win',
    call: () => ({ path: '/svc/user/bets/estimated-win', body: quote() }),
    expect: bearerRead(201),
  },
  {
    name: 'public estimated-win',
    call: () => ({ path: '/svc/public/bets/estimated-win', body: quote() }),
    expect: personalisedRead(),
  },
  {
    name: 'estimate-buy',
    call: () => ({ path: '/svc/user/bets/estimate-buy', body: { ...quote(), slippageBps: 100 } }),
    expect: bearerRead(201),
  },
  {
    name: 'estimate-sell',
    call: () => ({
      path: '/svc/user/bets/estimate-sell',
      body: { duelId, optionIndex: 0, shares: UNIT.toString(), slippageBps: 100 },
    }),
    expect: bearerRead(201),
  },
  {
    name: 'public estimate-sell',
    call: () => ({
      path: '/svc/public/bets/estimate-sell',
      body: { duelId, optionIndex: 0, shares: UNIT.toString(), slippageBps: 100 },
    }),
    expect: personalisedRead(),
  },
  {
    name: 'yes-percentage-snapshots',
    call: () => ({ path: `/svc/user/bets/yes-percentage-snapshots/${duelId}?timeRange=1D` }),
    expect: bearerRead(),
  },
  {
    name: 'public yes-percentage-snapshots',
    call: () => ({ path: `/svc/public/bets/yes-percentage-snapshots/${duelId}?timeRange=1D` }),
    expect: personalisedRead(),
  },
  {
    name: 'parent yes-percentage-snapshots',
    call: () => ({ path: `/svc/user/bets/yes-percentage-snapshots/parent/${parentId}?timeRange=ALL` }),
    expect: bearerRead(),
  },
  {
    name: 'invitations of the duel',
    call: () => ({ path: `/svc/user/duel-invitations/duel/${duelId}` }),
    expect: everyone,
  },
  {
    name: 'membership check',
    call: (role) => ({ path: `/svc/user/duel-invitations/membership/${duelId}/${addressOf(role)}` }),
    expect: everyone,
  },
  { name: 'parent market', call: () => ({ path: `/svc/user/parent-markets/${parentId}` }), expect: personalisedRead() },
  {
    name: 'parent members',
    call: () => ({ path: `/svc/user/parent-markets/${parentId}/members` }),
    expect: personalisedRead(),
  },
  {
    name: 'parent invitations',
    call: () => ({ path: `/svc/user/parent-markets/${parentId}/invitations` }),
    expect: creatorOnly,
  },
];

async function read(r: Read, role: Role) {
  const { path, body } = r.call(role);
  const token = tokenOf(role);
  return api(path, { ...(token ? { token } : {}), ...(body === undefined ? {} : { body }) });
}

describe('reads of a private duel', () => {
  it.each(READS.map((r) => [r.name, r] as const))('%s: creator and members read, others are refused', async (_, r) => {
    const seen: Record<string, Outcome> = {};
    const wanted: Record<string, Outcome> = {};
    for (const role of ROLES) {
      const res = await read(r, role);
      seen[role] = res.status < 300 ? [res.status] : [res.status, res.body['code']];
      wanted[role] = r.expect[role];
    }
    expect(seen).toEqual(wanted);
  });

  it('shows the market itself to members only: the open answers reveal nothing private', async () => {
    for (const role of ROLES) {
      const og = await read(READS.find((r) => r.name === 'og-metadata') as Read, role);
      expect(og.body['title']).toBe('Private market');
      const codes = await read(READS.find((r) => r.name === 'invitations of the duel') as Read, role);
      expect([codes.body['codesVisible'], (codes.body['invitations'] as unknown[]).length > 0]).toEqual(
        role === 'creator' ? [true, false] : [false, false],
      );
    }
    const asMember = await api(`/svc/user/duels/get-duel-by-id/${duelId}`, { token: users.member.token });
    expect(asMember.body['question']).toBe('Private game?');
    const snapshots = await api(`/svc/user/bets/yes-percentage-snapshots/parent/${parentId}?timeRange=ALL`, {
      token: users.member.token,
    });
    expect((snapshots.body['series'] as Body[]).map((s) => s['duelId'] as string)).toEqual([duelId]);
  });

  it('lists the private parent as accessible to its creator and member only', async () => {
    for (const role of ['creator', 'member', 'outsider'] as const) {
      const res = await api('/svc/user/parent-markets/accessible', { token: users[role].token });
      expect(res.status).toBe(200);
      expect((res.body['data'] as Body[]).map((p) => p['id'] as string)).toEqual(role === 'outsider' ? [] : [parentId]);
    }
    expect((await api('/svc/user/parent-markets/accessible')).status).toBe(401);
  });

  it('never lists a private duel publicly, whoever asks', async () => {
    for (const role of ROLES) {
      const token = tokenOf(role);
      const page = await api('/svc/public/duels/all?limit=100', token ? { token } : {});
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect((page.body['data'] as Body[]).some((d) => d['duelId'] === duelId)).toBe(false);
    }
  });
});
