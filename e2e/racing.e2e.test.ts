import { randomBytes } from 'node:crypto';
import { createWalletClient, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuelkitClient } from '@duelkit/sdk';
import { type ServerProcess, signedInClient, startServer, TOURNAMENT_ENV, UNIT, until } from './support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({
    JOBS_ENABLED: 'true',
    RACING_SWEEP_INTERVAL_MS: '300',
    ...TOURNAMENT_ENV,
  });
  // 08:00 UTC, before the simulator's season of the day begins (its sessions run 10:00–23:00 UTC),
  // so a tournament created now plays that whole season.
  const morning = Math.floor(server.now() / DAY) * DAY + 8 * HOUR;
  await server.advanceTo(morning >= server.now() ? morning : morning + DAY);
}, 120_000);
afterAll(() => server?.stop());

/** Ms since the epoch a session's or round's timestamp stands for. */
const ms = (t: string) => Date.parse(t);

async function enter(client: DuelkitClient, tournamentId: string) {
  const deposit = await client.tournaments.play.deposit({ params: { tournamentId }, body: { execute: true } });
  return client.tournaments.f1.enter({ params: { tournamentId }, body: { depositTxHash: deposit.txHash as string } });
}

describe('racing tournaments through the SDK', () => {
  it('create → three players enter → predict → one locks early → sessions run → leaderboards → season end → claim on chain', async () => {
    const creator = await signedInClient(server, 'rce_creator');
    const alice = await signedInClient(server, 'rce_alice');
    const bob = await signedInClient(server, 'rce_bob');
    const carol = await signedInClient(server, 'rce_carol');
    const f1 = (c: { client: DuelkitClient }) => c.client.tournaments.f1;

    await creator.client.tournaments.catalog.depositBond({ body: { execute: true } });
    const tournamentId = randomBytes(12).toString('hex');
    const buyin = (10n * UNIT).toString();
    const deposit = await creator.client.tournaments.play.deposit({
      params: { tournamentId },
      body: { execute: true, stakeAsset: 'credits', amount: buyin },
    });
    const created = await f1(creator).create({
      body: {
        name: 'SDK grid cup',
        stakeAsset: 'credits',
        buyinUsdc: buyin,
        clientTournamentId: tournamentId,
        creatorDepositTxHash: deposit.txHash as string,
        payoutBps: [7000, 3000],
      },
    });
    expect(created).toMatchObject({ id: tournamentId, gameType: 'F1_GRID_PREDICTOR', created: true, totalRounds: 3 });

    for (const p of [alice, bob, carol]) expect((await enter(p.client, tournamentId)).hasEntry).toBe(true);
    const { drivers } = await f1(alice).drivers({ params: { tournamentId } });
    expect(drivers).toHaveLength(20);

    const { rounds } = await f1(alice).rounds({ params: { tournamentId } });
    const round1 = rounds[0];
    const [qualifying, race] = round1?.events ?? [];
    if (!round1 || qualifying?.eventType !== 'QUALIFYING' || race?.eventType !== 'RACE') {
      throw new Error('a first weekend of qualifying and a race expected');
    }
    // How the simulator will classify both sessions (the operator's `sports:script`).
    const { events } = await server.sportsScript({ eventIds: [qualifying.id, race.id] });
    const q = events[0]?.order.slice(0, 5) ?? [];
    const backmarkers = events[0]?.order.slice(-5) ?? [];
    const r = events[1]?.order.slice(0, 10) ?? [];
    const predict = (p: { client: DuelkitClient }, eventId: number, driverIds: number[]) =>
      f1(p).predict({ params: { tournamentId, eventId }, body: { driverIds } });
    await predict(alice, qualifying.id, q);
    await predict(bob, qualifying.id, backmarkers);
    await predict(carol, qualifying.id, [...q].reverse());
    await predict(alice, race.id, r);
    await predict(bob, race.id, [...r].reverse());
    const locked = await f1(alice).lockMyPredictions({ params: { tournamentId, eventId: qualifying.id }, body: {} });
    expect(locked.prediction.lockedEarly).toBe(true);

    // Past the race of the first weekend: both sessions finish, the sweep job settles them.
    await server.advanceTo(Math.max(...round1.events.map((e) => ms(e.endTime))) + 60_000);
    const weekend = await until(
      () => f1(alice).weekendLeaderboard({ params: { tournamentId, roundId: round1.id } }),
      (w) => (w.rows[0]?.totalPoints ?? 0) > 21,
    );
    // Qualifying: Alice 5 exact × 3 + podium 3 = 18, +20% early lock = 21; Carol (reversed) 3 + 4 + 1 = 8; Bob 0.
    // Race: Alice 10 × 3 + 3 = 33; Bob (reversed top ten) ten right drivers in wrong places = 10.
    expect(weekend.rows.map((x) => [x.wallet, x.totalPoints])).toEqual([
      [alice.address, 54],
      [bob.address, 10],
      [carol.address, 8],
      [creator.address, 0],
    ]);
    const elo = await f1(alice).eloLeaderboard({ params: { tournamentId } });
    // After qualifying (K/(n−1) = 16): 1516, 1500, 1484; after the race Alice beats Bob with K = 32:
    // 32 × (1 − 1/(1 + 10^(−32/400))) = 14.53.
    expect(Object.fromEntries(elo.rows.map((x) => [x.wallet, x.eloRating]))).toEqual({
      [alice.address]: 1530.53,
      [carol.address]: 1500,
      [creator.address]: 1500,
      [bob.address]: 1469.47,
    });

    // The rest of the season runs without predictions; the season closes and the root is published.
    await server.advanceTo(Math.max(...rounds.flatMap((w) => w.events.map((e) => ms(e.endTime)))) + HOUR / 2);
    const payouts = await until(
      () => f1(alice).payouts({ params: { tournamentId } }),
      (p) => p.status === 'published',
      60_000,
    );
    const seasonBoard = await f1(alice).seasonLeaderboard({ params: { tournamentId }, query: {} });
    expect(seasonBoard.rows.map((x) => [x.rank, x.wallet, x.seasonPoints])).toEqual([
      [1, alice.address, 54],
      [2, bob.address, 10],
      [3, carol.address, 8],
      [4, creator.address, 0],
    ]);
    const distributable = BigInt(payouts.distributable);
    expect(BigInt(payouts.prizePool)).toBe(40n * UNIT);
    const second = (distributable * 3000n) / 10_000n;
    expect(payouts.payouts.map((p) => [p.wallet, p.amount])).toEqual([
      [alice.address, (distributable - second).toString()],
      [bob.address, second.toString()],
    ]);

    const proof = await f1(alice).claimProof({ params: { tournamentId }, query: {} });
    expect(proof).toMatchObject({ published: true, claimed: false, account: alice.address });
    const mine = await f1(alice).myPayout({ params: { tournamentId }, query: {} });
    expect(mine).toMatchObject({ placement: 1, claimable: true, amount: proof.amount });
    // Anyone with gas may send the vault's claim; the money goes to the leaf's account.
    const sender = privateKeyToAccount(generatePrivateKey());
    await server.fundGas(sender.address);
    const before = await server.balance(alice.address);
    const hash = await createWalletClient({ transport: http(server.rpcUrl), account: sender }).sendTransaction({
      to: proof.call.to as Address,
      data: proof.call.data as Hex,
      chain: null,
    });
    await server.chain.waitForTransactionReceipt({ hash });
    const confirmed = await alice.client.tournaments.payouts.confirmClaim({
      params: { tournamentId },
      body: { txHash: hash },
    });
    expect(confirmed).toMatchObject({ claimed: true, amount: proof.amount });
    expect((await server.balance(alice.address)) - before).toBe(BigInt(proof.amount));
    expect(await f1(alice).myPayout({ params: { tournamentId }, query: {} })).toMatchObject({ claimed: true });
  }, 180_000);
});
