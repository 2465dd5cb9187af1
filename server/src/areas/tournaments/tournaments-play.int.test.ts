import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResult } from '../../adapters/sports-provider/fake-sportmonks.calendar.js';
import { ManualClock } from '../../platform/clock.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import type { Body } from '../../../test/support/http.js';
import { computeTournament, pickReturn, type PickOutcome } from './tournament-format.js';
import { TournamentDb } from './tournament.repository.js';
import { tournamentPoolId } from './vault-pools.js';
import {
  HOUR,
  T0,
  TOURNAMENT_ENV,
  UNIT,
  depositFor,
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
let creator: Player, alice: Player, bob: Player, carol: Player, poor: Player;
let id: string;
let stages: Body[];
const buyin = (10n * UNIT).toString();

beforeAll(async () => {
  server = await startTestServer(TOURNAMENT_ENV, { clock });
  [creator, alice, bob, carol, poor] = await Promise.all([
    player(server, 'tp_creator'),
    player(server, 'tp_alice'),
    player(server, 'tp_bob'),
    player(server, 'tp_carol'),
    player(server, 'tp_poor', 0n),
  ]);
  await postBond(api, creator);
  id = (await paidCreate(api, creator)).id;
  stages = (await api(`/api/tournaments/${id}`)).body['stages'] as Body[];
}, 120_000);
afterAll(() => server?.close());

const base = () => `/api/tournaments/${id}`;
const stageId = (i: number) => stages[i - 1]?.['id'] as string;
const fixturesOf = (i: number) => stages[i - 1]?.['fixtures'] as Body[];
/** What the fake calendar says a fixture ends as. */
function resultOf(fixture: Body): PickOutcome | 'VOID' {
  const r = calendarResult(fixture['providerFixtureId'] as number);
  if (r.state === 'cancelled') return 'VOID';
  return r.homeGoals > r.awayGoals ? 'HOME' : r.homeGoals < r.awayGoals ? 'AWAY' : 'DRAW';
}
const wrong = (o: PickOutcome | 'VOID'): PickOutcome => (o === 'HOME' ? 'AWAY' : 'HOME');
const oddsX100 = (fixture: Body, o: PickOutcome) =>
  Math.round(Number((fixture['odds'] as Record<string, string>)[o.toLowerCase()]) * 100);
const codes = (b: Body) => (b['reasons'] as { code: string }[]).map((r) => r.code).sort();
const sweep = () => server.container.tournaments.results.sweep();

describe('entering a tournament', () => {
  it('lists every reason a wallet cannot enter', async () => {
    expect((await api(`${base()}/eligibility`, { token: alice.token })).body).toMatchObject({
      eligible: true,
      reasons: [],
      buyin,
      stageIndex: 1,
    });
    expect(codes((await api(`${base()}/eligibility`, { token: poor.token })).body)).toEqual(['INSUFFICIENT_BALANCE']);
    expect(codes((await api(`${base()}/eligibility?wallet=${creator.address}`)).body)).toEqual(['ALREADY_ENTERED']);
    expect(codes((await api(`${base()}/eligibility`)).body)).toEqual(['WALLET_REQUIRED']);
  });

  it('answers what to deposit where, then enters with the verified deposit, idempotently', async () => {
    const instructions = await api(`${base()}/deposit`, { token: alice.token, body: {} });
    expect(instructions.body).toMatchObject({ tournamentExists: true, stageIndex: 1, amount: buyin, executed: false });
    expect((instructions.body['calls'] as Body[]).map((c): unknown => c['to'])).toEqual([
      instructions.body['token'],
      instructions.body['vault'],
    ]);
    const { tx, body } = await enter(api, alice, id);
    expect(body).toMatchObject({
      hasEntry: true,
      created: true,
      stageIndex: 1,
      entry: { wallet: alice.address, seed: 2 },
    });
    const again = await api(`${base()}/enter`, { token: alice.token, body: { depositTxHash: tx } });
    expect([again.status, again.body['created'], again.body['entry']]).toEqual([200, false, body['entry']]);

    // Once entered nothing is due; a second deposit can only be sent to the vault directly.
    const due = await api(`${base()}/deposit`, { token: alice.token, body: { execute: true } });
    expect([due.status, due.body['code']]).toEqual([409, 'INVALID_STATE']);
    const signer = await server.container.markets.signers.forUser(alice.userId);
    const second = await server.container.prizeVault.deposit(signer, 'credits', tournamentPoolId(id), 1, 10n * UNIT);
    const twice = await api(`${base()}/enter`, { token: alice.token, body: { depositTxHash: second } });
    expect([twice.status, twice.body['code']]).toEqual([409, 'ALREADY_ENTERED']);
    const stolen = await api(`${base()}/enter`, { token: bob.token, body: { depositTxHash: tx } });
    expect([stolen.status, stolen.body['code']]).toEqual([400, 'DEPOSIT_ALREADY_USED']);
    const notHis = await api(`${base()}/enter`, { token: bob.token, body: { depositTxHash: second } });
    expect([notHis.status, notHis.body['code'], notHis.body['details']['reason']]).toEqual([
      400,
      'DEPOSIT_MISMATCH',
      'sender',
    ]);
    const wrongWallet = await api(`${base()}/enter`, {
      token: bob.token,
      body: { depositTxHash: second, wallet: alice.address },
    });
    expect([wrongWallet.status, wrongWallet.body['code']]).toEqual([403, 'FORBIDDEN']);
    expect((await api(`${base()}/enter`, { body: { depositTxHash: tx } })).status).toBe(401);
    await enter(api, bob, id);
  });

  it('returns the buy-in to a player who leaves before the first lock, never to the creator', async () => {
    const { body } = await enter(api, carol, id);
    expect(body['entry']['seed']).toBe(4);
    const left = await api(`${base()}/withdraw`, { token: carol.token, body: {} });
    expect(left.body).toMatchObject({ wallet: carol.address, refunded: buyin, hasEntry: false });
    expect(left.body['txHash']).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await api(`${base()}/my-status?wallet=${carol.address}`)).body['hasEntry']).toBe(false);
    expect((await api(`${base()}/withdraw`, { token: carol.token, body: {} })).body['code']).toBe('NOT_ENTERED');
    const creatorLeaves = await api(`${base()}/withdraw`, { token: creator.token, body: {} });
    expect([creatorLeaves.status, creatorLeaves.body['code']]).toEqual([409, 'ENTRY_LOCKED']);
    const anonymous = await api(`${base()}/my-status`);
    expect([anonymous.status, anonymous.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    expect(anonymous.body['fieldErrors']).toHaveProperty(['query.wallet']);
    const t = (await api(base())).body['tournament'];
    expect([t['entryCount'], t['prizePool'], t['meetsMinimum']]).toEqual([3, (30n * UNIT).toString(), true]);
  });
});

describe('picks', () => {
  it('stakes stage chips at the stage odds, one pick per fixture, and takes picks back before the lock', async () => {
    const [f1, f2] = fixturesOf(1) as [Body, Body];
    const odds = await api(`${base()}/stages/${stageId(1)}/odds`);
    expect((odds.body['odds'] as Body[]).map((o): unknown => [o['fixtureId'], o['locked']])).toEqual([
      [f1['id'], false],
      [f2['id'], false],
    ]);
    const pick = await api(`${base()}/stages/${stageId(1)}/picks`, {
      token: alice.token,
      body: { fixtureId: f1['id'], outcome: resultOf(f1), stake: 600 },
    });
    expect(pick.status).toBe(201);
    expect(pick.body['chips']).toEqual({ available: 400, stack: 1000 });
    expect(pick.body['pick']).toMatchObject({
      status: 'OPEN',
      stake: 600,
      odds: (f1['odds'] as Body)[resultOf(f1).toLowerCase()],
    });
    const twice = await api(`${base()}/stages/${stageId(1)}/picks`, {
      token: alice.token,
      body: { fixtureId: f1['id'], outcome: 'DRAW', stake: 1 },
    });
    expect([twice.status, twice.body['code']]).toEqual([409, 'ALREADY_PICKED']);
    const tooMuch = await api(`${base()}/stages/${stageId(1)}/picks`, {
      token: alice.token,
      body: { fixtureId: f2['id'], outcome: 'HOME', stake: 401 },
    });
    expect([tooMuch.status, tooMuch.body['code'], tooMuch.body['details']['available']]).toEqual([
      400,
      'INSUFFICIENT_CHIPS',
      400,
    ]);
    const spare = await api(`${base()}/stages/${stageId(1)}/picks`, {
      token: alice.token,
      body: { fixtureId: f2['id'], outcome: 'HOME', stake: 400 },
    });
    const notHers = await api(`${base()}/picks/${spare.body['pick']['id']}`, { method: 'DELETE', token: bob.token });
    expect([notHers.status, notHers.body['code']]).toEqual([403, 'FORBIDDEN']);
    const back = await api(`${base()}/picks/${spare.body['pick']['id']}`, { method: 'DELETE', token: alice.token });
    expect(back.body).toEqual({
      deleted: true,
      pickId: spare.body['pick']['id'],
      refunded: 400,
      chips: { available: 400, stack: 1000 },
    });

    await api(`${base()}/stages/${stageId(1)}/picks`, {
      token: bob.token,
      body: { fixtureId: f1['id'], outcome: wrong(resultOf(f1)), stake: 500 },
    });
    const outsider = await api(`${base()}/stages/${stageId(1)}/picks`, {
      token: carol.token,
      body: { fixtureId: f1['id'], outcome: 'HOME', stake: 1 },
    });
    expect([outsider.status, outsider.body['code']]).toEqual([403, 'NOT_ENTERED']);
    const early = await api(`${base()}/stages/${stageId(2)}/picks`, {
      token: alice.token,
      body: { fixtureId: fixturesOf(2)[0]?.['id'], outcome: 'HOME', stake: 1 },
    });
    expect([early.status, early.body['code'], early.body['details']['status']]).toEqual([
      409,
      'STAGE_NOT_OPEN',
      'UPCOMING',
    ]);

    // Before a fixture locks, a player sees only their own pick on it.
    const anonymous = await api(`${base()}/stages/${stageId(1)}/picks`);
    expect([anonymous.body['picks'], anonymous.body['total'], anonymous.body['hidden']]).toEqual([[], 0, 2]);
    const own = await api(`${base()}/stages/${stageId(1)}/picks`, { token: alice.token });
    expect([(own.body['picks'] as Body[]).map((p): unknown => p['wallet']), own.body['hidden']]).toEqual([
      [alice.address],
      1,
    ]);
  });

  it('locks picks, entries and withdrawals at kick-off', async () => {
    clock.advance(2 * HOUR);
    const [f1] = fixturesOf(1) as [Body];
    const locked = await api(`${base()}/stages/${stageId(1)}/picks`, {
      token: creator.token,
      body: { fixtureId: f1['id'], outcome: 'HOME', stake: 1 },
    });
    expect([locked.status, locked.body['code'], locked.body['details']['status']]).toEqual([
      409,
      'PICK_LOCKED',
      'LOCKED',
    ]);
    const alicePick = (
      (await api(`${base()}/stages/${stageId(1)}/picks?wallet=${alice.address}`)).body['picks'] as Body[]
    )[0];
    const takeBack = await api(`${base()}/picks/${alicePick?.['id']}`, { method: 'DELETE', token: alice.token });
    expect([takeBack.status, takeBack.body['code'], takeBack.body['details']['lockTime']]).toEqual([
      409,
      'PICK_LOCKED',
      f1['lockTime'],
    ]);
    expect((await api(`${base()}/stages/${stageId(1)}/picks`)).body['total']).toBe(2);
    expect(codes((await api(`${base()}/eligibility`, { token: carol.token })).body)).toEqual(['ENTRIES_CLOSED']);
    const late = await depositFor(api, carol, id).catch((e: Error) => e.message);
    expect(late).toMatch(/ENTRIES_CLOSED/);
    expect((await api(`${base()}/withdraw`, { token: bob.token, body: {} })).body['code']).toBe('ENTRY_LOCKED');
    await sweep();
    expect((await api(base())).body['tournament']['activatedAt']).toBe(new Date(T0 + 2 * HOUR).toISOString());
  });
});

describe('results, standings and the bracket', () => {
  it('settles finished fixtures, ranks the group by chips and draws the qualifiers into the final', async () => {
    const [f1, f2] = fixturesOf(1) as [Body, Body];
    clock.advance(5 * HOUR);
    const swept = await sweep();
    expect(swept.recorded).toBe(2);
    const fixtures = (await api(`${base()}/stages/${stageId(1)}/fixtures`)).body['fixtures'] as Body[];
    expect(fixtures.map((f): unknown => f['result']?.['outcome'])).toEqual([resultOf(f1), resultOf(f2)]);

    const r1 = resultOf(f1);
    const aliceStack =
      1000 -
      600 +
      pickReturn(
        { outcome: r1 === 'VOID' ? 'HOME' : r1, stake: 600, oddsX100: r1 === 'VOID' ? 100 : oddsX100(f1, r1) },
        r1,
      );
    const bobStack = r1 === 'VOID' ? 1000 : 500;
    const standings = await api(`${base()}/stages/${stageId(1)}/standings`);
    expect(standings.body).toMatchObject({ status: 'COMPLETED', final: true, total: 3 });
    const rows = standings.body['standings'] as Body[];
    expect(rows.map((s): unknown => [s['wallet'], s['chips'], s['status']])).toEqual([
      [alice.address, aliceStack, 'ADVANCED'],
      [creator.address, 1000, 'ADVANCED'],
      [bob.address, bobStack, 'ELIMINATED'],
    ]);
    const groups = await api(`${base()}/stages/${stageId(1)}/groups`);
    expect(groups.body['groups']).toEqual([
      {
        label: 'A',
        members: rows.map((s, i) => ({
          position: i + 1,
          wallet: s['wallet'],
          username: s['username'],
          seed: s['seed'],
          chips: s['chips'],
          advancing: i < 2,
        })),
      },
    ]);
    const bracket = await api(`${base()}/bracket`);
    expect(bracket.body['rounds']).toHaveLength(1);
    expect(bracket.body['rounds'][0]).toMatchObject({ name: 'Final', drawn: true, status: 'OPEN' });
    expect(bracket.body['rounds'][0]['matches']).toEqual([
      {
        slot: 1,
        a: { wallet: alice.address, username: 'tp_alice', seed: 1, chips: 2000 },
        b: { wallet: creator.address, username: 'tp_creator', seed: 2, chips: 2000 },
        winner: null,
        status: 'PENDING',
      },
    ]);
    const bobStatus = await api(`${base()}/my-status`, { token: bob.token });
    expect(bobStatus.body).toMatchObject({
      eliminated: true,
      eliminatedAtStage: 1,
      stage: { stageIndex: 1, participantStatus: 'ELIMINATED' },
    });
    const aliceStatus = await api(`${base()}/my-status`, { token: alice.token });
    expect(aliceStatus.body['stage']).toMatchObject({
      stageIndex: 2,
      status: 'OPEN',
      chips: { available: 2000, stack: 2000 },
    });
  });

  it('plays the final: the eliminated cannot pick, the bigger stack wins, the tournament completes', async () => {
    const [f3] = fixturesOf(2) as [Body];
    const out = await api(`${base()}/stages/${stageId(2)}/picks`, {
      token: bob.token,
      body: { fixtureId: f3['id'], outcome: 'HOME', stake: 1 },
    });
    expect([out.status, out.body['code']]).toEqual([409, 'ELIMINATED']);
    const r3 = resultOf(f3);
    await api(`${base()}/stages/${stageId(2)}/picks`, {
      token: creator.token,
      body: { fixtureId: f3['id'], outcome: wrong(r3), stake: 1500 },
    });
    clock.advance(8 * HOUR);
    await sweep();
    const t = (await api(base())).body['tournament'];
    // A void final leaves both stacks level, and the better bracket seed (alice) goes through.
    expect([t['status'], t['championWallet'], t['currentStageIndex']]).toEqual(['COMPLETED', alice.address, null]);
    const status = await api(`${base()}/bracket/status`);
    expect(status.body).toMatchObject({
      roundsTotal: 1,
      roundsCompleted: 1,
      finished: true,
      championWallet: alice.address,
    });
    const board = await api(`${base()}/leaderboard`);
    expect(
      (board.body['leaderboard'] as Body[]).map((r): unknown => [
        r['rank'],
        r['wallet'],
        r['status'],
        r['stagesPlayed'],
      ]),
    ).toEqual([
      [1, alice.address, 'CHAMPION', 2],
      [2, creator.address, 'ELIMINATED', 2],
      [3, bob.address, 'ELIMINATED', 1],
    ]);
    expect((await api(`${base()}/my-status`, { token: alice.token })).body).toMatchObject({
      champion: true,
      eliminated: false,
    });
  });

  it('keeps every incrementally kept balance equal to its recomputation from scratch', async () => {
    const db = new TournamentDb(server.container.orm);
    const loaded = await server.container.tournaments.standings.inputOf(db.read, id);
    const state = computeTournament(loaded!.input);
    const seats = await db.read.play.stageEntriesOfTournament(id);
    const stageIndexOf = new Map(loaded!.stages.map((s) => [s.id, s.stageIndex]));
    expect(seats.length).toBe(5);
    for (const seat of seats) {
      const computed = state.stages
        .find((s) => s.index === stageIndexOf.get(seat.stageId))
        ?.standings.find((s) => s.entrantId === seat.entryId);
      expect({ available: seat.available, stack: seat.stack }).toEqual({
        available: computed?.available,
        stack: computed?.stack,
      });
    }
  });
});

describe('prizes, leaderboards and statistics', () => {
  it('prices the pool and the payout table, and estimates a caller’s payout', async () => {
    const pool = await api(`${base()}/prize-pool`);
    expect(pool.body).toMatchObject({
      total: (30n * UNIT).toString(),
      fee: '0',
      distributable: (30n * UNIT).toString(),
    });
    expect(pool.body['byStage']).toEqual([
      { stageIndex: 1, buyinUsdc: buyin, deposits: 3, amount: (30n * UNIT).toString() },
      { stageIndex: 2, buyinUsdc: '0', deposits: 0, amount: '0' },
    ]);
    expect((pool.body['tiers'] as Body[]).map((t): unknown => [t['label'], t['amountEach']])).toEqual([
      ['Champion', ((225n * UNIT) / 10n).toString()],
      ['Runner-up', ((75n * UNIT) / 10n).toString()],
    ]);
    // The vault also holds alice's second deposit, which never paid for anything.
    expect(pool.body['vault']['balance']).toBe((40n * UNIT).toString());
    const estimate = await api(`${base()}/estimate-payout`, { token: alice.token, body: {} });
    expect(estimate.body['caller']).toMatchObject({
      hasEntry: true,
      alive: false,
      guaranteed: ((225n * UNIT) / 10n).toString(),
    });
    const format = await api(`${base()}/format-info`);
    expect(format.body).toMatchObject({ format: 'GROUP_KNOCKOUT', bracketSize: 2, groupSize: 4, advancePerGroup: 2 });
  });

  it('aggregates players, creators and the platform in SQL', async () => {
    const user = await api(`/api/tournaments/user/${alice.address}/stats`);
    expect(user.body).toMatchObject({
      tournamentsEntered: 1,
      wins: 1,
      stagesPlayed: 2,
      bestRank: 1,
      picks: { total: 1, open: 0 },
      deposited: { credits: buyin, usdc: '0' },
    });
    const global = await api('/api/tournaments/global-leaderboard?limit=2');
    expect(global.body['total']).toBe(3);
    expect((global.body['leaderboard'] as Body[]).map((r): unknown => [r['rank'], r['wallet'], r['wins']])).toEqual([
      [1, alice.address, 1],
      [2, creator.address, 0],
    ]);
    const platform = await api('/api/tournaments/platform-leaderboard-aggregate');
    expect(platform.body).toMatchObject({
      tournaments: { total: 1, completed: 1 },
      entries: 3,
      players: 3,
      creators: 1,
      picks: 3,
    });
    const mine = await api(`/svc/tournaments/by-wallet/${bob.address}`);
    expect([mine.body['total'], mine.body['tournaments'][0]['role']]).toEqual([1, 'entrant']);
    const created = await api(`/svc/tournaments/by-wallet/${creator.address.toLowerCase()}`);
    expect(created.body['tournaments'][0]['role']).toBe('creator');
    for (const status of ['active', 'completed', 'canceled']) {
      const list = await api(`/api/tournaments?status=${status}`);
      expect([status, list.body['total']]).toEqual([status, status === 'completed' ? 1 : 0]);
    }
    expect((await api(`/api/tournaments?ownerWallet=${creator.address}&sport=football`)).body['total']).toBe(1);
    expect((await api('/api/tournaments?status=finished')).status).toBe(400);
  });
});

describe('refusals common to every route', () => {
  it('answers 404 for an unknown tournament or stage, 400 for a malformed id, 401 for a write without credentials', async () => {
    const unknown = '0123456789abcdef01234567';
    for (const path of [
      '',
      '/format-info',
      '/bracket',
      '/bracket/status',
      '/prize-pool',
      '/leaderboard',
      `/eligibility`,
    ]) {
      const res = await api(`/api/tournaments/${unknown}${path}`);
      expect([path, res.status, res.body['code']]).toEqual([path, 404, 'NOT_FOUND']);
    }
    const missingStage = '00000000-0000-4000-8000-000000000000';
    for (const path of ['fixtures', 'odds', 'standings', 'groups', 'picks']) {
      const res = await api(`${base()}/stages/${missingStage}/${path}`);
      expect([path, res.status, res.body['code']]).toEqual([path, 404, 'NOT_FOUND']);
    }
    expect((await api('/api/tournaments/ABC/bracket')).body['code']).toBe('VALIDATION_FAILED');
    for (const [method, path] of [
      ['POST', `${base()}/deposit`],
      ['POST', `${base()}/withdraw`],
      ['POST', `${base()}/estimate-payout`],
      ['POST', `${base()}/stages/${stageId(2)}/picks`],
      ['DELETE', `${base()}/picks/${missingStage}`],
      ['POST', '/api/tournaments/creator/deposit-bond'],
      ['POST', '/api/tournaments/creator/withdraw-bond'],
    ] as const) {
      const res = await api(path, { method, ...(method === 'POST' ? { body: {} } : {}) });
      expect([path, res.status, res.body['code']]).toEqual([path, 401, 'UNAUTHENTICATED']);
    }
    const noPick = await api(`${base()}/picks/${missingStage}`, { method: 'DELETE', token: alice.token });
    expect([noPick.status, noPick.body['code']]).toEqual([404, 'NOT_FOUND']);
    const finished = await api(`${base()}/stages/${stageId(2)}/picks`, {
      token: alice.token,
      body: { fixtureId: (fixturesOf(2)[1] as Body)['id'], outcome: 'HOME', stake: 1 },
    });
    expect([finished.status, finished.body['code']]).toEqual([409, 'STAGE_NOT_OPEN']);
  });
});
