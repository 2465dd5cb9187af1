import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { ManualClock } from '../../platform/clock.js';
import { verifyLeaf } from '../../platform/merkle/merkle-tree.js';
import { marketsApi, type Body } from '../../../test/support/http.js';
import { until } from '../../../test/support/market-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import {
  T0,
  TOURNAMENT_ENV,
  UNIT,
  enter,
  paidCreate,
  player,
  postBond,
  tournamentsApi,
  type Player,
} from './tournaments.test-kit.js';

const clock = new ManualClock(T0);
let server: TestServer;
const api = tournamentsApi(() => server);
const markets = marketsApi(() => server);
let creator: Player, alice: Player, bob: Player, stranger: Player;
let admin: string;
const buyin = 10n * UNIT;
const admins = '/api/tournaments/admin';

beforeAll(async () => {
  server = await startTestServer(TOURNAMENT_ENV, { clock });
  [creator, alice, bob, stranger] = await Promise.all([
    player(server, 'tc_creator'),
    player(server, 'tc_alice'),
    player(server, 'tc_bob'),
    player(server, 'tc_stranger'),
  ]);
  await postBond(api, creator);
  const email = `tournaments-${Math.random().toString(36).slice(2)}@example.com`;
  await server.container.identity.admins.create(email, 'tournament admin password');
  admin = (await markets('/svc/admin/auth/login', { body: { email, password: 'tournament admin password' } })).body[
    'token'
  ] as string;
}, 120_000);
afterAll(() => server?.close());

const codeOf = (r: { status: number; body: Body }): unknown[] => [r.status, r.body['code']];

describe('cancel requests', () => {
  let id: string;
  beforeAll(async () => {
    id = (await paidCreate(api, creator)).id;
    await enter(api, alice, id);
  }, 60_000);

  it('lets the creator and entrants ask once each, refuses everyone else', async () => {
    const path = `/api/tournaments/${id}/cancel-request`;
    expect(codeOf(await api(path, { token: stranger.token, body: { reason: 'I want out' } }))).toEqual([
      403,
      'NOT_ENTERED',
    ]);
    expect((await api(path, { body: { reason: 'no credential' } })).status).toBe(401);
    const short = await api(path, { token: alice.token, body: { reason: 'no' } });
    expect(codeOf(short)).toEqual([400, 'VALIDATION_FAILED']);
    expect(short.body['fieldErrors']).toHaveProperty(['body.reason']);

    const asked = await api(path, { token: alice.token, body: { reason: 'The fixtures moved' } });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ tournamentId: id, wallet: alice.address, role: 'entrant', status: 'OPEN' });
    const twice = await api(path, { token: alice.token, body: { reason: 'Please, really' } });
    expect(codeOf(twice)).toEqual([409, 'CANCEL_REQUEST_EXISTS']);
    expect(twice.body['details']['requestId']).toBe(asked.body['id']);
    const byCreator = await api(path, { token: creator.token, body: { reason: 'Too few players' } });
    expect(byCreator.body).toMatchObject({ role: 'creator', status: 'OPEN' });

    const mine = await api(path, { token: alice.token });
    expect(mine.body).toMatchObject({
      request: { id: asked.body['id'], status: 'OPEN' },
      openRequests: 2,
      canRequest: false,
    });
    const theirs = await api(`${path}?wallet=${stranger.address}`);
    expect(theirs.body).toMatchObject({ wallet: stranger.address, request: null, openRequests: 2, canRequest: false });
    expect((await api(`${path}?wallet=${bob.address}`)).body['canRequest']).toBe(false);
  });

  it('lets admins list and reject requests (the requester may then ask again)', async () => {
    expect((await api(`${admins}/cancel-requests`, { token: alice.token })).status).toBe(401);
    const open = await api(`${admins}/cancel-requests?tournamentId=${id}&status=OPEN`, { token: admin });
    expect(open.body['total']).toBe(2);
    const alices = (open.body['requests'] as Body[]).find((r) => r['wallet'] === alice.address) as Body;
    const reject = (requestId: string, reason = 'The fixtures are fine') =>
      api(`${admins}/cancel-requests/${requestId}/reject`, { method: 'PATCH', token: admin, body: { reason } });
    const rejected = await reject(alices['id'] as string);
    expect(rejected.body).toMatchObject({ status: 'REJECTED', decisionReason: 'The fixtures are fine' });
    expect(rejected.body['decidedBy']).toMatch(/^admin:/);
    expect(codeOf(await reject(alices['id'] as string))).toEqual([409, 'INVALID_STATE']);
    expect(codeOf(await reject('7d9f3f52-3c1f-4d7e-9a0e-000000000000'))).toEqual([404, 'NOT_FOUND']);
    expect(codeOf(await reject('not-a-uuid'))).toEqual([400, 'VALIDATION_FAILED']);
    const path = `/api/tournaments/${id}/cancel-request`;
    expect((await api(path, { token: alice.token })).body['canRequest']).toBe(true);
    const again = await api(path, { token: alice.token, body: { reason: 'Still want it cancelled' } });
    expect(again.body['status']).toBe('OPEN');
  });

  it('refuses to discard a tournament others entered; cancelling grants the open requests, once', async () => {
    expect(codeOf(await api(`/api/tournaments/${id}/refund-proof?wallet=${alice.address}`))).toEqual([
      409,
      'INVALID_STATE',
    ]);
    const discard = await api(`${admins}/tournaments/${id}/discard`, { token: admin, body: {} });
    expect(codeOf(discard)).toEqual([409, 'TOURNAMENT_HAS_ENTRIES']);
    expect(discard.body['details']).toEqual({ tournamentId: id, entries: 1 });
    expect(
      (await api(`${admins}/tournaments/${id}/cancel`, { token: alice.token, body: { reason: 'mine' } })).status,
    ).toBe(401);

    const cancel = () =>
      api(`${admins}/tournaments/${id}/cancel`, { token: admin, body: { reason: 'Fixtures moved' } });
    const first = await cancel();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      tournamentId: id,
      status: 'CANCELED',
      alreadyCancelled: false,
      reason: 'Fixtures moved',
      acceptedRequests: 2,
      refund: { total: (2n * buyin).toString(), leafCount: 2, published: false, publishTxHash: null },
    });
    const second = await cancel();
    expect(second.body).toMatchObject({
      alreadyCancelled: true,
      acceptedRequests: 0,
      cancelledAt: first.body['cancelledAt'],
    });
    expect(second.body['refund']).toEqual(first.body['refund']);

    const path = `/api/tournaments/${id}/cancel-request`;
    expect((await api(path, { token: alice.token })).body).toMatchObject({
      tournamentStatus: 'CANCELED',
      request: { status: 'ACCEPTED' },
      openRequests: 0,
      canRequest: false,
    });
    expect(codeOf(await api(path, { token: alice.token, body: { reason: 'Too late now' } }))).toEqual([
      409,
      'INVALID_STATE',
    ]);
    expect((await api(`/api/tournaments/${id}`)).body['tournament']['status']).toBe('CANCELED');
  });
});

describe('discard', () => {
  it('cancels and hides a tournament only its creator entered; detail and refund stay reachable', async () => {
    const { id } = await paidCreate(api, creator);
    const removable = await markets('/svc/admin/parlay-tournaments/tournaments/removable?limit=100', { token: admin });
    expect((removable.body['tournaments'] as Body[]).map((t): unknown => t['id'])).toContain(id);

    const discard = () =>
      api(`${admins}/tournaments/${id}/discard`, { token: admin, body: { reason: 'Test tournament' } });
    const first = await discard();
    expect(first.body).toMatchObject({
      tournamentId: id,
      status: 'CANCELED',
      alreadyDiscarded: false,
      cancellation: { reason: 'Test tournament', refund: { total: buyin.toString(), leafCount: 1 } },
    });
    expect((await discard()).body).toMatchObject({ alreadyDiscarded: true, discardedAt: first.body['discardedAt'] });

    const listed = await api('/api/tournaments?limit=100');
    expect((listed.body['tournaments'] as Body[]).map((t): unknown => t['id'])).not.toContain(id);
    expect((await api(`/api/tournaments/${id}`)).status).toBe(200);
    const proof = await api(`/api/tournaments/${id}/refund-proof`, { token: creator.token });
    expect(proof.body).toMatchObject({ account: creator.address, amount: buyin.toString(), published: false });

    const all = await markets('/svc/admin/parlay-tournaments/tournaments?status=canceled&limit=100', { token: admin });
    const row = (all.body['tournaments'] as Body[]).find((t) => t['id'] === id);
    expect(row).toMatchObject({
      status: 'CANCELED',
      removable: false,
      otherEntries: 0,
      cancelReason: 'Test tournament',
    });
    expect(row?.['discardedAt']).toBe(first.body['discardedAt']);
  });
});

describe('timeouts and refunds', () => {
  let id: string;
  let entrants: Player[];

  it('cancels a tournament below its minimum at the first lock, once, however many runs', async () => {
    id = (await paidCreate(api, creator, { config: { minEntriesToActivate: 4 } })).id;
    await enter(api, alice, id);
    await enter(api, bob, id);
    entrants = [creator, alice, bob];
    const run = () => api(`${admins}/automation/process-timeouts`, { token: admin, body: {} });
    expect((await api(`${admins}/automation/process-timeouts`, { token: alice.token, body: {} })).status).toBe(401);
    const early = await run();
    expect(early.body['cancelled']).toEqual([]);
    const startTime = (await api(`/api/tournaments/${id}`)).body['tournament']['startTime'] as string;
    clock.advance(Date.parse(startTime) - clock.now() + 60_000);

    // Two runs at once (two instances' schedules crossing) cancel it once between them.
    const both = await Promise.all([run(), run()]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.flatMap((r) => r.body['cancelled'] as Body[])).toEqual([
      { tournamentId: id, entries: 3, minEntriesToActivate: 4 },
    ]);
    const second = await run();
    expect(second.body).toMatchObject({ cancelled: [], stagesLocked: 0, refundTablesBuilt: 0 });
    const t = (await api(`/api/tournaments/${id}`)).body['tournament'] as Body;
    expect(t['status']).toBe('CANCELED');
  });

  it('publishes the refund root once and every entrant claims exactly their deposit on chain', async () => {
    const c = server.container;
    const proofOf = async (p: Player) => (await api(`/api/tournaments/${id}/refund-proof?wallet=${p.address}`)).body;
    expect(codeOf(await api(`/api/tournaments/${id}/refund-proof?wallet=${stranger.address}`))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect((await proofOf(alice))['published']).toBe(false);

    const vault = c.prizeVault.address('credits');
    const vaultBefore = await c.chain.collateralBalance('credits', vault);
    const publish = () => api(`${admins}/tournaments/${id}/set-refund-root-onchain`, { token: admin, body: {} });
    const published = await publish();
    expect(published.body).toMatchObject({
      kind: 'refund',
      kindIndex: 1,
      total: (3n * buyin).toString(),
      leafCount: 3,
    });
    expect((await publish()).body['txHash']).toBe(published.body['txHash']);
    const poolId = published.body['poolId'] as Hex;
    await until(
      () => c.prizeVault.distribution('credits', poolId, 'refund'),
      (d) => d.root === published.body['root'],
    );

    let refunded = 0n;
    for (const p of entrants) {
      const proof = await proofOf(p);
      expect(proof).toMatchObject({ account: p.address, amount: buyin.toString(), published: true, claimed: false });
      const leaf = {
        account: p.address,
        amount: BigInt(proof['amount'] as string),
        proof: proof['proof'] as Hex[],
      };
      expect(verifyLeaf(proof['root'] as Hex, poolId, leaf)).toBe(true);
      const before = await c.chain.collateralBalance('credits', p.address);
      await c.prizeVault.claim('credits', poolId, 'refund', leaf.account, leaf.amount, leaf.proof, {
        key: `test:refund-claim:${id}:${p.address}`,
      });
      await until(
        () => c.chain.collateralBalance('credits', p.address),
        (b) => b !== before,
      );
      expect((await c.chain.collateralBalance('credits', p.address)) - before).toBe(buyin);
      expect((await proofOf(p))['claimed']).toBe(true);
      refunded += leaf.amount;
    }
    expect(refunded).toBe(3n * buyin);
    expect(vaultBefore - (await c.chain.collateralBalance('credits', vault))).toBe(refunded);
    const onChain = await c.prizeVault.distribution('credits', poolId, 'refund');
    expect(onChain).toMatchObject({ total: refunded, claimed: refunded });
  });

  it('refuses a refund root for a tournament that is not cancelled', async () => {
    const { id: live } = await paidCreate(api, creator);
    const res = await api(`${admins}/tournaments/${live}/set-refund-root-onchain`, { token: admin, body: {} });
    expect(codeOf(res)).toEqual([409, 'INVALID_STATE']);
    expect(
      codeOf(await api(`${admins}/tournaments/${'0'.repeat(24)}/cancel`, { token: admin, body: { reason: 'nope' } })),
    ).toEqual([404, 'NOT_FOUND']);
  });
});

describe('markets-host admin, both hosts in one process', () => {
  it('reports the in-process link and relays cancel requests, rejects and cancellations', async () => {
    const status = await markets('/svc/admin/parlay-tournaments/config-status', { token: admin });
    expect(status.body).toMatchObject({
      mode: 'in-process',
      tournamentsUrl: null,
      reachable: true,
      breaker: { state: 'closed' },
      error: null,
    });
    expect((await markets('/svc/admin/parlay-tournaments/config-status', { token: alice.token })).status).toBe(401);

    const { id } = await paidCreate(api, creator);
    await enter(api, bob, id);
    const asked = await api(`/api/tournaments/${id}/cancel-request`, {
      token: bob.token,
      body: { reason: 'Wrong league' },
    });
    const listed = await markets(`/svc/admin/parlay-tournaments/cancel-requests?tournamentId=${id}`, { token: admin });
    expect(listed.body).toMatchObject({ total: 1, requests: [{ id: asked.body['id'], status: 'OPEN' }] });
    const rejected = await markets(`/svc/admin/parlay-tournaments/cancel-requests/${asked.body['id']}/reject`, {
      method: 'PATCH',
      token: admin,
      body: { reason: 'League is right' },
    });
    expect(rejected.body).toMatchObject({ status: 'REJECTED', decisionReason: 'League is right' });

    const discard = await markets(`/svc/admin/parlay-tournaments/tournaments/${id}/discard`, {
      token: admin,
      body: {},
    });
    expect(codeOf(discard)).toEqual([409, 'TOURNAMENT_HAS_ENTRIES']);
    const cancelled = await markets(`/svc/admin/parlay-tournaments/tournaments/${id}/cancel`, {
      token: admin,
      body: { reason: 'Admin decision' },
    });
    expect(cancelled.body).toMatchObject({ tournamentId: id, status: 'CANCELED', alreadyCancelled: false });
    expect(cancelled.body['cancelledBy']).toMatch(/^admin:/);
    const listAll = await markets('/svc/admin/parlay-tournaments/tournaments?limit=100', { token: admin });
    expect((listAll.body['tournaments'] as Body[]).find((t) => t['id'] === id)).toMatchObject({
      status: 'CANCELED',
      otherEntries: 1,
      removable: false,
    });
  });
});
