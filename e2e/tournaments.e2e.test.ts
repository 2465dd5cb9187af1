import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuelkitClient } from '@duelkit/sdk';
import { calmHour, type ServerProcess, signedInClient, startServer, TOURNAMENT_ENV, until, UNIT } from './support.js';

const HOUR = 3_600_000;
let server: ServerProcess;
/** The stages' hour 0 (their fixtures kick off from hour 2 to hour 14, none cancelled). */
let T0: number;
const at = (h: number) => new Date(T0 + h * HOUR).toISOString();

beforeAll(async () => {
  server = await startServer({
    JOBS_ENABLED: 'true',
    TOURNAMENT_RESULTS_INTERVAL_MS: '300',
    ...TOURNAMENT_ENV,
    TOURNAMENT_FIXTURES_PER_STAGE: '2',
  });
  T0 = await calmHour(server);
  await server.advanceTo(T0);
}, 120_000);
afterAll(() => server?.stop());

type Fixture = { id: string; providerFixtureId: number };
type Outcome = 'HOME' | 'DRAW' | 'AWAY';

/** A right and a wrong pick for each fixture, from how the simulator will end it (a void fixture counts neither). */
async function picksFor(fixtures: readonly Fixture[]) {
  const { fixtures: script } = await server.sportsScript({ fixtureIds: fixtures.map((f) => f.providerFixtureId) });
  const outcome = new Map(script.map((f) => [f.id, f.outcome ?? 'HOME']));
  const right = (f: Fixture): Outcome => outcome.get(f.providerFixtureId) as Outcome;
  return { right, wrong: (f: Fixture): Outcome => (right(f) === 'HOME' ? 'AWAY' : 'HOME') };
}

/** Deposits a stage buy-in from the managed wallet through the API, then enters with it. */
async function enter(client: DuelkitClient, tournamentId: string) {
  const deposit = await client.tournaments.play.deposit({ params: { tournamentId }, body: { execute: true } });
  await client.tournaments.play.enter({ params: { tournamentId }, body: { depositTxHash: deposit.txHash as string } });
  return until(
    () => client.tournaments.play.myStatus({ params: { tournamentId }, query: {} }),
    (s) => s.hasEntry,
  );
}

describe('tournaments through the SDK', () => {
  it('bond → paid create → entries → group-stage picks → results → bracket → final → leaderboard and stats', async () => {
    const creator = await signedInClient(server, 'te_creator');
    const alice = await signedInClient(server, 'te_alice');
    const bob = await signedInClient(server, 'te_bob');

    const bond = await creator.client.tournaments.catalog.depositBond({ body: { execute: true } });
    expect(bond.bond).toMatchObject({ sufficient: true, deposited: (10n * UNIT).toString() });
    const flow = await creator.client.tournaments.catalog.createFlowEligibility({
      query: { stakeAsset: 'credits', stage1BuyinRaw: (10n * UNIT).toString(), minEntriesToActivate: 2 },
    });
    expect(flow).toMatchObject({ canProceed: true, reasons: [] });

    // Deposit first, for an id the client generates; then create with that deposit.
    const tournamentId = randomBytes(12).toString('hex');
    const deposit = await creator.client.tournaments.play.deposit({
      params: { tournamentId },
      body: { stakeAsset: 'credits', amount: (10n * UNIT).toString(), execute: true },
    });
    expect(deposit).toMatchObject({ tournamentExists: false, stageIndex: 1, executed: true });
    const created = await creator.client.tournaments.catalog.create({
      body: {
        name: 'SDK cup',
        stakeAsset: 'credits',
        format: 'GROUP_KNOCKOUT',
        clientTournamentId: tournamentId,
        creatorDepositTxHash: deposit.txHash as string,
        totalStages: 2,
        stages: [
          { stageIndex: 1, buyinUsdc: (10n * UNIT).toString(), isFinal: false, startTime: at(1), endTime: at(7) },
          { stageIndex: 2, buyinUsdc: '0', multiplier: 2, isFinal: true, startTime: at(7), endTime: at(15) },
        ],
        config: { minEntriesToActivate: 2 },
      },
    });
    expect(created.tournament).toMatchObject({
      id: tournamentId,
      status: 'LIVE',
      entryCount: 1,
      ownerWallet: creator.address,
    });

    expect((await enter(alice.client, tournamentId)).entry?.seed).toBe(2);
    expect((await enter(bob.client, tournamentId)).entry?.seed).toBe(3);

    const { stages } = await alice.client.tournaments.play.get({ params: { tournamentId } });
    const [group, final] = stages;
    if (!group || !final) throw new Error('two stages expected');
    const [f1, f2] = group.fixtures as unknown as [Fixture, Fixture];
    const [f3] = final.fixtures as unknown as [Fixture];
    const { right, wrong } = await picksFor([f1, f2, f3]);
    const pick = (client: DuelkitClient, stageId: string, f: Fixture, outcome: Outcome, stake: number) =>
      client.tournaments.play.createPick({
        params: { tournamentId, stageId },
        body: { fixtureId: f.id, outcome, stake },
      });
    await pick(alice.client, group.id, f1, right(f1), 500);
    await pick(alice.client, group.id, f2, right(f2), 500);
    await pick(bob.client, group.id, f1, wrong(f1), 800);

    await server.advanceTo(T0 + 7 * HOUR);
    const standings = await until(
      () => bob.client.tournaments.play.standings({ params: { tournamentId, stageId: group.id }, query: {} }),
      (s) => s.final,
    );
    expect(standings.standings.map((s) => [s.wallet, s.status])).toEqual([
      [alice.address, 'ADVANCED'],
      [creator.address, 'ADVANCED'],
      [bob.address, 'ELIMINATED'],
    ]);
    const groups = await bob.client.tournaments.play.groups({ params: { tournamentId, stageId: group.id } });
    expect(groups.groups.map((g) => g.members.map((m) => m.advancing))).toEqual([[true, true, false]]);
    const bracket = await bob.client.tournaments.play.bracket({ params: { tournamentId } });
    expect(bracket.rounds[0]?.matches[0]).toMatchObject({
      a: { wallet: alice.address, seed: 1 },
      b: { wallet: creator.address, seed: 2 },
      status: 'PENDING',
    });
    expect(await bob.client.tournaments.play.myStatus({ params: { tournamentId }, query: {} })).toMatchObject({
      eliminated: true,
      eliminatedAtStage: 1,
    });

    await pick(alice.client, final.id, f3, right(f3), 1_000);
    await pick(creator.client, final.id, f3, wrong(f3), 1_000);
    await server.advanceTo(T0 + 17 * HOUR);
    const done = await until(
      () => bob.client.tournaments.play.get({ params: { tournamentId } }),
      (d) => d.tournament.status === 'COMPLETED',
    );
    expect(done.tournament.championWallet).toBe(alice.address);

    const board = await bob.client.tournaments.play.leaderboard({ params: { tournamentId }, query: {} });
    expect(board.leaderboard.map((r) => [r.rank, r.username, r.status])).toEqual([
      [1, 'te_alice', 'CHAMPION'],
      [2, 'te_creator', 'ELIMINATED'],
      [3, 'te_bob', 'ELIMINATED'],
    ]);
    const stats = await bob.client.tournaments.catalog.userStats({ params: { address: alice.address } });
    expect(stats).toMatchObject({ tournamentsEntered: 1, wins: 1, stagesPlayed: 2, picks: { total: 3, open: 0 } });
    const creatorStats = await bob.client.tournaments.catalog.creatorStats({ params: { address: creator.address } });
    expect(creatorStats).toMatchObject({
      tournamentsCreated: 1,
      completed: 1,
      totalEntries: 3,
      bond: { locked: false },
    });
    const global = await bob.client.tournaments.catalog.globalLeaderboard({ query: {} });
    expect(global.leaderboard[0]).toMatchObject({ wallet: alice.address, wins: 1 });
    const pool = await bob.client.tournaments.play.prizePool({ params: { tournamentId } });
    expect(pool.total).toBe((30n * UNIT).toString());
  });
});
