import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClassification, fakeEvent, fakeSeason } from '../../adapters/sports-provider/fake-motorsport.season.js';
import { ManualClock } from '../../platform/clock.js';
import { verifyLeaf } from '../../platform/merkle/merkle-tree.js';
import { until } from '../../../test/support/market-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import type { Body } from '../../../test/support/http.js';
import {
  HOUR,
  T0,
  TOURNAMENT_ENV,
  UNIT,
  depositFor,
  newTournamentId,
  player,
  postBond,
  tournamentsApi,
  type Player,
} from '../tournaments/tournaments.test-kit.js';
import { tournamentPoolId } from '../tournaments/vault-pools.js';

// T0 is 08:00 UTC on the fake season's day: its first session (qualifying) locks at 10:00.
const clock = new ManualClock(T0);
const SEASON = Math.floor(T0 / (24 * HOUR));
const season = fakeSeason(SEASON);
const [r1, r2, r3] = season.rounds as [(typeof season.rounds)[0], (typeof season.rounds)[0], (typeof season.rounds)[0]];
const [q1, race1] = r1.events as [(typeof r1.events)[0], (typeof r1.events)[0]];
const truth = (eventId: number) => fakeClassification(fakeEvent(eventId) as NonNullable<ReturnType<typeof fakeEvent>>);
const at = (hour: number) => T0 - 8 * HOUR + hour * HOUR;

let server: TestServer;
const api = tournamentsApi(() => server);
let creator: Player, alice: Player, bob: Player, carol: Player, mallory: Player;
let id: string;
const buyin = (10n * UNIT).toString();
const f1 = () => `/api/tournaments/f1/${id}`;
const sweep = () => server.container.racing.settlement.sweep();

beforeAll(async () => {
  server = await startTestServer(TOURNAMENT_ENV, { clock });
  [creator, alice, bob, carol, mallory] = await Promise.all([
    player(server, 'rc_creator'),
    player(server, 'rc_alice'),
    player(server, 'rc_bob'),
    player(server, 'rc_carol'),
    player(server, 'rc_mallory'),
  ]);
  await postBond(api, creator);
}, 120_000);
afterAll(() => server?.close());

async function enterF1(p: Player) {
  const tx = await depositFor(api, p, id);
  return api(`${f1()}/enter`, { token: p.token, body: { depositTxHash: tx } });
}

describe('creating a racing tournament', () => {
  it('refuses without credentials, with a bad body and without the deposit', async () => {
    const body = { name: 'Grid cup', stakeAsset: 'credits', buyinUsdc: buyin };
    expect((await api('/api/tournaments/f1/create', { body })).status).toBe(401);
    const bad = await api('/api/tournaments/f1/create', { token: creator.token, body: { ...body, buyinUsdc: '1.5' } });
    expect(bad.status).toBe(400);
    expect(bad.body['code']).toBe('VALIDATION_FAILED');
    const noDeposit = await api('/api/tournaments/f1/create', { token: creator.token, body });
    expect(noDeposit.body['code']).toBe('PAID_TOURNAMENT_REQUIRES_DEPOSIT');
    const cheap = await api('/api/tournaments/f1/create', {
      token: creator.token,
      body: { ...body, buyinUsdc: '1000' },
    });
    expect(cheap.body['code']).toBe('BUYIN_BELOW_MINIMUM');
  });

  it('creates over the upcoming season after the vault deposit, enters the creator, and answers a replay', async () => {
    id = newTournamentId();
    const tx = await depositFor(api, creator, id, { stakeAsset: 'credits', amount: buyin });
    const body = {
      name: 'Grid cup',
      stakeAsset: 'credits',
      buyinUsdc: buyin,
      clientTournamentId: id,
      creatorDepositTxHash: tx,
      payoutBps: [7000, 3000],
    };
    const res = await api('/api/tournaments/f1/create', { token: creator.token, body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id,
      gameType: 'F1_GRID_PREDICTOR',
      seasonId: SEASON,
      entryCount: 1,
      prizePool: buyin,
      buyinUsdc: buyin,
      created: true,
      startsAt: q1.startsAt.toISOString(),
      totalRounds: 3,
      nextEvent: { eventId: q1.id, eventType: 'QUALIFYING' },
    });
    const again = await api('/api/tournaments/f1/create', { token: creator.token, body });
    expect(again.status).toBe(201);
    expect(again.body['created']).toBe(false);
    // It is a tournament like any other: the tournaments list shows it with its game type.
    const list = await api('/api/tournaments?gameType=F1_GRID_PREDICTOR');
    expect((list.body['tournaments'] as Body[]).map((t) => t['id'] as string)).toContain(id);
    expect((await api(`/api/tournaments/${id}`)).body['tournament']).toMatchObject({
      gameType: 'F1_GRID_PREDICTOR',
      totalStages: 1,
    });
    expect((await api(`/api/tournaments/f1/${'ab'.repeat(12)}`)).status).toBe(404);
    expect((await api('/api/tournaments/f1/not-an-id')).status).toBe(400);
  });
});

describe('before the season', () => {
  it('lists the grid, the weekends and their sessions', async () => {
    const drivers = await api(`${f1()}/drivers`);
    expect((drivers.body['drivers'] as Body[]).length).toBe(20);
    const rounds = await api(`${f1()}/rounds`);
    const list = rounds.body['rounds'] as Body[];
    expect(list.map((r) => r['gpName'] as string)).toEqual(season.rounds.map((r) => r.gpName));
    expect(list[1]).toMatchObject({ sprint: true, status: 'UPCOMING' });
    expect(
      ((list[1]?.['events'] as Body[]) ?? []).map((e) => [e['eventType'] as string, e['positions'] as number]),
    ).toEqual([
      ['SPRINT_QUALIFYING', 5],
      ['SPRINT', 8],
      ['QUALIFYING', 5],
      ['RACE', 10],
    ]);
    const one = await api(`${f1()}/rounds/${r1.id}`);
    expect(one.body).toMatchObject({
      id: r1.id,
      status: 'UPCOMING',
      events: [{ id: q1.id, status: 'OPEN' }, { id: race1.id }],
    });
    expect((await api(`${f1()}/rounds/999`)).status).toBe(404);
    const matchups = await api(`${f1()}/rounds/${r1.id}/matchups`);
    expect((matchups.body['matchups'] as Body[]).length).toBe(10);
    expect((matchups.body['matchups'] as Body[])[0]?.['winnerDriverId']).toBeNull();
  });

  it('says who may enter', async () => {
    const ok = await api(`${f1()}/eligibility/${alice.address}`);
    expect(ok.body).toMatchObject({ eligible: true, buyin, reasons: [] });
    const mine = await api(`${f1()}/eligibility/${creator.address}`);
    expect((mine.body['reasons'] as Body[]).map((r) => r['code'] as string)).toEqual(['ALREADY_ENTERED']);
    expect((await api(`${f1()}/eligibility/0x123`)).status).toBe(400);
  });

  it('enters players through the tournaments vault', async () => {
    expect((await api(`${f1()}/enter`, { body: { depositTxHash: `0x${'ab'.repeat(32)}` } })).status).toBe(401);
    for (const p of [alice, bob, carol]) {
      const res = await enterF1(p);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ tournamentId: id, hasEntry: true, created: true });
    }
    // Nothing is due from an entrant: a second entry is refused at the deposit already.
    const again = await api(`/api/tournaments/${id}/deposit`, { token: alice.token, body: { execute: true } });
    expect([again.status, again.body['code']]).toEqual([409, 'INVALID_STATE']);
    expect((await api(f1())).body['entryCount']).toBe(4);
  });
});

const qTruth = () => truth(q1.id).order.slice(0, 5);
const raceTruth = () => truth(race1.id).order.slice(0, 10);
let alicePrediction: string, bobPrediction: string, carolPrediction: string;

describe('predictions', () => {
  const predict = (p: Player, eventId: number, driverIds: number[]) =>
    api(`${f1()}/events/${eventId}/predict`, { token: p.token, body: { driverIds } });

  it('refuses bad orders with their codes, strangers and missing credentials', async () => {
    const t = qTruth();
    expect((await predict(alice, q1.id, [t[0] as number, t[0] as number, 103, 104, 105])).body['code']).toBe(
      'PREDICTION_DUPLICATE_DRIVER',
    );
    expect((await predict(alice, q1.id, [999, 101, 102, 103, 104])).body['code']).toBe('PREDICTION_UNKNOWN_DRIVER');
    const long = await predict(alice, q1.id, [101, 102, 103, 104, 105, 106]);
    expect([long.status, long.body['code']]).toEqual([400, 'PREDICTION_WRONG_LENGTH']);
    expect((await predict(alice, q1.id, [])).status).toBe(400);
    const stranger = await predict(mallory, q1.id, t);
    expect([stranger.status, stranger.body['code']]).toEqual([403, 'NOT_ENTERED']);
    expect((await api(`${f1()}/events/${q1.id}/predict`, { body: { driverIds: t } })).status).toBe(401);
    expect((await predict(alice, 12345, t)).status).toBe(404);
  });

  it('takes one prediction per event, editable and deletable by its owner only', async () => {
    const t = qTruth();
    const a = await predict(alice, q1.id, [t[1], t[0], t[2], t[3], t[4]] as number[]);
    expect(a.status).toBe(201);
    alicePrediction = a.body['id'] as string;
    expect((await predict(alice, q1.id, [101, 102, 103, 104, 105])).body['code']).toBe('ALREADY_PICKED');
    // Bob predicts the grid's back five; Carol the front five in reverse.
    const b = await predict(bob, q1.id, [116, 117, 118, 119, 120]);
    bobPrediction = b.body['id'] as string;
    const c = await predict(carol, q1.id, [...t].reverse());
    carolPrediction = c.body['id'] as string;

    const theft = await api(`${f1()}/predictions/${alicePrediction}`, {
      method: 'PUT',
      token: bob.token,
      body: { driverIds: t },
    });
    expect([theft.status, theft.body['code']]).toEqual([403, 'FORBIDDEN']);
    const del = await api(`${f1()}/predictions/${alicePrediction}`, { method: 'DELETE', token: bob.token });
    expect(del.status).toBe(403);
    const edit = await api(`${f1()}/predictions/${alicePrediction}`, {
      method: 'PUT',
      token: alice.token,
      body: { driverIds: t },
    });
    expect(edit.status).toBe(200);
    expect(edit.body['driverIds']).toEqual(t);
    const badEdit = await api(`${f1()}/predictions/${alicePrediction}`, {
      method: 'PUT',
      token: alice.token,
      body: { driverIds: [101, 101, 102, 103, 104] },
    });
    expect(badEdit.body['code']).toBe('PREDICTION_DUPLICATE_DRIVER');
    expect((await api(`${f1()}/predictions/not-a-uuid`, { method: 'DELETE', token: alice.token })).status).toBe(400);

    const gone = await api(`${f1()}/predictions/${carolPrediction}`, { method: 'DELETE', token: carol.token });
    expect(gone.body).toMatchObject({ deleted: true, eventId: q1.id });
    expect((await api(`${f1()}/user/${carol.address}/predictions/${q1.id}`)).status).toBe(404);
    carolPrediction = (await predict(carol, q1.id, [...t].reverse())).body['id'] as string;
  });

  it('locks early for the bonus; a locked prediction no longer changes', async () => {
    const lock = await api(`${f1()}/events/${q1.id}/lock-my-predictions`, { token: alice.token, body: {} });
    expect(lock.status).toBe(200);
    expect(lock.body).toMatchObject({ bonusPct: 20, prediction: { lockedEarly: true } });
    const edit = await api(`${f1()}/predictions/${alicePrediction}`, {
      method: 'PUT',
      token: alice.token,
      body: { driverIds: qTruth() },
    });
    expect([edit.status, edit.body['code']]).toEqual([409, 'PREDICTION_LOCKED']);
    expect((await api(`${f1()}/events/${q1.id}/lock-my-predictions`, { token: mallory.token, body: {} })).status).toBe(
      404,
    );
  });

  it('takes race predictions and side bets, and shows the crowd', async () => {
    const rt = raceTruth();
    expect((await predict(alice, race1.id, rt)).status).toBe(201);
    expect((await predict(bob, race1.id, [...rt].reverse())).status).toBe(201);
    const race = truth(race1.id);
    const bets = await api(`${f1()}/rounds/${r1.id}/side-bets`, {
      token: alice.token,
      body: {
        sideBets: [
          { prop: 'FASTEST_LAP', driverId: race.fastestLapDriverId },
          { prop: 'SAFETY_CAR', value: race.safetyCar },
          { prop: 'DNF_COUNT', count: race.dnfDriverIds.length + 1 },
        ],
      },
    });
    expect(bets.status).toBe(201);
    expect((bets.body['sideBets'] as Body[]).length).toBe(3);
    const bobBets = await api(`${f1()}/rounds/${r1.id}/side-bets`, {
      token: bob.token,
      body: { sideBets: [{ prop: 'SAFETY_CAR', value: race.safetyCar }] },
    });
    expect(bobBets.status).toBe(201);
    const missing = await api(`${f1()}/rounds/${r1.id}/side-bets`, {
      token: bob.token,
      body: { sideBets: [{ prop: 'FASTEST_LAP' }] },
    });
    expect(missing.body['code']).toBe('VALIDATION_FAILED');
    const unknown = await api(`${f1()}/rounds/${r1.id}/side-bets`, {
      token: bob.token,
      body: { sideBets: [{ prop: 'FASTEST_LAP', driverId: 5 }] },
    });
    expect(unknown.body['code']).toBe('PREDICTION_UNKNOWN_DRIVER');
    expect(
      (
        await api(`${f1()}/rounds/${r1.id}/side-bets`, {
          token: mallory.token,
          body: { sideBets: [{ prop: 'SAFETY_CAR', value: true }] },
        })
      ).status,
    ).toBe(403);

    const listed = await api(`${f1()}/rounds/${r1.id}/side-bets?wallet=${alice.address}`);
    expect(listed.body).toMatchObject({ raceEventId: race1.id, totalBets: 4, status: 'OPEN' });
    expect((listed.body['mine'] as Body[]).length).toBe(3);
    const sbHeat = await api(`${f1()}/rounds/${r1.id}/side-bet-heatmap`);
    expect((sbHeat.body['cells'] as Body[]).find((c) => c['prop'] === 'SAFETY_CAR')).toMatchObject({
      value: String(race.safetyCar),
      count: 2,
      share: 1,
    });

    const heat = await api(`${f1()}/heatmap/${q1.id}`);
    expect(heat.body['predictions']).toBe(3);
    const winnerCell = (heat.body['cells'] as Body[]).find((c) => c['position'] === 1 && c['driverId'] === qTruth()[0]);
    expect(winnerCell).toMatchObject({ count: 1 });
    const picks = await api(`${f1()}/user/${alice.address}/my-picks`);
    expect((picks.body['predictions'] as Body[]).length).toBe(2);
    expect((picks.body['sideBets'] as Body[]).length).toBe(3);
  });

  it('answers 409 with the lock time once the session has started', async () => {
    clock.advance(at(10) - clock.now());
    const late = await api(`${f1()}/predictions/${bobPrediction}`, {
      method: 'PUT',
      token: bob.token,
      body: { driverIds: qTruth() },
    });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'PREDICTION_LOCKED', details: { lockTime: q1.startsAt.toISOString() } });
    expect((await api(`${f1()}/predictions/${bobPrediction}`, { method: 'DELETE', token: bob.token })).status).toBe(
      409,
    );
    expect(
      (await api(`${f1()}/events/${q1.id}/predict`, { token: carol.token, body: { driverIds: qTruth() } })).status,
    ).toBe(409);
    const enter = await api(`${f1()}/eligibility/${mallory.address}`);
    expect((enter.body['reasons'] as Body[]).map((r) => r['code'] as string)).toContain('ENTRIES_CLOSED');
    expect((await api(`${f1()}/rounds/${r1.id}`)).body['status']).toBe('LIVE');
  });
});

describe('results, leaderboards and Elo', () => {
  it('settles each session once as the clock passes it, exactly as hand-computed', async () => {
    clock.advance(at(11) - clock.now());
    expect((await sweep()).settledEvents).toBe(1);
    expect((await sweep()).settledEvents).toBe(0);
    const results = await api(`${f1()}/results/${q1.id}`);
    expect(results.body['status']).toBe('FINISHED');
    expect((results.body['classification'] as Body[]).slice(0, 5).map((c) => c['driverId'] as number)).toEqual(
      qTruth(),
    );
    // Alice: 5 exact (3 each) + 3 podium (1 each) = 18, +20% early lock = 21.
    // Carol: the front five reversed: P3 exact (3) + four in the top 5 elsewhere (1 each) + podium 1 (only P3
    // of her predicted podium finished on it) = 8.
    // Bob: the back five of the grid — none in the top five: 0.
    const points = Object.fromEntries((results.body['scores'] as Body[]).map((s) => [s['wallet'], s['points']]));
    expect(points).toEqual({ [alice.address]: 21, [carol.address]: 8, [bob.address]: 0 });

    const elo = await api(`${f1()}/leaderboard/elo`);
    // First event, three players at 1500, K/(n-1) = 16: Alice wins both (+16), Carol one of two (0), Bob none (-16).
    const ratings = Object.fromEntries((elo.body['rows'] as Body[]).map((r) => [r['wallet'], r['eloRating']]));
    expect(ratings).toEqual({
      [alice.address]: 1516,
      [carol.address]: 1500,
      [bob.address]: 1484,
      [creator.address]: 1500,
    });

    const analytics = await api(`${f1()}/race-analytics/${q1.id}`);
    expect(analytics.body).toMatchObject({
      predictions: 3,
      earlyLocks: 1,
      bestPoints: 21,
      bestWallet: alice.address,
      perfectPredictions: 1,
    });
    const mine = await api(`${f1()}/user/${alice.address}/predictions/${q1.id}`);
    expect(mine.body).toMatchObject({ points: 21, lockedEarly: true });
  });

  it('adds the race and side bets into the weekend and the season', async () => {
    clock.advance(at(14) - clock.now());
    expect((await sweep()).settledEvents).toBe(1);
    const race = truth(race1.id);
    // Alice's race: the true top ten, not locked early: 10 × 3 + 3 = 33; side bets: fastest lap 5 + safety car 2 (DNF count wrong).
    const weekend = await api(`${f1()}/leaderboard/weekend/${r1.id}`);
    const aliceRow = (weekend.body['rows'] as Body[])[0];
    expect(aliceRow).toMatchObject({
      rank: 1,
      wallet: alice.address,
      eventPoints: 21 + 33,
      sideBetPoints: 7,
      totalPoints: 61,
    });
    const bobRow = (weekend.body['rows'] as Body[]).find((r) => r['wallet'] === bob.address);
    const bobRace = (await api(`${f1()}/results/${race1.id}`)).body['scores'] as Body[];
    expect(bobRow?.['sideBetPoints']).toBe(2);
    expect(bobRow?.['eventPoints']).toBe(bobRace.find((s) => s['wallet'] === bob.address)?.['points']);
    expect(race.order.length).toBe(20);

    const seasonBoard = await api(`${f1()}/leaderboard/season`);
    expect((seasonBoard.body['rows'] as Body[])[0]).toMatchObject({
      rank: 1,
      wallet: alice.address,
      seasonPoints: 61,
      racesParticipated: 2,
    });
    expect(seasonBoard.body['total']).toBe(4);
    const matchups = await api(`${f1()}/rounds/${r1.id}/matchups`);
    const first = (matchups.body['matchups'] as Body[])[0] as Body;
    const a = (first['driverA'] as Body)['id'] as number;
    const b = (first['driverB'] as Body)['id'] as number;
    expect(first['winnerDriverId']).toBe(race.order.indexOf(a) < race.order.indexOf(b) ? a : b);
    const stats = await api(`${f1()}/user/${alice.address}/stats`);
    expect(stats.body).toMatchObject({ entered: true, rank: 1, seasonPoints: 61, exactHits: 15, earlyLocks: 1 });
    const dash = await api(f1() + '/dashboard', { token: alice.token });
    expect(dash.body).toMatchObject({
      me: { rank: 1 },
      tournament: { roundsCompleted: 1 },
      currentRound: { id: r2.id },
    });
    expect((await api(`${f1()}/leaderboard/weekend/1`)).status).toBe(404);
  });

  it('re-enters for a new period with a fresh deposit, once a weekend is done', async () => {
    expect((await api(`${f1()}/reenter`, { token: mallory.token, body: { execute: true } })).status).toBe(403);
    expect((await api(`${f1()}/reenter`, { body: { execute: true } })).status).toBe(401);
    const res = await api(`${f1()}/reenter`, { token: bob.token, body: { execute: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ reentries: 1, created: true, periodStart: new Date(clock.now()).toISOString() });
    const again = await api(`${f1()}/reenter`, { token: bob.token, body: { execute: true } });
    expect([again.status, again.body['code']]).toEqual([409, 'REENTRY_NOT_ALLOWED']);
    // Bob's season restarts: weekend 1 no longer counts for him.
    const rows = (await api(`${f1()}/leaderboard/season`)).body['rows'] as Body[];
    expect(rows.find((r) => r['wallet'] === bob.address)?.['seasonPoints']).toBe(0);
    expect((await api(f1())).body['prizePool']).toBe((5n * 10n * UNIT).toString());
  });
});

describe('season end and payouts', () => {
  it('projects payouts before the end and refuses proofs', async () => {
    const payouts = await api(`${f1()}/payouts`);
    expect(payouts.body).toMatchObject({ status: 'projected', root: null });
    const early = await api(`${f1()}/claim-proof?wallet=${alice.address}`);
    expect([early.status, early.body['code']]).toEqual([409, 'PAYOUT_NOT_READY']);
    expect((await api(`${f1()}/my-payout`)).status).toBe(400);
  });

  it('closes the season, publishes the Merkle root and pays the winners on chain', async () => {
    clock.advance(at(23) + HOUR / 2 - clock.now());
    const done = await sweep();
    expect(done.completed).toEqual([id]);
    expect((await api(f1())).body).toMatchObject({ status: 'COMPLETED', roundsCompleted: 3, nextEvent: null });
    expect((await api(`${f1()}/rounds/${r3.id}`)).body['status']).toBe('COMPLETED');
    const payouts = await api(`${f1()}/payouts`);
    expect(payouts.body['status']).toBe('published');
    const pool = 5n * 10n * UNIT;
    const fee = BigInt(payouts.body['fee'] as string);
    expect(BigInt(payouts.body['prizePool'] as string)).toBe(pool);
    const lines = payouts.body['payouts'] as Body[];
    expect(lines.reduce((s, l) => s + BigInt(l['amount'] as string), 0n)).toBe(pool - fee);
    expect(lines[0]?.['placement']).toBe(1);

    const vault = server.container.prizeVault;
    const poolId = tournamentPoolId(id);
    const winner = [creator, alice, bob, carol].find((p) => p.address === lines[0]?.['wallet']) as Player;
    const leaf = await api(`${f1()}/claim-proof`, { token: winner.token });
    expect(leaf.body).toMatchObject({ published: true, claimed: false, account: winner.address });
    const amount = BigInt(leaf.body['amount'] as string);
    expect(
      verifyLeaf(leaf.body['root'] as Hex, poolId, {
        account: winner.address,
        amount,
        proof: leaf.body['proof'] as Hex[],
      }),
    ).toBe(true);
    const mine = await api(`${f1()}/my-payout`, { token: winner.token });
    expect(mine.body).toMatchObject({ placement: 1, amount: amount.toString(), claimable: true });
    const balance = (owner: Address) => server.container.chain.collateralBalance('credits', owner);
    const before = await balance(winner.address);
    const tx = await vault.claim('credits', poolId, 'payout', winner.address, amount, leaf.body['proof'] as Hex[], {
      key: `test:racing-claim:${id}`,
    });
    const confirmed = await until(
      () => api(`/api/tournaments/${id}/confirm-claim`, { token: winner.token, body: { txHash: tx } }),
      (r) => r.status !== 409,
    );
    expect(confirmed.status).toBe(200);
    expect((await balance(winner.address)) - before).toBe(amount);
    expect((await api(`${f1()}/my-payout`, { token: winner.token })).body).toMatchObject({
      claimed: true,
      claimable: false,
    });
    const loser = [creator, alice, bob, carol].find((p) => !lines.some((l) => l['wallet'] === p.address));
    if (loser) expect((await api(`${f1()}/claim-proof?wallet=${loser.address}`)).status).toBe(404);
  });

  it('feeds the external dashboards with stable fields', async () => {
    const feed = await api('/api/tournaments/f1/dashboard/external');
    const row = (feed.body['tournaments'] as Body[]).find((t) => t['id'] === id);
    expect(row).toMatchObject({
      status: 'COMPLETED',
      gameType: 'F1_GRID_PREDICTOR',
      leader: { wallet: expect.any(String) },
    });
    expect(row?.['leaderboard']).toBeUndefined();
    const full = await api('/api/tournaments/f1/dashboard/external/full?limit=5');
    const fullRow = (full.body['tournaments'] as Body[]).find((t) => t['id'] === id);
    expect((fullRow?.['rounds'] as Body[]).length).toBe(3);
    expect((fullRow?.['leaderboard'] as Body[]).length).toBe(4);
    expect((await api('/api/tournaments/f1/dashboard/external?limit=0')).status).toBe(400);
  });
});
