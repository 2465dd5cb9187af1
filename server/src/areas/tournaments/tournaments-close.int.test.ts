import { EVENT_CATALOGUE } from '@duelkit/contract';
import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  at,
  enter,
  paidCreate,
  player,
  postBond,
  tournamentsApi,
  type Player,
} from './tournaments.test-kit.js';
import { adminTokenOf, auditOf } from './tournaments-close.test-kit.js';
import { tournamentPoolId } from './vault-pools.js';

const clock = new ManualClock(T0);
let server: TestServer;
const api = tournamentsApi(() => server);
let admin: string;
let creator: Player, alice: Player, bob: Player, outsider: Player;
let id: string;
let stages: Body[];
// Tournament B: one stage, for the forced settlement.
let creatorB: Player, dave: Player;
let idB: string;
let stagesB: Body[];

const ONE_STAGE_FINAL = [
  { stageIndex: 1, buyinUsdc: (10n * UNIT).toString(), isFinal: true, startTime: at(1), endTime: at(7) },
];

beforeAll(async () => {
  server = await startTestServer({ ...TOURNAMENT_ENV, TOURNAMENT_FEE_BPS: '500' }, { clock });
  admin = await adminTokenOf(server);
  [creator, alice, bob, outsider, creatorB, dave] = await Promise.all([
    player(server, 'tc_creator'),
    player(server, 'tc_alice'),
    player(server, 'tc_bob'),
    player(server, 'tc_outsider'),
    player(server, 'tc_creator_b'),
    player(server, 'tc_dave'),
  ]);
  await postBond(api, creator);
  await postBond(api, creatorB);
  id = (
    await paidCreate(api, creator, {
      format: 'KNOCKOUT',
      stages: [
        { stageIndex: 1, buyinUsdc: (10n * UNIT).toString(), isFinal: false, startTime: at(1), endTime: at(7) },
        { stageIndex: 2, buyinUsdc: '0', isFinal: true, startTime: at(7), endTime: at(15) },
      ],
    })
  ).id;
  await enter(api, alice, id);
  await enter(api, bob, id);
  stages = (await api(`/api/tournaments/${id}`)).body['stages'] as Body[];
  idB = (await paidCreate(api, creatorB, { format: 'KNOCKOUT', totalStages: 1, stages: ONE_STAGE_FINAL })).id;
  await enter(api, dave, idB);
  stagesB = (await api(`/api/tournaments/${idB}`)).body['stages'] as Body[];
}, 180_000);
afterAll(() => server?.close());

const base = () => `/api/tournaments/${id}`;
const adminBase = '/api/tournaments/admin';
const stageId = (i: number) => stages[i - 1]?.['id'] as string;
const fixture = (stage: number, n: number) =>
  ((stages[stage - 1]?.['fixtures'] as Body[])[n - 1]?.['id'] as string) ?? '';
const reason = 'The broadcast shows a different full-time score';

/** The `tournament.stage_settled` events of one stage (docs/events.md). */
const stageSettledEvents = (stageId: string) =>
  server.container.orm.em
    .fork()
    .getConnection()
    .execute<{ builder_app_id: string; data: Record<string, unknown> }[]>(
      `select builder_app_id, data from events where type = 'tournament.stage_settled' and data->>'stageId' = ?`,
      [stageId],
    );

/** The semi-final pair: who won it and who lost it (they picked opposite outcomes on the first fixture). */
let winner: Player, loser: Player;
let loserOutcome: string;
let rejectedDispute: string, upheldDispute: string, expiringDispute: string;

async function payoutsOf(): Promise<Record<string, string>> {
  const res = await api(`${base()}/payouts`);
  return Object.fromEntries((res.body['payouts'] as Body[]).map((p) => [p['wallet'] as string, p['amount'] as string]));
}

describe('disputes inside the window', () => {
  it('refuses disputes by non-entrants, twice, on a market without a result, and answers the windows', async () => {
    await api(`${base()}/stages/${stageId(1)}/picks`, {
      token: alice.token,
      body: { fixtureId: fixture(1, 1), outcome: 'HOME', stake: 500 },
    });
    await api(`${base()}/stages/${stageId(1)}/picks`, {
      token: bob.token,
      body: { fixtureId: fixture(1, 1), outcome: 'AWAY', stake: 500 },
    });
    const early = await api(`${base()}/markets/${fixture(1, 1)}/dispute`, { token: bob.token, body: { reason } });
    expect([early.status, early.body['code'], early.body['details']['reason']]).toEqual([
      409,
      'MARKET_NOT_DISPUTEABLE',
      'no_result',
    ]);
    clock.advance(7 * HOUR);
    await server.container.tournaments.results.sweep();
    const semis = (await api(`${base()}/bracket`)).body['rounds'][0] as Body;
    const w = (semis['matches'] as Body[])[1]?.['winner'] as string;
    [winner, loser] = w === alice.address ? [alice, bob] : [bob, alice];
    loserOutcome = loser === alice ? 'HOME' : 'AWAY';

    const windows = await api(`${base()}/dispute-windows`);
    expect(windows.status).toBe(200);
    const [s1, s2] = windows.body['stages'] as Body[];
    expect(s1?.['window']).toMatchObject({ status: 'OPEN', closesAt: at(7 + 24), overridden: false });
    expect(s2?.['window']).toMatchObject({ status: 'PENDING', closesAt: null });
    expect(windows.body['final']).toMatchObject({ status: 'PENDING' });
    const listed = await api(`${base()}/stages/${stageId(1)}/disputeable-markets`);
    expect((listed.body['markets'] as Body[]).map((m): unknown => m['marketId']).sort()).toEqual(
      [fixture(1, 1), fixture(1, 2)].sort(),
    );
    expect((await api(`${base()}/stages/${stageId(2)}/disputeable-markets`)).body['markets']).toEqual([]);
    const marketWindow = await api(`${base()}/markets/${fixture(1, 1)}/dispute-window`);
    expect(marketWindow.body).toMatchObject({ disputeable: true, window: { status: 'OPEN', opensAt: at(7) } });
    const stageWindow = await api(`${base()}/stages/${stageId(1)}/dispute-window`);
    expect(stageWindow.body).toMatchObject({ stageIndex: 1, settled: false, window: { status: 'OPEN' } });

    const stranger = await api(`${base()}/markets/${fixture(1, 1)}/dispute`, {
      token: outsider.token,
      body: { reason },
    });
    expect([stranger.status, stranger.body['code']]).toEqual([403, 'NOT_ENTERED']);
    const anonymous = await api(`${base()}/markets/${fixture(1, 1)}/dispute`, { body: { reason } });
    expect(anonymous.status).toBe(401);
    const noResult = await api(`${base()}/stages/${stageId(2)}/markets/${fixture(2, 1)}/dispute`, {
      token: creator.token,
      body: { reason },
    });
    expect([noResult.status, noResult.body['code']]).toEqual([409, 'MARKET_NOT_DISPUTEABLE']);
    const wrongStage = await api(`${base()}/stages/${stageId(2)}/markets/${fixture(1, 1)}/dispute`, {
      token: loser.token,
      body: { reason },
    });
    expect([wrongStage.status, wrongStage.body['code']]).toEqual([404, 'NOT_FOUND']);
    const shortReason = await api(`${base()}/markets/${fixture(1, 1)}/dispute`, {
      token: loser.token,
      body: { reason: 'no' },
    });
    expect([shortReason.status, shortReason.body['code']]).toEqual([400, 'VALIDATION_FAILED']);

    const filed = await api(`${base()}/stages/${stageId(1)}/markets/${fixture(1, 1)}/dispute`, {
      token: loser.token,
      body: { reason, proposedResult: loserOutcome },
    });
    expect(filed.status).toBe(201);
    expect(filed.body['dispute']).toMatchObject({
      status: 'OPEN',
      wallet: loser.address,
      marketId: fixture(1, 1),
      stageId: stageId(1),
      proposedResult: loserOutcome,
      expiresAt: at(7 + 24 + 48),
    });
    upheldDispute = filed.body['dispute']['id'] as string;
    const twice = await api(`${base()}/markets/${fixture(1, 1)}/dispute`, { token: loser.token, body: { reason } });
    expect([twice.status, twice.body['code'], twice.body['details']['disputeId']]).toEqual([
      409,
      'ALREADY_DISPUTED',
      upheldDispute,
    ]);
    const other = await api(`${base()}/markets/${fixture(1, 2)}/dispute`, { token: creator.token, body: { reason } });
    expect(other.status).toBe(201);
    rejectedDispute = other.body['dispute']['id'] as string;

    expect((await api(`${base()}/disputes`)).body['total']).toBe(2);
    expect((await api(`${base()}/markets/${fixture(1, 1)}/disputes`)).body['disputes']).toHaveLength(1);
    expect((await api(`${base()}/stages/${stageId(1)}/disputes`)).body['total']).toBe(2);
    expect((await api(`${base()}/stages/${stageId(2)}/disputes`)).body['total']).toBe(0);
  });

  it('shows admins the queue, and refuses its routes to anyone else', async () => {
    const queue = await api(`${adminBase}/disputes?status=OPEN`, { token: admin });
    expect(queue.status).toBe(200);
    expect((queue.body['disputes'] as Body[]).map((d): unknown => d['id'])).toEqual(
      expect.arrayContaining([upheldDispute, rejectedDispute]),
    );
    expect((await api(`${adminBase}/disputes?status=OPEN`, { token: creator.token })).status).toBe(401);
    expect((await api(`${adminBase}/disputes`)).status).toBe(401);
    const stats = await api(`${adminBase}/disputes/stats`, { token: admin });
    expect(stats.body['byStatus']).toMatchObject({ OPEN: 2 });
    expect((await api(`${adminBase}/disputes/tournament/${id}`, { token: admin })).body['total']).toBe(2);
    expect((await api(`${adminBase}/disputes/stage/${stageId(1)}?status=OPEN`, { token: admin })).body['total']).toBe(
      2,
    );
    const unknownStage = await api(`${adminBase}/disputes/stage/00000000-0000-4000-8000-000000000000`, {
      token: admin,
    });
    expect(unknownStage.status).toBe(404);
    const blocked = await api(`${adminBase}/stages/${stageId(1)}/can-proceed`, { token: admin });
    expect(blocked.body).toMatchObject({ canProceed: false, settled: false, unresolvedMarkets: [] });
    expect((blocked.body['reasons'] as Body[]).map((r): unknown => r['code'])).toEqual([
      'DISPUTE_WINDOW_OPEN',
      'DISPUTES_PENDING',
    ]);
    const later = await api(`${adminBase}/stages/${stageId(2)}/can-proceed`, { token: admin });
    expect((later.body['reasons'] as Body[]).map((r): unknown => r['code'])).toEqual([
      'PREVIOUS_STAGE_UNSETTLED',
      'MARKETS_UNRESOLVED',
    ]);
    expect(later.body['unresolvedMarkets']).toHaveLength(2);
  });

  it('an upheld dispute corrects the result: the bracket, the standings and the payout change', async () => {
    const before = await payoutsOf();
    expect(before[winner.address]).toBeDefined();
    const noResult = await api(`${adminBase}/disputes/${rejectedDispute}/resolve`, {
      token: admin,
      body: { decision: 'UPHOLD' },
    });
    expect([noResult.status, noResult.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    const upheld = await api(`${adminBase}/disputes/${upheldDispute}/resolve`, {
      token: admin,
      body: { decision: 'UPHOLD', note: 'Checked against the official report' },
    });
    expect(upheld.status).toBe(200);
    expect(upheld.body).toMatchObject({
      changed: true,
      result: loserOutcome,
      dispute: { status: 'UPHELD', correctedResult: loserOutcome, resolvedBy: expect.stringContaining('@') },
    });
    const again = await api(`${adminBase}/disputes/${upheldDispute}/resolve`, {
      token: admin,
      body: { decision: 'REJECT' },
    });
    expect([again.status, again.body['code']]).toEqual([409, 'DISPUTE_CLOSED']);
    const rejected = await api(`${adminBase}/disputes/${rejectedDispute}/resolve`, {
      token: admin,
      body: { decision: 'REJECT', note: 'The result is right' },
    });
    expect(rejected.body).toMatchObject({ changed: false, dispute: { status: 'REJECTED' } });

    const semis = (await api(`${base()}/bracket`)).body['rounds'][0] as Body;
    expect((semis['matches'] as Body[])[1]?.['winner']).toBe(loser.address);
    const standings = await api(`${base()}/stages/${stageId(1)}/standings`);
    const stackOf = (p: Player) =>
      (standings.body['standings'] as Body[]).find((s) => s['wallet'] === p.address)?.['chips'] as number;
    expect(stackOf(loser)).toBeGreaterThan(stackOf(winner));
    const after = await payoutsOf();
    // The new finalist is paid the runner-up's share at least; the old one drops to the semi-final's.
    expect(BigInt(after[loser.address] ?? '0')).toBeGreaterThan(BigInt(before[loser.address] ?? '0'));
    expect(BigInt(after[winner.address] ?? '0')).toBeLessThan(BigInt(before[winner.address] ?? '0'));
    [winner, loser] = [loser, winner];
  });

  it('force-settles a stage over its blockers with an audit entry, rejecting its open disputes', async () => {
    const [b1] = stagesB[0]?.['fixtures'] as Body[];
    const sid = stagesB[0]?.['id'] as string;
    const filed = await api(`/api/tournaments/${idB}/markets/${b1?.['id']}/dispute`, {
      token: dave.token,
      body: { reason },
    });
    expect(filed.status).toBe(201);
    const noReason = await api(`${adminBase}/stages/${sid}/force-settle`, { token: admin, body: {} });
    expect(noReason.status).toBe(400);
    const notAdmin = await api(`${adminBase}/stages/${sid}/force-settle`, { token: dave.token, body: { reason } });
    expect(notAdmin.status).toBe(401);
    const forced = await api(`${adminBase}/stages/${sid}/force-settle`, { token: admin, body: { reason: 'ops test' } });
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({
      mode: 'force',
      reason: 'ops test',
      rejectedDisputes: [filed.body['dispute']['id']],
    });
    expect((forced.body['overriddenBlockers'] as Body[]).map((r): unknown => r['code'])).toEqual([
      'DISPUTE_WINDOW_OPEN',
      'DISPUTES_PENDING',
    ]);
    const twice = await api(`${adminBase}/stages/${sid}/force-settle`, { token: admin, body: { reason: 'again' } });
    expect([twice.status, twice.body['code']]).toEqual([409, 'INVALID_STATE']);
    const events = await stageSettledEvents(sid);
    expect(events.map((e) => e.data)).toEqual([
      {
        tournamentId: idB,
        stageId: sid,
        stageIndex: 1,
        stageName: stagesB[0]?.['stageName'],
        mode: 'force',
        settledAt: forced.body['settledAt'],
      },
    ]);
    const app = (await server.container.builderKeys.resolve(server.builderKey))?.builderAppId;
    expect(events[0]?.builder_app_id).toBe(app);
    expect(EVENT_CATALOGUE['tournament.stage_settled'].data.safeParse(events[0]?.data).success).toBe(true);
    const late = await api(`/api/tournaments/${idB}/markets/${b1?.['id']}/dispute`, {
      token: creatorB.token,
      body: { reason },
    });
    expect([late.status, late.body['code']]).toEqual([409, 'DISPUTE_WINDOW_CLOSED']);
    const window = await api(`${adminBase}/stages/${sid}/dispute-window/set`, {
      token: admin,
      body: { endsAt: at(100) },
    });
    expect([window.status, window.body['code']]).toEqual([409, 'INVALID_STATE']);
    const proceed = await api(`${adminBase}/stages/${sid}/can-proceed`, { token: admin });
    expect(proceed.body).toMatchObject({ canProceed: true, settled: true, reasons: [] });
    const audit = await auditOf(server, idB);
    expect(audit.map((a) => [a.action, a.actor.includes('@'), a.reason])).toEqual([['force-settle', true, 'ops test']]);
  });
});

describe('settlement and automation', () => {
  it('completes the tournament; a stage window set by an admin; nothing settles while windows are open', async () => {
    clock.advance(9 * HOUR); // +16h: the final's results
    await server.container.tournaments.results.sweep();
    const t = (await api(base())).body['tournament'] as Body;
    expect(t['status']).toBe('COMPLETED');
    const set = await api(`${adminBase}/stages/${stageId(1)}/dispute-window/set`, {
      token: admin,
      body: { endsAt: at(20), reason: 'shorter review' },
    });
    expect(set.body).toMatchObject({ window: { status: 'OPEN', closesAt: at(20), overridden: true } });
    const open = await api(`${base()}/markets/${fixture(2, 1)}/dispute`, { token: creator.token, body: { reason } });
    expect(open.status).toBe(201);
    expiringDispute = open.body['dispute']['id'] as string;
    expect(open.body['dispute']['expiresAt']).toBe(at(16 + 24 + 48));
    const run = await api(`${adminBase}/automation/run`, { token: admin, body: {} });
    expect(run.status).toBe(200);
    expect(run.body['steps']).toMatchObject({
      processTimeouts: { activated: 0 },
      processExpired: { expired: 0 },
      settleReady: { settled: 0 },
    });
    const status = await api(`${adminBase}/automation/status/${id}`, { token: admin });
    expect(status.body['lastRun']).toMatchObject({ runId: run.body['runId'], trigger: 'admin' });
    expect((status.body['nextDeadlines'] as Body[]).map((d): unknown => d['kind'])).toEqual([
      'DISPUTE_WINDOW_CLOSES',
      'DISPUTE_WINDOW_CLOSES',
      'DISPUTE_EXPIRES',
    ]);
    expect(status.body['payout']).toMatchObject({ ready: false, rootStatus: 'none' });
  });

  it('settle-ready settles a stage once its window closed; a second call changes nothing', async () => {
    clock.advance(5 * HOUR); // +21h: stage 1's window (set to +20h) is closed
    const late = await api(`${base()}/markets/${fixture(1, 1)}/dispute`, { token: creator.token, body: { reason } });
    expect([late.status, late.body['code'], late.body['details']['closesAt']]).toEqual([
      409,
      'DISPUTE_WINDOW_CLOSED',
      at(20),
    ]);
    const first = await api(`${adminBase}/automation/settle-ready`, { token: admin, body: {} });
    expect(first.body).toMatchObject({ settled: 1, stageIds: [stageId(1)] });
    const second = await api(`${adminBase}/automation/settle-ready`, { token: admin, body: {} });
    expect(second.body).toMatchObject({ settled: 0, stageIds: [] });
    // One `tournament.stage_settled`, written with the settlement; the second run writes none.
    const events = await stageSettledEvents(stageId(1));
    expect(events.map((e) => e.data)).toMatchObject([
      { tournamentId: id, stageIndex: 1, mode: 'auto', settledAt: at(21) },
    ]);
    const proceed = await api(`${adminBase}/stages/${stageId(1)}/can-proceed`, { token: admin });
    expect(proceed.body).toMatchObject({ canProceed: true, settled: true, settledAt: at(21) });
    const blocked = await api(`${adminBase}/stages/${stageId(2)}/can-proceed`, { token: admin });
    expect((blocked.body['reasons'] as Body[]).map((r): unknown => r['code'])).toEqual([
      'DISPUTE_WINDOW_OPEN',
      'DISPUTES_PENDING',
    ]);
  });

  it('process-expired closes undecided disputes; run settles what that frees; running again changes nothing', async () => {
    clock.advance(68 * HOUR); // +89h: past the open dispute's deadline (+88h)
    const expired = await api(`${adminBase}/disputes/process-expired`, { token: admin, body: {} });
    expect(expired.body).toEqual({ expired: 1, disputeIds: [expiringDispute] });
    const expiredAgain = await api(`${adminBase}/disputes/process-expired`, { token: admin, body: {} });
    expect(expiredAgain.body).toEqual({ expired: 0, disputeIds: [] });
    const run = await api(`${adminBase}/automation/run`, { token: admin, body: {} });
    expect(run.body['steps']).toMatchObject({ processExpired: { expired: 0 }, settleReady: { settled: 1 } });
    const rerun = await api(`${adminBase}/automation/run`, { token: admin, body: {} });
    expect(rerun.body['steps']).toEqual({
      processTimeouts: { activated: 0, tournamentIds: [], cancelled: [], stagesLocked: 0, refundTablesBuilt: 0 },
      processExpired: { expired: 0, disputeIds: [] },
      settleReady: { checked: 0, settled: 0, stageIds: [] },
    });
    const windows = await api(`${base()}/dispute-windows`);
    expect(windows.body['final']).toMatchObject({ status: 'OPEN', opensAt: at(89), closesAt: at(89 + 24) });
  });
});

describe('payout root, claims and confirmation', () => {
  const pool = 30n * UNIT;
  const fee = (pool * 500n) / 10_000n;
  const distributable = pool - fee;

  it('builds the root only once the final window closed, from the corrected standings', async () => {
    const early = await api(`${adminBase}/tournaments/${id}/set-root`, { token: admin, body: {} });
    expect([early.status, early.body['code']]).toEqual([409, 'PAYOUT_NOT_READY']);
    expect((early.body['details']['reasons'] as Body[]).map((r): unknown => r['code'])).toEqual(['FINAL_WINDOW_OPEN']);
    const notBuilt = await api(`${adminBase}/tournaments/${id}/set-payout-root-onchain`, { token: admin, body: {} });
    expect([notBuilt.status, notBuilt.body['code']]).toEqual([409, 'PAYOUT_NOT_READY']);
    const proofEarly = await api(`${base()}/claim-proof`, { token: creator.token });
    expect([proofEarly.status, proofEarly.body['code']]).toEqual([409, 'PAYOUT_NOT_READY']);
    const closed = await api(`${adminBase}/tournaments/${id}/final-dispute-window/set`, {
      token: admin,
      body: { endsAt: at(89) },
    });
    expect(closed.body).toMatchObject({ window: { status: 'CLOSED', overridden: true } });
    const root = await api(`${adminBase}/tournaments/${id}/payout-root`, { token: admin });
    expect(root.body).toMatchObject({ status: 'none', ready: true, reasons: [] });

    const built = await api(`${adminBase}/tournaments/${id}/set-root`, { token: admin, body: {} });
    expect(built.status).toBe(200);
    // Champion 60% + the unfilled half of the semi-finals' 15%; runner-up 25%; the one semi-final loser 7.5%.
    const share = (bps: bigint) => (distributable * bps) / 10_000n;
    expect(built.body).toMatchObject({
      status: 'built',
      total: distributable.toString(),
      fee: fee.toString(),
      leafCount: 3,
    });
    expect((built.body['payouts'] as Body[]).map((p): unknown => [p['wallet'], p['amount'], p['placement']])).toEqual([
      [creator.address, share(6750n).toString(), 1],
      [winner.address, share(2500n).toString(), 2],
      [loser.address, share(750n).toString(), 3],
    ]);
    const again = await api(`${adminBase}/tournaments/${id}/set-root`, { token: admin, body: {} });
    expect(again.body['root']).toBe(built.body['root']);
    const finalAfter = await api(`${adminBase}/tournaments/${id}/final-dispute-window/set`, {
      token: admin,
      body: { endsAt: at(200) },
    });
    expect([finalAfter.status, finalAfter.body['code']]).toEqual([409, 'INVALID_STATE']);
  });

  it('publishes the root on the vault; every winner claims with the served proof; the vault pays exactly the table', async () => {
    const vault = server.container.prizeVault;
    const poolId = tournamentPoolId(id);
    const proof = await api(`${base()}/claim-proof`, { token: creator.token });
    expect(proof.body).toMatchObject({ published: false, claimed: false, kindIndex: 0 });
    const published = await api(`${adminBase}/tournaments/${id}/set-payout-root-onchain`, { token: admin, body: {} });
    expect(published.status).toBe(200);
    expect(published.body['fee']).toMatchObject({ amount: fee.toString() });
    const republished = await api(`${adminBase}/tournaments/${id}/set-payout-root-onchain`, { token: admin, body: {} });
    expect(republished.body).toEqual(published.body);
    await until(
      () => vault.distribution('credits', poolId, 'payout'),
      (d) => d.total === distributable,
    );
    // The fee went to the treasury: nothing unreserved stays in the pool.
    await until(
      () => vault.poolBalance('credits', poolId),
      (b) => b === 0n,
    );
    const vaultAddress = vault.address('credits');
    const balance = (owner: Address) => server.container.chain.collateralBalance('credits', owner);
    const vaultBefore = await balance(vaultAddress);

    const table = (await api(`${base()}/payouts`)).body['payouts'] as Body[];
    let claimedTotal = 0n;
    for (const p of [creator, winner, loser]) {
      const leaf = await api(`${base()}/claim-proof`, { token: p.token });
      expect(leaf.body).toMatchObject({ published: true, claimed: false, account: p.address });
      const amount = BigInt(leaf.body['amount'] as string);
      expect(amount.toString()).toBe(table.find((row) => row['wallet'] === p.address)?.['amount']);
      const proofWords = leaf.body['proof'] as Hex[];
      expect(verifyLeaf(leaf.body['root'] as Hex, poolId, { account: p.address, amount, proof: proofWords })).toBe(
        true,
      );
      const walletBefore = await balance(p.address);
      // Relayed as packs' auto-claim does: anyone may send a leaf's claim; the money goes to its account.
      const tx = await vault.claim('credits', poolId, 'payout', p.address, amount, proofWords, {
        key: `test:tournament-claim:${id}:${p.address}`,
      });
      const confirmed = await until(
        () => api(`${base()}/confirm-claim`, { token: p.token, body: { txHash: tx } }),
        (r) => r.status !== 409,
      );
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toMatchObject({ claimed: true, recorded: true, amount: amount.toString() });
      const replay = await api(`${base()}/confirm-claim`, { token: p.token, body: { txHash: tx } });
      expect(replay.body['recorded']).toBe(false);
      expect((await balance(p.address)) - walletBefore).toBe(amount);
      claimedTotal += amount;
      if (p === creator) {
        const someoneElse = await api(`${base()}/confirm-claim`, { token: winner.token, body: { txHash: tx } });
        expect([someoneElse.status, someoneElse.body['code'], someoneElse.body['details']['reason']]).toEqual([
          400,
          'CLAIM_MISMATCH',
          'no_claim',
        ]);
      }
    }
    expect(claimedTotal).toBe(distributable);
    expect(vaultBefore - (await balance(vaultAddress))).toBe(distributable);
    const stranger = await api(`${base()}/claim-proof?wallet=${outsider.address}`);
    expect(stranger.status).toBe(404);
    const status = await api(`${base()}/payout-status`);
    expect(status.body).toMatchObject({
      rootSet: true,
      rootOnChain: true,
      total: distributable.toString(),
      claimedOnChain: distributable.toString(),
      leafCount: 3,
      leavesClaimed: 3,
      complete: true,
    });
    const adminRoot = await api(`${adminBase}/tournaments/${id}/payout-root`, { token: admin });
    expect(adminRoot.body).toMatchObject({
      status: 'published',
      onChain: { total: distributable.toString(), claimed: distributable.toString() },
    });
    expect((await api(`${base()}/payouts`)).body).toMatchObject({ status: 'published', prizePool: pool.toString() });
  });
});

describe('refusals common to every closing route', () => {
  const unknown = '0123456789abcdef01234567';
  const uuid = '00000000-0000-4000-8000-000000000000';

  it('answers 401 to every admin route without an admin token', async () => {
    const routes: [string, string][] = [
      ['POST', `${adminBase}/tournaments/${id}/set-root`],
      ['POST', `${adminBase}/tournaments/${id}/final-dispute-window/set`],
      ['POST', `${adminBase}/tournaments/${id}/set-payout-root-onchain`],
      ['GET', `${adminBase}/tournaments/${id}/payout-root`],
      ['POST', `${adminBase}/stages/${stageId(1)}/force-settle`],
      ['POST', `${adminBase}/stages/${stageId(1)}/dispute-window/set`],
      ['GET', `${adminBase}/stages/${stageId(1)}/can-proceed`],
      ['POST', `${adminBase}/disputes/process-expired`],
      ['GET', `${adminBase}/disputes/stats`],
      ['GET', `${adminBase}/disputes/stage/${stageId(1)}`],
      ['GET', `${adminBase}/disputes/tournament/${id}`],
      ['POST', `${adminBase}/disputes/${upheldDispute}/resolve`],
      ['GET', `${adminBase}/disputes`],
      ['POST', `${adminBase}/automation/run`],
      ['POST', `${adminBase}/automation/settle-ready`],
      ['GET', `${adminBase}/automation/status/${id}`],
    ];
    for (const [method, path] of routes) {
      const body = method === 'POST' ? {} : undefined;
      const none = await api(path, { method, body });
      const user = await api(path, { method, body, token: creator.token });
      expect([path, none.status, user.status]).toEqual([path, 401, 401]);
    }
  });

  it('answers 404 for an unknown tournament, stage, market or dispute and 400 for malformed ids and bodies', async () => {
    for (const path of [
      `/api/tournaments/${unknown}/dispute-windows`,
      `/api/tournaments/${unknown}/disputes`,
      `/api/tournaments/${unknown}/payouts`,
      `/api/tournaments/${unknown}/payout-status`,
      `/api/tournaments/${unknown}/claim-proof?wallet=${alice.address}`,
      `${base()}/markets/${uuid}/disputes`,
      `${base()}/markets/${uuid}/dispute-window`,
      `/api/tournaments/${idB}/markets/${fixture(1, 1)}/dispute-window`,
      `${base()}/stages/${uuid}/disputes`,
      `${base()}/stages/${uuid}/disputeable-markets`,
      `${base()}/stages/${uuid}/dispute-window`,
    ]) {
      const res = await api(path);
      expect([path, res.status, res.body['code']]).toEqual([path, 404, 'NOT_FOUND']);
    }
    for (const [path, init] of [
      [`${adminBase}/stages/${uuid}/can-proceed`, { token: admin }],
      [`${adminBase}/automation/status/${unknown}`, { token: admin }],
      [`${adminBase}/disputes/${uuid}/resolve`, { token: admin, body: { decision: 'REJECT' } }],
      [`${adminBase}/stages/${uuid}/force-settle`, { token: admin, body: { reason: 'nothing there' } }],
    ] as const) {
      const res = await api(path, init);
      expect([path, res.status]).toEqual([path, 404]);
    }
    for (const [path, init] of [
      [`${base()}/markets/not-a-uuid/dispute-window`, {}],
      [`/api/tournaments/not-an-id/disputes`, {}],
      [`${base()}/confirm-claim`, { token: creator.token, body: { txHash: '0x12' } }],
      [`${adminBase}/stages/${stageId(2)}/dispute-window/set`, { token: admin, body: { endsAt: 'tomorrow' } }],
      [`${adminBase}/disputes/${upheldDispute}/resolve`, { token: admin, body: { decision: 'MAYBE' } }],
      [`${adminBase}/disputes?status=SOMETIMES`, { token: admin }],
    ] as const) {
      const res = await api(path, init);
      expect([path, res.status, res.body['code']]).toEqual([path, 400, 'VALIDATION_FAILED']);
    }
    const noWallet = await api(`${base()}/claim-proof`);
    expect([noWallet.status, noWallet.body['code']]).toEqual([401, 'UNAUTHENTICATED']);
    const anonymous = await api(`${base()}/confirm-claim`, { body: { txHash: `0x${'ab'.repeat(32)}` } });
    expect(anonymous.status).toBe(401);
  });
});
