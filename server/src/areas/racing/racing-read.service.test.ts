import { getAddress, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { FakeMotorsportSeason, fakeSeason } from '../../adapters/sports-provider/fake-motorsport.season.js';
import type { PrizeVaultPort, VaultClaim } from '../../adapters/chain/prize-vault.port.js';
import { claimCallOf } from '../../adapters/chain/viem-prize-vault.adapter.js';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../platform/clock.js';
import type { DistributionBook } from '../../platform/merkle/distribution-book.js';
import type { RacingService } from './racing.service.js';
import { SHORT_CACHE_MS, RacingReadService } from './racing-read.service.js';
import { SeasonCatalog } from './racing-season.cache.js';
import type {
  EloRow,
  EventScoreRow,
  PeriodRow,
  PredictionRow,
  RacingDb,
  SettledEventRow,
  SideBetRow,
} from './racing.repository.js';

const U = 10n ** 18n;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SEASON = Math.floor(Date.UTC(2026, 11, 1) / DAY);
const season = fakeSeason(SEASON);
const [round1, round2] = season.rounds;
const [q1, race1] = round1!.events;
const BEFORE = q1!.startsAt.getTime() - HOUR;
const ID = 'cd'.repeat(12);
const wallet = (n: number): Address => getAddress(`0x${String(n).repeat(40).slice(0, 40)}`);
const [ALICE, BOB, CAROL] = [wallet(1), wallet(2), wallet(3)];

function score(eventId: number, w: Address, points: number, exact = 0, podium = 0): EventScoreRow {
  const event = season.rounds.flatMap((r) => r.events).find((e) => e.id === eventId)!;
  return { eventId, roundId: event.roundId, wallet: w.toLowerCase(), points, exact, inTopN: 0, podium, bonus: 0 };
}

function prediction(eventId: number, w: Address, driverIds: number[], lockedEarly = false): PredictionRow {
  const event = season.rounds.flatMap((r) => r.events).find((e) => e.id === eventId)!;
  return {
    id: `p-${eventId}-${w}`,
    tournamentId: ID,
    eventId,
    roundId: event.roundId,
    wallet: w.toLowerCase(),
    driverIds,
    lockedEarlyAt: lockedEarly ? new Date(BEFORE) : null,
    createdAt: new Date(BEFORE),
    updatedAt: new Date(BEFORE),
  };
}

function sideBet(id: string, w: Address, prop: string, value: string, points: number | null = null): SideBetRow {
  return {
    id,
    tournamentId: ID,
    roundId: round1!.id,
    wallet: w.toLowerCase(),
    prop,
    value,
    points,
    createdAt: new Date(BEFORE),
    updatedAt: new Date(BEFORE),
  };
}

const finished = (eventId: number, order: number[], seq: number, dnf: number[] = []): SettledEventRow => ({
  tournamentId: ID,
  eventId,
  roundId: Math.floor(eventId / 10),
  seq,
  state: 'finished',
  classification: { order, fastestLapDriverId: order[0] ?? null, dnfDriverIds: dnf, safetyCar: true },
  settledAt: new Date(BEFORE),
});

/** What the racing reads find in the tables, counting the heatmap queries. */
class Tables {
  entries: { id: string; wallet: Address; seed: number; placement: number | null }[] = [];
  deposits: { amount: string; refundedAt: Date | null }[] = [];
  settled: SettledEventRow[] = [];
  scores: EventScoreRow[] = [];
  predictions: PredictionRow[] = [];
  sideBets: SideBetRow[] = [];
  elo: EloRow[] = [];
  periods: PeriodRow[] = [];
  names = new Map<string, string>();
  heatmapQueries = 0;
  heatCells: { position: number; driverId: number; count: number }[] = [];

  enter(...wallets: Address[]) {
    for (const w of wallets) {
      this.entries.push({
        id: `e${this.entries.length + 1}`,
        wallet: w,
        seed: this.entries.length + 1,
        placement: null,
      });
      this.deposits.push({ amount: (10n * U).toString(), refundedAt: null });
    }
  }

  db(): RacingDb {
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    const racing = {
      racing: () => Promise.resolve({ tournamentId: ID, seasonId: SEASON, seasonName: season.name, completedAt: null }),
      ids: () => Promise.resolve([ID]),
      settled: () => Promise.resolve([...this.settled]),
      scores: () => Promise.resolve([...this.scores]),
      periods: () => Promise.resolve([...this.periods]),
      period: (_t: string, w: string) => Promise.resolve(this.periods.find((p) => same(p.wallet, w)) ?? null),
      eloHistory: () => Promise.resolve([...this.elo]),
      sideBetsOfRound: (_t: string, roundId: number) =>
        Promise.resolve(this.sideBets.filter((b) => b.roundId === roundId)),
      sideBetsOfWallet: (_t: string, w: string) => Promise.resolve(this.sideBets.filter((b) => same(b.wallet, w))),
      predictionsOfEvent: (_t: string, eventId: number) =>
        Promise.resolve(this.predictions.filter((p) => p.eventId === eventId)),
      predictionsOfWallet: (_t: string, w: string) =>
        Promise.resolve(this.predictions.filter((p) => same(p.wallet, w))),
      predictionOf: (_t: string, eventId: number, w: string) =>
        Promise.resolve(this.predictions.find((p) => p.eventId === eventId && same(p.wallet, w)) ?? null),
      heatmap: () => {
        this.heatmapQueries++;
        return Promise.resolve([...this.heatCells]);
      },
      sideBetHeatmap: () => {
        this.heatmapQueries++;
        const counts = new Map<string, { prop: string; value: string; count: number }>();
        for (const b of this.sideBets) {
          const k = `${b.prop}:${b.value}`;
          counts.set(k, { prop: b.prop, value: b.value, count: (counts.get(k)?.count ?? 0) + 1 });
        }
        return Promise.resolve([...counts.values()]);
      },
      usernames: (wallets: readonly string[]) =>
        Promise.resolve(
          new Map(wallets.flatMap((w) => (this.names.has(w) ? [[w.toLowerCase(), this.names.get(w)!]] : []))),
        ),
    };
    const tournaments = {
      entries: () => Promise.resolve([...this.entries]),
      entryOf: (_t: string, w: string) => Promise.resolve(this.entries.find((e) => same(e.wallet, w)) ?? null),
      stages: () => Promise.resolve([{ buyin: (10n * U).toString() }]),
    };
    const read = { racing, t: { tournaments, deposits: { deposits: () => Promise.resolve([...this.deposits]) } } };
    return { read } as unknown as RacingDb;
  }
}

/** The payout book: no root until `built`, then its leaves and proofs. */
function payoutBook() {
  const state: {
    built: null | { status: 'built' | 'published'; leaves: { account: string; amount: bigint; claimed: boolean }[] };
  } = {
    built: null,
  };
  const root: Hex = `0x${'12'.repeat(32)}`;
  const book = {
    find: () => Promise.resolve(state.built && { id: 'd1', status: state.built.status, root }),
    leaves: () => Promise.resolve(state.built?.leaves ?? []),
    proof: (poolId: Hex, kind: string, account: string) => {
      const leaf = state.built?.leaves.find((l) => l.account.toLowerCase() === account.toLowerCase());
      return Promise.resolve(
        leaf && {
          kind,
          poolId,
          account: getAddress(leaf.account),
          amount: leaf.amount,
          proof: [],
          root,
          published: state.built?.status === 'published',
          claimed: leaf.claimed,
          claimTxHash: null,
        },
      );
    },
  } as unknown as DistributionBook;
  const claimedOnChain = new Set<string>();
  const vaultAddress = getAddress(`0x${'5a'.repeat(20)}`);
  const vault = {
    address: () => vaultAddress,
    claimCall: (_c: string, claim: VaultClaim) => claimCallOf(vaultAddress, claim),
    isClaimed: (_c: string, _p: Hex, _k: string, account: string) => Promise.resolve(claimedOnChain.has(account)),
  } as unknown as PrizeVaultPort;
  return { state, book, vault, claimedOnChain };
}

function setup() {
  const clock = new ManualClock(BEFORE);
  const tables = new Tables();
  const money = payoutBook();
  const seasons = new SeasonCatalog(new FakeMotorsportSeason(clock), clock);
  const tournament = {
    id: ID,
    name: 'Grid predictor',
    description: null,
    sport: 'F1',
    status: 'LIVE',
    stakeAsset: 'credits',
    entryCount: 3,
    prizePool: (30n * U).toString(),
    ownerWallet: ALICE.toLowerCase(),
    startsAt: new Date(BEFORE),
    endsAt: new Date(BEFORE + DAY),
    completedAt: null,
    minEntries: 2,
    maxEntrants: 100,
    feeBps: 1_000,
    payoutBps: [7_000, 3_000],
  };
  const racing = {
    load: async () => ({
      t: tournament,
      racing: { tournamentId: ID, seasonId: SEASON, seasonName: season.name, completedAt: null },
      season: await seasons.get(SEASON),
    }),
  } as unknown as RacingService;
  const service = new RacingReadService({
    db: tables.db(),
    seasons,
    racing,
    book: money.book,
    vault: money.vault,
    clock,
  });
  return { clock, tables, service, tournament, ...money };
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof DomainError ? e.code : String(e);
  }
}

describe('RacingReadService', () => {
  it('moves sessions from open to live at their lock time, and to finished or cancelled once settled', async () => {
    const { clock, tables, service } = setup();
    const statuses = async () => (await service.round(ID, round1!.id)).events.map((e) => e.status);
    expect(await statuses()).toEqual(['OPEN', 'OPEN']);
    expect((await service.round(ID, round1!.id)).status).toBe('UPCOMING');
    clock.advance(q1!.startsAt.getTime() - clock.now());
    expect(await statuses()).toEqual(['LIVE', 'OPEN']);
    expect((await service.round(ID, round1!.id)).status).toBe('LIVE');
    tables.settled.push(finished(q1!.id, [101], 1), {
      ...finished(race1!.id, [], 2),
      state: 'cancelled',
      classification: null,
    });
    expect(await statuses()).toEqual(['FINISHED', 'CANCELLED']);
    expect((await service.round(ID, round1!.id)).status).toBe('COMPLETED');
    expect(await refusal(service.round(ID, 999))).toBe('NOT_FOUND');
  });

  it('names the next session to lock and counts completed weekends', async () => {
    const { clock, tables, service } = setup();
    const first = await service.detail(ID);
    expect(first).toMatchObject({
      buyinUsdc: (10n * U).toString(),
      totalRounds: 3,
      roundsCompleted: 0,
      ownerWallet: ALICE,
      nextEvent: { eventId: q1!.id, roundId: round1!.id, gpName: round1!.gpName, lockTime: q1!.startsAt.toISOString() },
      scoring: { exact: 3, earlyLockBonusPct: 20, eloStart: 1500 },
    });
    clock.advance(race1!.startsAt.getTime() - clock.now());
    tables.settled.push(finished(q1!.id, [101], 1), finished(race1!.id, [101], 2));
    expect(await service.detail(ID)).toMatchObject({
      roundsCompleted: 1,
      nextEvent: { eventId: round2!.events[0]!.id, gpName: round2!.gpName },
    });
    clock.advance(DAY);
    expect((await service.detail(ID)).nextEvent).toBeNull();
  });

  it('decides each teammate head-to-head by the race, undecided before it', async () => {
    const { tables, service } = setup();
    expect((await service.matchups(ID, round1!.id)).matchups.every((m) => m.winnerDriverId === null)).toBe(true);
    // 102 ahead of 101 (team 11); 104 ahead of 103 (team 12).
    tables.settled.push(finished(race1!.id, [102, 104, 101, 103, ...Array.from({ length: 16 }, (_, i) => 105 + i)], 1));
    const res = await service.matchups(ID, round1!.id);
    expect(res.raceEventId).toBe(race1!.id);
    expect(res.matchups).toHaveLength(10);
    expect(res.matchups.slice(0, 2).map((m) => [m.teamId, m.driverA.id, m.driverB.id, m.winnerDriverId])).toEqual([
      [11, 101, 102, 102],
      [12, 103, 104, 104],
    ]);
  });

  it('shows a caller only their own side bets, with the count of everyone’s', async () => {
    const { clock, tables, service } = setup();
    tables.sideBets.push(sideBet('b1', ALICE, 'SAFETY_CAR', 'true'), sideBet('b2', BOB, 'DNF_COUNT', '2'));
    const mine = await service.sideBetsOfRound(ID, round1!.id, getAddress(ALICE.toLowerCase()));
    expect(mine).toMatchObject({ totalBets: 2, status: 'OPEN', lockTime: race1!.startsAt.toISOString() });
    expect(mine.mine.map((b) => b.id)).toEqual(['b1']);
    expect(mine.props.map((p) => [p.prop, p.points, p.answer])).toEqual([
      ['FASTEST_LAP', 5, 'driverId'],
      ['SAFETY_CAR', 2, 'value'],
      ['DNF_COUNT', 4, 'count'],
    ]);
    expect((await service.sideBetsOfRound(ID, round1!.id, null)).mine).toEqual([]);
    clock.advance(race1!.startsAt.getTime() - clock.now());
    expect((await service.sideBetsOfRound(ID, round1!.id, null)).status).toBe('LIVE');
  });

  it('gives heatmap shares to four decimals and reuses a heatmap for 15 seconds', async () => {
    const { clock, tables, service } = setup();
    tables.predictions.push(
      prediction(q1!.id, ALICE, [101, 102, 103, 104, 105]),
      prediction(q1!.id, BOB, [101, 103, 102, 104, 105]),
      prediction(q1!.id, CAROL, [102, 101, 103, 104, 105]),
    );
    tables.heatCells = [
      { position: 1, driverId: 101, count: 2 },
      { position: 1, driverId: 102, count: 1 },
    ];
    const map = await service.heatmap(ID, q1!.id);
    expect(map).toMatchObject({ predictions: 3, positions: 5, cachedForSeconds: 15 });
    expect(map.cells.map((c) => c.share)).toEqual([0.6667, 0.3333]);
    tables.heatCells = [];
    clock.advance(SHORT_CACHE_MS - 1);
    expect((await service.heatmap(ID, q1!.id)).cells).toHaveLength(2);
    expect(tables.heatmapQueries).toBe(1);
    clock.advance(1);
    expect((await service.heatmap(ID, q1!.id)).cells).toEqual([]);
    expect(tables.heatmapQueries).toBe(2);
    expect(await refusal(service.heatmap(ID, 1))).toBe('NOT_FOUND');
  });

  it('shares side-bet answers within each prop', async () => {
    const { tables, service } = setup();
    tables.sideBets.push(
      sideBet('b1', ALICE, 'SAFETY_CAR', 'true'),
      sideBet('b2', BOB, 'SAFETY_CAR', 'true'),
      sideBet('b3', CAROL, 'SAFETY_CAR', 'false'),
      sideBet('b4', CAROL, 'DNF_COUNT', '2'),
    );
    const map = await service.sideBetHeatmap(ID, round1!.id);
    expect(map.cells.map((c) => [c.prop, c.value, c.share])).toEqual([
      ['SAFETY_CAR', 'true', 0.6667],
      ['SAFETY_CAR', 'false', 0.3333],
      ['DNF_COUNT', '2', 1],
    ]);
  });

  it('answers a session’s classification with DNFs marked and scores best first, ties by wallet', async () => {
    const { tables, service } = setup();
    tables.settled.push(finished(race1!.id, [103, 101, 102], 1, [102]));
    tables.scores.push(
      score(race1!.id, CAROL, 7),
      score(race1!.id, BOB, 9),
      score(race1!.id, ALICE, 7),
      score(q1!.id, CAROL, 30),
    );
    const res = await service.results(ID, race1!.id);
    expect(res).toMatchObject({ status: 'FINISHED', fastestLapDriverId: 103, safetyCar: true });
    expect(res.classification.map((c) => [c.position, c.driverId, c.code, c.dnf])).toEqual([
      [1, 103, 'MAR', false],
      [2, 101, 'VAL', false],
      [3, 102, 'OKA', true],
    ]);
    expect(res.scores.map((s) => [s.wallet, s.points])).toEqual([
      [BOB, 9],
      [ALICE, 7],
      [CAROL, 7],
    ]);
    const pending = await service.results(ID, q1!.id);
    expect(pending).toMatchObject({ status: 'OPEN', classification: [], safetyCar: null });
  });

  it('sums up a session: favourite winner (ties to the lower id), average to cents, perfect picks, accuracy by place', async () => {
    const { tables, service } = setup();
    tables.settled.push(finished(q1!.id, [101, 102, 103, 104, 105], 1));
    tables.predictions.push(
      prediction(q1!.id, ALICE, [101, 102, 103, 104, 105], true),
      prediction(q1!.id, BOB, [102, 101, 103, 104, 105]),
      prediction(q1!.id, CAROL, [101, 103, 102, 105, 104]),
    );
    tables.scores.push(score(q1!.id, ALICE, 21, 5), score(q1!.id, BOB, 12, 3), score(q1!.id, CAROL, 9, 1));
    const res = await service.raceAnalytics(ID, q1!.id);
    expect(res).toMatchObject({
      predictions: 3,
      earlyLocks: 1,
      mostPickedWinner: { driverId: 101, count: 2 },
      actualWinnerDriverId: 101,
      averagePoints: 14,
      bestPoints: 21,
      bestWallet: ALICE,
      perfectPredictions: 1,
    });
    expect(res.positionAccuracy.map((p) => [p.correct, p.share])).toEqual([
      [2, 0.6667],
      [1, 0.3333],
      [2, 0.6667],
      [2, 0.6667],
      [2, 0.6667],
    ]);
    // One pick each for 101, 102 and 103: the lowest driver id is the favourite.
    tables.predictions.splice(2, 1, prediction(q1!.id, CAROL, [103, 101, 102, 104, 105]));
    tables.scores.splice(2, 1, score(q1!.id, CAROL, 10));
    const tied = await service.raceAnalytics(ID, q1!.id);
    expect(tied.mostPickedWinner).toEqual({ driverId: 101, count: 1 });
    expect(tied.averagePoints).toBe(14.33);
    const empty = await service.raceAnalytics(ID, race1!.id);
    expect(empty).toMatchObject({ mostPickedWinner: null, averagePoints: 0, positionAccuracy: [], bestWallet: null });
  });

  it('ranks the season by points then seed, paged, with Elo rounded to cents and names where known', async () => {
    const { tables, service } = setup();
    tables.enter(ALICE, BOB, CAROL);
    tables.scores.push(score(q1!.id, BOB, 12), score(q1!.id, CAROL, 5), score(race1!.id, CAROL, 7));
    tables.elo.push(
      { eventId: q1!.id, seq: 1, wallet: BOB.toLowerCase(), ratingBefore: 1500, ratingAfter: 1516.004 },
      { eventId: race1!.id, seq: 2, wallet: BOB.toLowerCase(), ratingBefore: 1516.004, ratingAfter: 1509.126 },
    );
    tables.names.set(BOB, 'bob');
    const page = await service.seasonLeaderboard(ID, 2, 0);
    expect(page.total).toBe(3);
    expect(page.rows).toEqual([
      { rank: 1, wallet: BOB, username: 'bob', seasonPoints: 12, eloRating: 1509.13, racesParticipated: 1 },
      { rank: 2, wallet: CAROL, username: null, seasonPoints: 12, eloRating: 1500, racesParticipated: 2 },
    ]);
    expect((await service.seasonLeaderboard(ID, 2, 2)).rows).toEqual([
      { rank: 3, wallet: ALICE, username: null, seasonPoints: 0, eloRating: 1500, racesParticipated: 0 },
    ]);
  });

  it('totals a weekend from its sessions and side bets, counting only the current period', async () => {
    const { tables, service } = setup();
    tables.enter(ALICE, BOB, CAROL);
    tables.scores.push(score(q1!.id, ALICE, 6), score(race1!.id, ALICE, 10), score(q1!.id, BOB, 20));
    tables.scores.push(score(race1!.id, CAROL, 30));
    tables.sideBets.push(sideBet('b3', CAROL, 'FASTEST_LAP', '101', 5));
    // Carol re-entered after this weekend: none of it counts for her current period.
    tables.periods.push({
      tournamentId: ID,
      wallet: CAROL.toLowerCase(),
      periodStart: round2!.events[0]!.startsAt,
      reentries: 1,
      lastDepositTxHash: '0x',
    });
    tables.scores.push(score(round2!.events[0]!.id, ALICE, 50)); // another weekend
    tables.sideBets.push(sideBet('b1', ALICE, 'SAFETY_CAR', 'true', 2), sideBet('b2', BOB, 'DNF_COUNT', '1', 4));
    // Bob re-entered at the race: his qualifying is from his past period, his side bets count.
    tables.periods.push({
      tournamentId: ID,
      wallet: BOB.toLowerCase(),
      periodStart: race1!.startsAt,
      reentries: 1,
      lastDepositTxHash: '0x',
    });
    const res = await service.weekendLeaderboard(ID, round1!.id);
    expect(res.rows).toEqual([
      { rank: 1, wallet: ALICE, username: null, totalPoints: 18, eventPoints: 16, sideBetPoints: 2 },
      { rank: 2, wallet: BOB, username: null, totalPoints: 4, eventPoints: 0, sideBetPoints: 4 },
      { rank: 3, wallet: CAROL, username: null, totalPoints: 0, eventPoints: 0, sideBetPoints: 0 },
    ]);
  });

  it('ranks Elo by the latest rating, unrated entrants at the start rating in entry order', async () => {
    const { tables, service } = setup();
    tables.enter(ALICE, BOB, CAROL);
    tables.elo.push({ eventId: q1!.id, seq: 1, wallet: CAROL.toLowerCase(), ratingBefore: 1500, ratingAfter: 1490.5 });
    const res = await service.eloLeaderboard(ID);
    expect(res.rows.map((r) => [r.rank, r.wallet, r.eloRating, r.eventsRated])).toEqual([
      [1, ALICE, 1500, 0],
      [2, BOB, 1500, 0],
      [3, CAROL, 1490.5, 1],
    ]);
  });

  it('answers one prediction with its points, or NOT_FOUND, and a wallet’s statistics', async () => {
    const { tables, service } = setup();
    tables.enter(ALICE, BOB);
    tables.predictions.push(
      prediction(q1!.id, ALICE, [101, 102, 103, 104, 105], true),
      prediction(race1!.id, ALICE, [101]),
    );
    tables.scores.push(score(q1!.id, ALICE, 21, 5, 3), score(q1!.id, BOB, 25, 5, 3));
    tables.periods.push({
      tournamentId: ID,
      wallet: ALICE.toLowerCase(),
      periodStart: new Date(BEFORE),
      reentries: 2,
      lastDepositTxHash: '0x',
    });
    expect(await service.predictionOf(ID, ALICE.toLowerCase(), q1!.id)).toMatchObject({
      wallet: ALICE,
      points: 21,
      lockedEarly: true,
    });
    expect(await service.predictionOf(ID, ALICE, race1!.id)).toMatchObject({ points: null });
    expect(await refusal(service.predictionOf(ID, BOB, q1!.id))).toBe('NOT_FOUND');
    expect(await service.stats(ID, ALICE.toLowerCase())).toEqual({
      wallet: ALICE,
      entered: true,
      rank: 2,
      seasonPoints: 21,
      eloRating: 1500,
      eventsPredicted: 2,
      eventsScored: 1,
      exactHits: 5,
      podiumHits: 3,
      bestEventPoints: 21,
      earlyLocks: 1,
      reentries: 2,
    });
    expect(await service.stats(ID, CAROL)).toMatchObject({ entered: false, rank: null, seasonPoints: 0 });
  });

  it('projects payouts from the standings before the season closes, net of the fee and refunds', async () => {
    const { tables, service } = setup();
    tables.enter(ALICE, BOB, CAROL);
    tables.deposits.push({ amount: (10n * U).toString(), refundedAt: new Date(BEFORE) });
    tables.scores.push(score(q1!.id, CAROL, 9), score(q1!.id, ALICE, 4));
    const res = await service.payouts(ID);
    expect(res).toMatchObject({
      status: 'projected',
      prizePool: (30n * U).toString(),
      fee: (3n * U).toString(),
      distributable: (27n * U).toString(),
      root: null,
    });
    expect(res.payouts).toEqual([
      { wallet: CAROL, placement: 1, amount: ((27n * U * 7n) / 10n).toString(), claimed: false },
      { wallet: ALICE, placement: 2, amount: ((27n * U * 3n) / 10n).toString(), claimed: false },
    ]);
    expect(await service.myPayout(ID, BOB)).toMatchObject({
      status: 'projected',
      placement: null,
      amount: '0',
      claimable: false,
    });
  });

  it('reads the recorded payout once built, claimable only once published and unclaimed', async () => {
    const { tables, service, state } = setup();
    tables.enter(ALICE, BOB);
    tables.entries[0]!.placement = 2;
    tables.entries[1]!.placement = 1;
    state.built = {
      status: 'built',
      leaves: [
        { account: ALICE.toLowerCase(), amount: 5n * U, claimed: false },
        { account: BOB.toLowerCase(), amount: 13n * U, claimed: false },
      ],
    };
    const built = await service.payouts(ID);
    expect(built).toMatchObject({ status: 'built', root: `0x${'12'.repeat(32)}` });
    expect(built.payouts.map((p) => [p.wallet, p.placement, p.amount])).toEqual([
      [BOB, 1, (13n * U).toString()],
      [ALICE, 2, (5n * U).toString()],
    ]);
    expect(await service.myPayout(ID, ALICE)).toMatchObject({
      status: 'built',
      amount: (5n * U).toString(),
      claimable: false,
    });
    state.built.status = 'published';
    expect(await service.myPayout(ID, ALICE)).toMatchObject({ placement: 2, claimable: true });
    state.built.leaves[0]!.claimed = true;
    expect(await service.myPayout(ID, ALICE)).toMatchObject({ claimed: true, claimable: false });
    expect(await refusal(service.myPayout(ID, null))).toBe('VALIDATION_FAILED');
  });

  it('gives a claim proof only once the root exists and only to a wallet with a line, claimed as the vault says', async () => {
    const { service, state, claimedOnChain } = setup();
    expect(await refusal(service.claimProof(ID, ALICE))).toBe('PAYOUT_NOT_READY');
    state.built = { status: 'published', leaves: [{ account: ALICE, amount: 5n * U, claimed: false }] };
    expect(await refusal(service.claimProof(ID, BOB))).toBe('NOT_FOUND');
    expect(await refusal(service.claimProof(ID, null))).toBe('VALIDATION_FAILED');
    const proof = await service.claimProof(ID, ALICE);
    expect(proof).toMatchObject({ account: ALICE, amount: (5n * U).toString(), published: true, claimed: false });
    claimedOnChain.add(ALICE);
    expect((await service.claimProof(ID, ALICE)).claimed).toBe(true);
  });

  it('reuses the external feed for 15 seconds, its leader first', async () => {
    const { clock, tables, service } = setup();
    tables.enter(ALICE, BOB);
    tables.scores.push(score(q1!.id, BOB, 3));
    const feed = await service.external(false, 10);
    expect(feed).toMatchObject({ cachedForSeconds: 15, generatedAt: new Date(BEFORE).toISOString() });
    expect(feed.tournaments[0]).toMatchObject({ id: ID, leader: { wallet: BOB, seasonPoints: 3 } });
    expect(feed.tournaments[0]).not.toHaveProperty('leaderboard');
    clock.advance(SHORT_CACHE_MS - 1);
    tables.scores.push(score(q1!.id, ALICE, 9));
    expect(await service.external(false, 10)).toBe(feed);
    clock.advance(1);
    const fresh = await service.external(false, 10);
    expect(fresh).not.toBe(feed);
    expect(fresh.tournaments[0]).toMatchObject({ leader: { wallet: ALICE, seasonPoints: 9 } });
    const full = await service.external(true, 10);
    expect(full.tournaments[0]).toMatchObject({ leaderboard: [{ wallet: ALICE }, { wallet: BOB }] });
    expect(full.tournaments[0]).toHaveProperty('rounds');
  });
  it('puts the live weekend on the dashboard, else the next one, with the top five and the viewer’s statistics', async () => {
    const { clock, tables, service } = setup();
    tables.enter(...[1, 2, 3, 4, 5, 6].map(wallet));
    tables.scores.push(score(q1!.id, wallet(6), 9));
    const before = await service.dashboard(ID, null);
    expect(before.currentRound).toMatchObject({ id: round1!.id, status: 'UPCOMING' });
    expect(before.leaders.map((l) => l.wallet)).toEqual([wallet(6), ...[1, 2, 3, 4].map(wallet)]);
    expect(before.me).toBeNull();
    expect(before.tournament).toMatchObject({ buyinUsdc: (10n * U).toString(), totalRounds: 3 });
    tables.settled.push(finished(q1!.id, [101], 1), finished(race1!.id, [101], 2));
    clock.advance(round2!.events[0]!.startsAt.getTime() - clock.now());
    const live = await service.dashboard(ID, wallet(6));
    expect(live.currentRound).toMatchObject({ id: round2!.id, status: 'LIVE' });
    expect(live.me).toMatchObject({ wallet: wallet(6), rank: 1, seasonPoints: 9 });
    expect((await service.rounds(ID)).rounds.map((r) => r.status)).toEqual(['COMPLETED', 'LIVE', 'UPCOMING']);
    expect((await service.drivers(ID)).drivers).toHaveLength(20);
  });
});
