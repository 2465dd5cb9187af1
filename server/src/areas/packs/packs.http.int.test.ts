import { getAddress, keccak256, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketsApi } from '../../../test/support/http.js';
import { confirmedMarket } from '../../../test/support/market-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import {
  adminToken,
  chainNow,
  FEE,
  newMarket,
  PACK_TEST_ENV,
  packUser,
  publishedPack,
  UNIT,
  type Body,
} from './packs.test-kit.js';

let server: TestServer;
const api = marketsApi(() => server);

beforeAll(async () => {
  server = await startTestServer({
    ...PACK_TEST_ENV,
    GEO_COUNTRY_HEADER: 'x-test-country',
    GEO_BLOCKED_COUNTRIES: 'US',
  });
}, 120_000);
afterAll(() => server?.close());

describe('building a pack over HTTP', () => {
  it('creates a draft, adds new and existing markets, and publishes it; only its creator may', async () => {
    const creator = await packUser(server, 'pk_creator');
    const other = await packUser(server, 'pk_other');
    const now = await chainNow(server);
    const lockAt = now + 600_000;
    const body = {
      title: 'Cup weekend',
      category: 'Football',
      entryFee: FEE.toString(),
      lockAt: new Date(lockAt).toISOString(),
    };

    expect((await api('/svc/packs/creator/packs', { body })).status).toBe(401);
    const tooSmall = await api('/svc/packs/creator/packs', { token: creator.token, body: { ...body, entryFee: '1' } });
    expect([tooSmall.status, tooSmall.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    expect(tooSmall.body['fieldErrors']).toHaveProperty('body.entryFee');
    const past = await api('/svc/packs/creator/packs', {
      token: creator.token,
      body: { ...body, lockAt: new Date(Date.now() - 1_000).toISOString() },
    });
    expect([past.status, past.body['fieldErrors']?.['body.lockAt']]).toEqual([400, ['must be in the future']]);

    const created = await api('/svc/packs/creator/packs', { token: creator.token, body });
    expect(created.status).toBe(201);
    const packId = created.body['id'] as string;
    expect(created.body).toMatchObject({
      status: 'draft',
      createdBy: 'creator',
      creatorAddress: creator.address,
      collateralStack: 'credits',
      entryFee: FEE.toString(),
      feeBps: 500,
      poolId: keccak256(toHex(`duelkit:pack:${packId}`)),
      vaultAddress: getAddress(server.container.prizeVault.address('credits')),
      markets: [],
    });
    // A draft is its creator's alone; it is a parent market of kind pack.
    expect((await api(`/svc/packs/${packId}`)).status).toBe(404);
    expect((await api(`/svc/packs/${packId}`, { token: creator.token })).status).toBe(200);
    expect((await api(`/svc/user/parent-markets/${packId}`)).body['groupKind']).toBe('pack');

    const emptyPublish = await api(`/svc/packs/creator/packs/${packId}/publish`, { token: creator.token, body: {} });
    expect([emptyPublish.status, emptyPublish.body['code']]).toEqual([409, 'INVALID_STATE']);

    const tooEarly = await api(`/svc/packs/creator/packs/${packId}/markets`, {
      token: creator.token,
      body: newMarket('Ends before the lock?', now, 5_000, 60_000),
    });
    expect(tooEarly.body['fieldErrors']).toHaveProperty(['body.market.endTime']);
    const notMine = await api(`/svc/packs/creator/packs/${packId}/markets`, {
      token: other.token,
      body: newMarket('Not your pack?', now, 5_000, 900_000),
    });
    expect([notMine.status, notMine.body['code']]).toEqual([403, 'FORBIDDEN']);

    const fresh = await api(`/svc/packs/creator/packs/${packId}/markets`, {
      token: creator.token,
      body: newMarket('Home win?', now, 5_000, 900_000),
    });
    expect(fresh.status).toBe(201);
    expect(fresh.body['txHash']).toMatch(/^0x[0-9a-f]{64}$/);
    expect(fresh.body['market']).toMatchObject({ question: 'Home win?', status: 'pending', voidedAt: null });

    const own = await confirmedMarket(server.container, creator, { startInMs: 60_000, endInMs: 900_000 });
    const foreign = await confirmedMarket(server.container, other, { startInMs: 60_000, endInMs: 900_000 });
    const short = await confirmedMarket(server.container, creator, { startInMs: 60_000, endInMs: 120_000 });
    const attachForeign = await api(`/svc/packs/creator/packs/${packId}/markets`, {
      token: creator.token,
      body: { source: 'existing', marketId: foreign },
    });
    expect([attachForeign.status, attachForeign.body['code']]).toEqual([403, 'FORBIDDEN']);
    const attachShort = await api(`/svc/packs/creator/packs/${packId}/markets`, {
      token: creator.token,
      body: { source: 'existing', marketId: short },
    });
    expect([attachShort.status, attachShort.body['code']]).toEqual([409, 'INVALID_STATE']);
    const attached = await api(`/svc/packs/creator/packs/${packId}/markets`, {
      token: creator.token,
      body: { source: 'existing', marketId: own },
    });
    expect([attached.status, attached.body['txHash']]).toEqual([201, null]);
    const again = await api(`/svc/packs/creator/packs/${packId}/markets`, {
      token: creator.token,
      body: { source: 'existing', marketId: own },
    });
    expect([again.status, again.body['code']]).toEqual([409, 'INVALID_STATE']);

    expect((await api(`/svc/packs/creator/packs/${packId}/publish`, { token: other.token, body: {} })).status).toBe(
      403,
    );
    const published = await publishAfterConfirmation(packId, creator.token);
    expect(published.body).toMatchObject({ status: 'published', marketCount: 2 });
    expect((published.body['markets'] as Body[]).map((m): unknown => [m['question'], m['status']])).toEqual([
      ['Home win?', 'open'],
      ['Fixture market', 'open'],
    ]);
    expect((await api(`/svc/packs/${packId}`)).body['publishedAt']).toEqual(expect.any(String));
    const twice = await api(`/svc/packs/creator/packs/${packId}/publish`, { token: creator.token, body: {} });
    expect([twice.status, twice.body['details']['status']]).toEqual([409, 'published']);
    const late = await api(`/svc/packs/creator/packs/${packId}/markets`, {
      token: creator.token,
      body: newMarket('Too late?', now, 5_000, 900_000),
    });
    expect([late.status, late.body['code']]).toEqual([409, 'INVALID_STATE']);

    const listed = await api('/svc/packs?limit=100');
    expect((listed.body['data'] as Body[]).map((p): unknown => p['id'])).toContain(packId);
    expect((listed.body['data'] as Body[])[0]).not.toHaveProperty('markets');
    expect((await api('/svc/packs?status=draft')).status).toBe(400);
    expect((await api('/svc/packs/not-a-uuid')).body['code']).toBe('VALIDATION_FAILED');
    expect((await api('/svc/packs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  }, 90_000);

  it('lets admins bundle existing markets of their builder app into a platform pack', async () => {
    const admin = await adminToken(server, api);
    const creator = await packUser(server, 'pk_admin_src');
    const now = await chainNow(server);
    const market = await confirmedMarket(server.container, creator, { startInMs: 60_000, endInMs: 900_000 });
    const body = {
      title: 'House pack',
      category: 'Football',
      entryFee: FEE.toString(),
      lockAt: new Date(now + 600_000).toISOString(),
      feeBps: 250,
    };
    expect((await api('/svc/packs/admin/packs', { token: creator.token, body })).status).toBe(401);
    const created = await api('/svc/packs/admin/packs', { token: admin, body });
    expect(created.body).toMatchObject({
      createdBy: 'admin',
      feeBps: 250,
      creatorAddress: server.container.chain.operator,
    });
    const packId = created.body['id'] as string;
    const creatorRoute = await api(`/svc/packs/creator/packs/${packId}/publish`, { token: creator.token, body: {} });
    expect(creatorRoute.status).toBe(403);
    const added = await api(`/svc/packs/admin/packs/${packId}/markets`, { token: admin, body: { marketId: market } });
    expect([added.status, added.body['market']['marketId']]).toEqual([201, market]);
    const unknown = await api(`/svc/packs/admin/packs/${packId}/markets`, {
      token: admin,
      body: { marketId: `0x${'ab'.repeat(32)}` },
    });
    expect(unknown.status).toBe(404);
    const published = await api(`/svc/packs/admin/packs/${packId}/publish`, { token: admin, body: {} });
    expect([published.status, published.body['status']]).toEqual([200, 'published']);
  }, 60_000);
});

describe('entries and picks over HTTP', () => {
  it('enters once per user, verifies the deposit, prices picks when made and lets them change until lock', async () => {
    const creator = await packUser(server, 'pk_host');
    const alice = await packUser(server, 'pk_alice');
    const broke = await packUser(server, 'pk_broke', 0n);
    const now = await chainNow(server);
    const { packId, marketIds } = await publishedPack(api, creator, {
      lockAt: now + 600_000,
      markets: [newMarket('First?', now, 5_000, 900_000), newMarket('Second?', now, 5_000, 900_000)],
    });
    const [first, second] = marketIds as [string, string];

    const noEntry = await api(`/svc/packs/${packId}/picks`, {
      token: alice.token,
      body: { picks: [{ marketId: first, optionIndex: 0 }] },
    });
    expect([noEntry.status, noEntry.body['code']]).toEqual([403, 'NOT_ENTERED']);

    const estimate = await api(`/svc/packs/${packId}/picks/estimate`, {
      token: alice.token,
      body: { picks: [{ marketId: first, optionIndex: 1 }] },
    });
    expect(estimate.body['picks']).toEqual([
      {
        marketId: first,
        optionIndex: 1,
        optionLabel: 'NO',
        price: (UNIT / 2n).toString(),
        pointsIfCorrect: 5_000,
      },
    ]);
    const outside = await api(`/svc/packs/${packId}/picks/estimate`, {
      token: alice.token,
      body: { picks: [{ marketId: `0x${'cd'.repeat(32)}`, optionIndex: 0 }] },
    });
    expect(outside.body['fieldErrors']).toHaveProperty(['body.picks.0.marketId']);
    const badOption = await api(`/svc/packs/${packId}/picks/estimate`, {
      token: alice.token,
      body: { picks: [{ marketId: first, optionIndex: 2 }] },
    });
    expect(badOption.body['fieldErrors']).toHaveProperty(['body.picks.0.optionIndex']);
    const duplicate = await api(`/svc/packs/${packId}/picks/estimate`, {
      token: alice.token,
      body: {
        picks: [
          { marketId: first, optionIndex: 0 },
          { marketId: first, optionIndex: 1 },
        ],
      },
    });
    expect(duplicate.status).toBe(400);

    // Concurrent enters of one user: one entry, one deposit.
    const enters = await Promise.all(
      [1, 2, 3].map(() => api(`/svc/packs/${packId}/enter`, { token: alice.token, body: {} })),
    );
    const accepted = enters.filter((r) => r.status === 201);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(accepted.map((r) => r.body['txHash'] as string)).size).toBe(1);
    for (const r of enters.filter((x) => x.status !== 201)) expect(r.body['code']).toBe('ALREADY_ENTERED');
    expect(await server.container.prizeVault.poolBalance('credits', await poolOf(packId))).toBe(FEE);
    const me = await api(`/svc/packs/${packId}/me`, { token: alice.token });
    expect(me.body['entry']).toMatchObject({ status: 'confirmed', amount: FEE.toString(), userAddress: alice.address });
    const repeat = await api(`/svc/packs/${packId}/enter`, { token: alice.token, body: {} });
    expect([repeat.status, repeat.body['code'], repeat.body['details']['entry']['status']]).toEqual([
      409,
      'ALREADY_ENTERED',
      'confirmed',
    ]);

    // An Idempotency-Key replays the first answer.
    const bob = await packUser(server, 'pk_bob');
    const keyed = (key: string) =>
      fetch(`${server.marketsUrl}/svc/packs/${packId}/enter`, {
        method: 'POST',
        headers: {
          'x-builder-api-key': server.builderKey,
          authorization: `Bearer ${bob.token}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: '{}',
      });
    const k1 = await keyed('enter-bob-1');
    const k2 = await keyed('enter-bob-1');
    expect([k1.status, k2.status, k2.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    expect(await k2.json()).toEqual(await k1.json());

    const poor = await api(`/svc/packs/${packId}/enter`, { token: broke.token, body: {} });
    expect([poor.status, poor.body['code']]).toEqual([400, 'INSUFFICIENT_CREDITS']);
    expect((await api(`/svc/packs/${packId}/me`, { token: broke.token })).body['entry']).toBeNull();

    const picked = await api(`/svc/packs/${packId}/picks`, {
      token: alice.token,
      body: {
        picks: [
          { marketId: first, optionIndex: 1 },
          { marketId: second, optionIndex: 0 },
        ],
      },
    });
    expect(picked.status).toBe(201);
    expect(picked.body).toMatchObject({ final: false, changeableUntil: expect.any(String) });
    expect(
      (picked.body['picks'] as Body[]).map((p): unknown => [p['marketId'], p['optionIndex'], p['result'], p['points']]),
    ).toEqual([
      [first, 1, 'pending', null],
      [second, 0, 'pending', null],
    ]);
    const changed = await api(`/svc/packs/${packId}/picks`, {
      token: alice.token,
      body: { picks: [{ marketId: first, optionIndex: 0 }] },
    });
    expect((changed.body['picks'] as Body[]).map((p): unknown => p['optionIndex'])).toEqual([0, 0]);

    const board = await api(`/svc/packs/${packId}/leaderboard`);
    expect(board.body).toMatchObject({ final: false, pagination: { total: 2 } });
    const history = await api(`/svc/packs/${packId}/price-history-snapshots`);
    expect((history.body['series'] as Body[]).map((s): unknown => s['duelId'])).toEqual([first, second]);
    expect(history.body['scoringRule']).toMatch(/10000/);

    const admin = await adminToken(server, api);
    const locked = await api(`/svc/packs/admin/packs/${packId}/lock`, { token: admin, body: {} });
    expect([locked.status, locked.body['status']]).toEqual([200, 'locked']);
    const afterLock = await api(`/svc/packs/${packId}/picks`, {
      token: alice.token,
      body: { picks: [{ marketId: first, optionIndex: 1 }] },
    });
    expect([afterLock.status, afterLock.body['code']]).toEqual([409, 'PACK_LOCKED']);
    const lateEntry = await api(`/svc/packs/${packId}/enter`, { token: creator.token, body: {} });
    expect(lateEntry.body['code']).toBe('PACK_LOCKED');
    const lockAgain = await api(`/svc/packs/admin/packs/${packId}/lock`, { token: admin, body: {} });
    expect([lockAgain.status, lockAgain.body['code']]).toEqual([409, 'INVALID_STATE']);
  }, 120_000);

  it('keeps usdc packs from blocked regions, at creation and at entry', async () => {
    const admin = await adminToken(server, api);
    const creator = await packUser(server, 'pk_usdc_host');
    const fan = await packUser(server, 'pk_usdc_fan');
    await server.container.chain.mint('usdc', creator.address, 1_000n * UNIT);
    await server.container.chain.mint('usdc', fan.address, 100n * UNIT);
    const now = await chainNow(server);
    const body = {
      title: 'Dollar pack',
      category: 'Football',
      collateralStack: 'usdc',
      entryFee: FEE.toString(),
      lockAt: new Date(now + 600_000).toISOString(),
    };
    const from = (country: string, path: string, token: string, payload: unknown) =>
      fetch(`${server.marketsUrl}${path}`, {
        method: 'POST',
        headers: {
          'x-builder-api-key': server.builderKey,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-test-country': country,
        },
        body: JSON.stringify(payload),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Body }));
    const blockedCreate = await from('US', '/svc/packs/creator/packs', creator.token, body);
    expect([blockedCreate.status, blockedCreate.body['code']]).toEqual([403, 'GEO_BLOCKED']);
    const market = await confirmedMarket(server.container, creator, {
      startInMs: 60_000,
      endInMs: 900_000,
      collateralStack: 'usdc',
    });
    const packId = (await api('/svc/packs/admin/packs', { token: admin, body })).body['id'] as string;
    await api(`/svc/packs/admin/packs/${packId}/markets`, { token: admin, body: { marketId: market } });
    expect((await api(`/svc/packs/admin/packs/${packId}/publish`, { token: admin, body: {} })).status).toBe(200);
    const blocked = await from('US', `/svc/packs/${packId}/enter`, fan.token, {});
    expect([blocked.status, blocked.body['code']]).toEqual([403, 'GEO_BLOCKED']);
    const allowed = await from('FR', `/svc/packs/${packId}/enter`, fan.token, {});
    expect([allowed.status, allowed.body['amount']]).toEqual([201, FEE.toString()]);
  }, 60_000);

  it('refuses entries to a draft and picks without a bearer token', async () => {
    const creator = await packUser(server, 'pk_drafter');
    const now = await chainNow(server);
    const draft = await api('/svc/packs/creator/packs', {
      token: creator.token,
      body: {
        title: 'Draft only',
        category: 'Football',
        entryFee: FEE.toString(),
        lockAt: new Date(now + 60_000).toISOString(),
      },
    });
    const packId = draft.body['id'] as string;
    const entry = await api(`/svc/packs/${packId}/enter`, { token: creator.token, body: {} });
    expect([entry.status, entry.body['code']]).toEqual([409, 'PACK_NOT_OPEN']);
    expect((await api(`/svc/packs/${packId}/enter`, { body: {} })).status).toBe(401);
    expect((await api(`/svc/packs/${packId}/me`)).status).toBe(401);
    expect((await api(`/svc/packs/${packId}/leaderboard`)).status).toBe(404);
  });
});

async function publishAfterConfirmation(packId: string, token: string) {
  for (let i = 0; i < 100; i++) {
    const r = await api(`/svc/packs/creator/packs/${packId}/publish`, { token, body: {} });
    if (r.status === 200) return r;
    if (!Array.isArray(r.body['details']?.['pendingMarkets'])) throw new Error(JSON.stringify(r.body));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('markets never confirmed');
}

async function poolOf(packId: string) {
  return (await api(`/svc/packs/${packId}`)).body['poolId'] as `0x${string}`;
}
