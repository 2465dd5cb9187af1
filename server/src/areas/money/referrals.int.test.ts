import { randomUUID } from 'node:crypto';
import { keccak256, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketsApi } from '../../../test/support/http.js';
import { fundedUser, UNIT } from '../../../test/support/market-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';

let server: TestServer;
const api = marketsApi(() => server);
const sql = (q: string, params: unknown[]) => server.container.orm.em.fork().getConnection().execute(q, params);
const wallet = () => privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  server = await startTestServer({ JOBS_ENABLED: 'false' });
}, 120_000);
afterAll(() => server?.close());

/** A private market in the read model, as the indexer would have recorded it. */
async function duel(creator: string, stack: 'credits' | 'usdc', status = 'open') {
  const duelId = keccak256(toHex(randomUUID()));
  await sql(
    `insert into duels (id, duel_id, builder_app_id, creator_address, question, category, tags, options, duel_type, collateral_stack,
       is_private, start_time, end_time, created_at, status, chain_state, pool_balances, total_volume, unique_participants, yes_bps,
       ext_live, is_canonical, initial_liquidity)
     values (?, ?, ?, ?, 'Referred market', 'Football', '{}', '{YES,NO}', 'PREDICTION', ?, true, now(), now() + interval '1 day',
       now(), ?, 'confirmed', '{}', 0, 0, 5000, false, false, ?)`,
    [randomUUID(), duelId, randomUUID(), creator, stack, status, (100n * UNIT).toString()],
  );
  return duelId;
}

async function invitation(duelId: string, creator: string) {
  const id = randomUUID();
  await sql(
    `insert into duel_invitations (id, duel_id, code, code_hash, max_uses, uses, created_by_address, created_at, chain_state)
     values (?, ?, ?, ?, 0, 0, ?, now(), 'confirmed')`,
    [id, duelId, id.slice(0, 8), keccak256(toHex(id)), creator],
  );
  return id;
}

async function join(duelId: string, member: string, invitationId: string | null, chainState = 'confirmed') {
  await sql(
    `insert into duel_memberships (duel_id, member_address, via, invitation_id, chain_state, use_counted, joined_at)
     values (?, ?, ?, ?, ?, true, now())`,
    [duelId, member, invitationId ? 'invite' : 'added', invitationId, chainState],
  );
}

async function trade(duelId: string, trader: string, units: bigint, side: 'buy' | 'sell' = 'buy') {
  await sql(
    `insert into trades (id, duel_id, tx_hash, log_index, block_number, trader, side, option_index, collateral, fee, shares, created_at)
     values (?, ?, ?, 0, 1, ?, ?, 0, ?, 0, 0, now())`,
    [randomUUID(), duelId, keccak256(toHex(randomUUID())), trader, side, (units * UNIT).toString()],
  );
}

describe('referral analytics', () => {
  let referrer: Awaited<ReturnType<typeof fundedUser>>;
  let admin: string;
  const r1 = wallet();
  const r2 = wallet();
  const stranger = wallet();

  beforeAll(async () => {
    referrer = await fundedUser(server.container, server.builderKey, 'ref_owner', 0n);
    const me = referrer.address;
    const d1 = await duel(me, 'credits');
    const d2 = await duel(me, 'credits', 'settled');
    const d3 = await duel(me, 'usdc');
    const i1 = await invitation(d1, me);
    const i2 = await invitation(d2, me);
    const i3 = await invitation(d3, me);
    await invitation(d1, me); // created, never used
    await join(d1, r1, i1);
    await join(d2, r1, i2);
    await join(d1, r2, i1);
    await join(d3, r2, i3);
    await join(d1, stranger, null); // added by the creator: not a referral
    await join(d2, wallet(), i2, 'pending'); // not confirmed yet: not counted
    await trade(d1, r1, 10n);
    await trade(d2, r1, 5n, 'sell');
    await trade(d1, r2, 7n);
    await trade(d3, r2, 3n);
    await trade(d1, stranger, 100n);
    const email = `ref-${randomUUID()}@example.com`;
    await server.container.identity.admins.create(email, 'referral admin password');
    admin = (await api('/svc/admin/auth/login', { body: { email, password: 'referral admin password' } })).body[
      'token'
    ] as string;
  });

  it('shows the caller the people it referred and their volume, per collateral', async () => {
    const all = await api('/svc/user/referral-analytics', { token: referrer.token });
    expect(all.status).toBe(200);
    expect(all.body['totals']).toEqual({
      referees: 2,
      invitationsCreated: 4,
      invitationUses: 4,
      inviteVolume: (25n * UNIT).toString(),
    });
    expect(all.body['data']).toEqual([
      { address: r1, invitations: 2, duels: 2, volume: (15n * UNIT).toString(), firstJoinedAt: expect.any(String) },
      { address: r2, invitations: 2, duels: 2, volume: (10n * UNIT).toString(), firstJoinedAt: expect.any(String) },
    ]);
    const credits = await api('/svc/user/referral-analytics?collateralStack=credits&limit=1', {
      token: referrer.token,
    });
    expect(credits.body['totals']).toMatchObject({
      referees: 2,
      invitationsCreated: 3,
      inviteVolume: (22n * UNIT).toString(),
    });
    expect(credits.body['data']).toHaveLength(1);
    expect(credits.body['pagination']).toEqual({ page: 1, limit: 1, total: 2, hasMore: true });
    const nobody = await fundedUser(server.container, server.builderKey, 'ref_nobody', 0n);
    const empty = await api('/svc/user/referral-analytics', { token: nobody.token });
    expect(empty.body['data']).toEqual([]);
    expect(empty.body['totals']['referees']).toBe(0);
  });

  it('refuses callers without a bearer and bad queries', async () => {
    expect((await api('/svc/user/referral-analytics')).status).toBe(401);
    expect((await api('/svc/user/referral-analytics?collateralStack=gold', { token: referrer.token })).status).toBe(
      400,
    );
    expect((await api('/svc/user/referral-analytics?limit=1000', { token: referrer.token })).status).toBe(400);
  });

  it('gives admins the referrers, the summary, one referrer and market creation per address', async () => {
    expect((await api('/svc/admin/referral-analytics', { token: referrer.token })).status).toBe(401);
    const list = await api('/svc/admin/referral-analytics', { token: admin });
    expect(list.status).toBe(200);
    expect(list.body['data']).toContainEqual({
      referrer: referrer.address,
      referees: 2,
      invitationsCreated: 4,
      invitationUses: 4,
      inviteVolume: (25n * UNIT).toString(),
    });
    const summary = await api('/svc/admin/referral-analytics/summary?collateralStack=usdc', { token: admin });
    expect(summary.body).toMatchObject({
      collateralStack: 'usdc',
      referrers: 1,
      referees: 1,
      inviteVolume: (3n * UNIT).toString(),
    });
    const one = await api(`/svc/admin/referral-analytics/referrer/${referrer.address.toLowerCase()}`, { token: admin });
    expect(one.body['referrer']).toBe(referrer.address);
    expect(one.body['totals']['referees']).toBe(2);
    expect((await api('/svc/admin/referral-analytics/referrer/0x12', { token: admin })).status).toBe(400);
    const created = await api(`/svc/admin/referral-analytics/market-creation/${referrer.address}`, { token: admin });
    expect(created.body['totals']).toEqual({
      markets: 3,
      open: 2,
      settled: 1,
      cancelled: 0,
      private: 3,
      volume: (125n * UNIT).toString(),
      invitationsCreated: 4,
    });
    expect(created.body['data']).toHaveLength(3);
    const none = await api(`/svc/admin/referral-analytics/market-creation/${stranger}`, { token: admin });
    expect(none.body['totals']['markets']).toBe(0);
    expect(none.body['data']).toEqual([]);
  });
});
