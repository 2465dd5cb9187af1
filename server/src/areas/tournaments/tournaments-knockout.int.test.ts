import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import type { Body } from '../../../test/support/http.js';
import {
  HOUR,
  T0,
  TOURNAMENT_ENV,
  UNIT,
  at,
  createBody,
  depositFor,
  enter,
  newTournamentId,
  paidCreate,
  player,
  postBond,
  tournamentsApi,
  type Player,
} from './tournaments.test-kit.js';

const clock = new ManualClock(T0);
let server: TestServer;
const api = tournamentsApi(() => server);
let creator: Player, alice: Player, bob: Player;
let id: string;
let stages: Body[];

beforeAll(async () => {
  server = await startTestServer(
    { ...TOURNAMENT_ENV, GEO_COUNTRY_HEADER: 'x-test-country', GEO_BLOCKED_COUNTRIES: 'US' },
    { clock },
  );
  [creator, alice, bob] = await Promise.all([
    player(server, 'tk_creator'),
    player(server, 'tk_alice'),
    player(server, 'tk_bob'),
  ]);
  await postBond(api, creator);
  id = (
    await paidCreate(api, creator, {
      format: 'KNOCKOUT',
      stages: [
        { stageIndex: 1, buyinUsdc: (10n * UNIT).toString(), isFinal: false, startTime: at(1), endTime: at(7) },
        { stageIndex: 2, buyinUsdc: (5n * UNIT).toString(), isFinal: true, startTime: at(7), endTime: at(15) },
      ],
    })
  ).id;
  await enter(api, alice, id);
  await enter(api, bob, id);
  stages = (await api(`/api/tournaments/${id}`)).body['stages'] as Body[];
}, 120_000);
afterAll(() => server?.close());

const base = () => `/api/tournaments/${id}`;
const stageId = (i: number) => stages[i - 1]?.['id'] as string;

describe('single-elimination knockout with a paid final', () => {
  it('draws the bracket from the first stage by entry order, with a bye for the top seed', async () => {
    const bracket = await api(`${base()}/bracket`);
    expect(bracket.body['bracketSize']).toBe(4);
    const [semis, final] = bracket.body['rounds'] as Body[];
    expect(
      (semis?.['matches'] as Body[]).map((m): unknown => [
        m['a']?.['wallet'] ?? null,
        m['b']?.['wallet'] ?? null,
        m['status'],
      ]),
    ).toEqual([
      [creator.address, null, 'BYE'],
      [alice.address, bob.address, 'PENDING'],
    ]);
    expect(final).toMatchObject({ name: 'Final', drawn: false, matches: [{ slot: 1, a: null, b: null }] });
    const info = await api(`${base()}/format-info`);
    expect(info.body).toMatchObject({ format: 'KNOCKOUT', groupSize: null, bracketSize: 4 });
    expect((info.body['stages'] as Body[]).map((s): unknown => [s['stageName'], s['maxPlayers']])).toEqual([
      ['Semi-finals', 4],
      ['Final', 2],
    ]);
    const early = await api(`${base()}/deposit`, { token: alice.token, body: { stageIndex: 2 } });
    expect(early.status).toBe(200);
    const tooEarly = await api(`${base()}/enter`, {
      token: alice.token,
      body: { depositTxHash: `0x${'12'.repeat(32)}`, stageIndex: 2 },
    });
    expect([tooEarly.status, tooEarly.body['code']]).toEqual([409, 'STAGE_NOT_OPEN']);
  });

  it('asks the finalists for the final’s buy-in, and a finalist who does not pay forfeits', async () => {
    const [f1] = stages[0]?.['fixtures'] as Body[];
    await api(`${base()}/stages/${stageId(1)}/picks`, {
      token: alice.token,
      body: { fixtureId: f1?.['id'], outcome: 'AWAY', stake: 1 },
    });
    await api(`${base()}/stages/${stageId(1)}/picks`, {
      token: bob.token,
      body: { fixtureId: f1?.['id'], outcome: 'HOME', stake: 1 },
    });
    clock.advance(7 * HOUR);
    await server.container.tournaments.results.sweep();
    const semis = (await api(`${base()}/bracket`)).body['rounds'][0] as Body;
    const winner = (semis['matches'] as Body[])[1]?.['winner'] as string;
    const [finalist, loser] = winner === alice.address ? [alice, bob] : [bob, alice];

    const [f3] = stages[1]?.['fixtures'] as Body[];
    const unpaid = await api(`${base()}/stages/${stageId(2)}/picks`, {
      token: finalist.token,
      body: { fixtureId: f3?.['id'], outcome: 'HOME', stake: 1 },
    });
    expect([unpaid.status, unpaid.body['code'], unpaid.body['details']['buyin']]).toEqual([
      409,
      'STAGE_DEPOSIT_REQUIRED',
      (5n * UNIT).toString(),
    ]);
    const due = await api(`${base()}/deposit`, { token: finalist.token, body: {} });
    expect(due.body).toMatchObject({ stageIndex: 2, amount: (5n * UNIT).toString() });
    const tx = await depositFor(api, finalist, id);
    const paid = await api(`${base()}/enter`, { token: finalist.token, body: { depositTxHash: tx, stageIndex: 2 } });
    expect(paid.body).toMatchObject({ hasEntry: true, stageIndex: 2, created: true });
    const again = await api(`${base()}/enter`, { token: finalist.token, body: { depositTxHash: tx, stageIndex: 2 } });
    expect(again.body['created']).toBe(false);
    const ok = await api(`${base()}/stages/${stageId(2)}/picks`, {
      token: finalist.token,
      body: { fixtureId: f3?.['id'], outcome: 'HOME', stake: 1 },
    });
    expect(ok.status).toBe(201);
    const outTx = await depositFor(api, loser, id).catch((e: Error) => e.message);
    expect(outTx).toMatch(/INVALID_STATE/);
    const standings = await api(`${base()}/stages/${stageId(2)}/standings`);
    expect((standings.body['standings'] as Body[]).map((s): unknown => [s['wallet'], s['paid']]).sort()).toEqual(
      [
        [creator.address, false],
        [finalist.address, true],
      ].sort(),
    );

    clock.advance(10 * HOUR);
    await server.container.tournaments.results.sweep();
    const t = (await api(base())).body['tournament'];
    expect([t['status'], t['championWallet']]).toEqual(['COMPLETED', finalist.address]);
    const final = await api(`${base()}/stages/${stageId(2)}/standings`);
    expect((final.body['standings'] as Body[]).find((s) => s['wallet'] === creator.address)?.['status']).toBe(
      'FORFEITED',
    );
    const pool = await api(`${base()}/prize-pool`);
    expect(pool.body['byStage']).toEqual([
      { stageIndex: 1, buyinUsdc: (10n * UNIT).toString(), deposits: 3, amount: (30n * UNIT).toString() },
      { stageIndex: 2, buyinUsdc: (5n * UNIT).toString(), deposits: 1, amount: (5n * UNIT).toString() },
    ]);
  });
});

describe('the usdc geo gate', () => {
  it('refuses usdc from a blocked region, lists it as a reason where it is one, and never gates credits', async () => {
    const blocked = { 'x-test-country': 'US' };
    const usdc = await api(`/api/tournaments/${newTournamentId()}/deposit`, {
      token: creator.token,
      headers: blocked,
      body: { stakeAsset: 'usdc', amount: (10n * UNIT).toString() },
    });
    expect([usdc.status, usdc.body['code']]).toEqual([403, 'GEO_BLOCKED']);
    const create = await api('/api/tournaments', {
      token: creator.token,
      headers: blocked,
      body: createBody(newTournamentId(), `0x${'34'.repeat(32)}`, { stakeAsset: 'usdc' }),
    });
    expect([create.status, create.body['code']]).toEqual([403, 'GEO_BLOCKED']);
    const flow = await api(
      `/api/tournaments/creator/create-flow-eligibility?stakeAsset=usdc&stage1BuyinRaw=${10n * UNIT}&minEntriesToActivate=2`,
      { token: creator.token, headers: blocked },
    );
    // The creator holds no usdc either: every reason is listed.
    expect((flow.body['reasons'] as Body[]).map((r): unknown => r['code'])).toEqual([
      'GEO_BLOCKED',
      'INSUFFICIENT_BALANCE',
    ]);
    const credits = await api(`/api/tournaments/${newTournamentId()}/deposit`, {
      token: creator.token,
      headers: blocked,
      body: { stakeAsset: 'credits', amount: (10n * UNIT).toString() },
    });
    expect(credits.status).toBe(200);
  });
});
