import { getAddress, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  FakeMotorsportSeason,
  fakeClassification,
  fakeSeason,
} from '../../adapters/sports-provider/fake-motorsport.season.js';
import type { EventState, MotorsportPort } from '../../adapters/sports-provider/motorsport.port.js';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { Logger } from '../../logger.js';
import { ManualClock } from '../../platform/clock.js';
import type { DistributionBook } from '../../platform/merkle/distribution-book.js';
import { tournamentPoolId } from '../tournaments/vault-pools.js';
import { ELO_START, maxEventScore, seasonPayouts, SIDE_BET_POINTS } from './racing-scoring.math.js';
import { SeasonCatalog } from './racing-season.cache.js';
import { RacingSettlementService } from './racing-settlement.service.js';
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
const events = season.rounds.flatMap((r) => r.events);
const byEnd = [...events].sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime() || a.id - b.id);
const [q1, race1] = season.rounds[0]!.events;
const BEFORE = q1!.startsAt.getTime() - HOUR;
const AFTER_ALL = byEnd.at(-1)!.endsAt.getTime();
const ID = 'ab'.repeat(12);
const TREASURY = getAddress(`0x${'7e'.repeat(20)}`);
const wallet = (n: number): Address => getAddress(`0x${String(n).repeat(40).slice(0, 40)}`);
const [ALICE, BOB, CAROL] = [wallet(1), wallet(2), wallet(3)];
const top = (eventId: number, n: number) => fakeClassification(events.find((e) => e.id === eventId)!).order.slice(0, n);

/** The racing and tournament tables one racing tournament touches, in memory. */
class MemoryRacing {
  tournament = {
    id: ID,
    status: 'LIVE' as string,
    stakeAsset: 'credits',
    feeBps: 1_000,
    payoutBps: [6_000, 4_000],
    championWallet: null as string | null,
  };
  entries: { id: string; wallet: Address; seed: number }[] = [];
  deposits: { amount: string; refundedAt: Date | null }[] = [];
  placements = new Map<string, { placement: number; points: number; status: string }>();
  placementWrites = 0;
  predictions: PredictionRow[] = [];
  sideBets: SideBetRow[] = [];
  periodRows: PeriodRow[] = [];
  settledRows: SettledEventRow[] = [];
  scoreRows: EventScoreRow[] = [];
  elo: EloRow[] = [];
  paidAt: Date | null = null;
  completedAt: Date | null = null;

  enter(w: Address, deposit = 10n * U) {
    const seed = this.entries.length + 1;
    this.entries.push({ id: `entry-${seed}`, wallet: w, seed });
    this.deposits.push({ amount: deposit.toString(), refundedAt: null });
  }

  predict(eventId: number, w: Address, driverIds: number[], lockedEarly = false) {
    const event = events.find((e) => e.id === eventId)!;
    this.predictions.push({
      id: `p-${this.predictions.length}`,
      tournamentId: ID,
      eventId,
      roundId: event.roundId,
      wallet: w.toLowerCase(),
      driverIds,
      lockedEarlyAt: lockedEarly ? new Date(BEFORE) : null,
      createdAt: new Date(BEFORE),
      updatedAt: new Date(BEFORE),
    });
  }

  repos() {
    const racing = {
      open: () =>
        Promise.resolve(
          this.paidAt
            ? []
            : [{ tournamentId: ID, seasonId: SEASON, seasonName: season.name, completedAt: this.completedAt }],
        ),
      settled: () => Promise.resolve([...this.settledRows]),
      insertSettled: (s: Omit<SettledEventRow, 'seq'>) => {
        if (this.settledRows.some((x) => x.eventId === s.eventId)) return Promise.resolve(null);
        const seq = this.settledRows.length + 1;
        this.settledRows.push({ ...s, seq });
        return Promise.resolve(seq);
      },
      predictionsOfEvent: (_t: string, eventId: number) =>
        Promise.resolve(this.predictions.filter((p) => p.eventId === eventId)),
      insertScore: (_t: string, s: EventScoreRow) => Promise.resolve(void this.scoreRows.push(s)),
      scores: () => Promise.resolve([...this.scoreRows]),
      eloHistory: () => Promise.resolve([...this.elo]),
      insertElo: (_t: string, e: EloRow) => Promise.resolve(void this.elo.push(e)),
      sideBetsOfRound: (_t: string, roundId: number) =>
        Promise.resolve(this.sideBets.filter((b) => b.roundId === roundId)),
      setSideBetPoints: (id: string, points: number) => {
        const b = this.sideBets.find((x) => x.id === id);
        if (b) b.points = points;
        return Promise.resolve();
      },
      periods: () => Promise.resolve([...this.periodRows]),
      markCompleted: (_t: string, at: Date) => Promise.resolve(void (this.completedAt = at)),
      markPaid: (_t: string, at: Date) => Promise.resolve(void (this.paidAt = at)),
    };
    const tournaments = {
      lock: () => Promise.resolve(true),
      byId: () => Promise.resolve({ ...this.tournament }),
      entries: () => Promise.resolve([...this.entries]),
      setPlacement: (entryId: string, p: { placement: number; points: number; status: string }) => {
        this.placementWrites++;
        this.placements.set(entryId, { placement: p.placement, points: p.points, status: p.status });
        return Promise.resolve();
      },
      setCompleted: (_id: string, _at: Date, champion: string | null) => {
        this.tournament.status = 'COMPLETED';
        this.tournament.championWallet = champion;
        return Promise.resolve();
      },
    };
    const t = { tournaments, deposits: { deposits: () => Promise.resolve([...this.deposits]) } };
    return { racing, t };
  }

  db(): RacingDb {
    return {
      read: this.repos(),
      transaction: <T>(fn: (r: unknown) => Promise<T>) => fn(this.repos()),
    } as unknown as RacingDb;
  }
}

/** The payout book and the vault: what was recorded, published and released, each once per key. */
function payouts() {
  const recorded: { poolId: Hex; kind: string; entries: { account: string; amount: bigint }[] }[] = [];
  const vaultWrites: { what: string; key: string; amount: bigint; to?: string }[] = [];
  let published: Hex | null = null;
  let failRelease = false;
  const book = {
    record: (poolId: Hex, kind: string, _c: string, entries: { account: string; amount: bigint }[]) => {
      if (!recorded.length) recorded.push({ poolId, kind, entries });
      const total = recorded[0]!.entries.reduce((s, e) => s + e.amount, 0n);
      return Promise.resolve({
        id: 'd1',
        root: `0x${'12'.repeat(32)}`,
        total: total.toString(),
        publishTxHash: published,
      });
    },
    markPublished: (_d: unknown, tx: Hex) => Promise.resolve(void (published = tx)),
  } as unknown as DistributionBook;
  const vault = {
    setRoot: (_c: string, _p: Hex, _k: string, _root: Hex, total: bigint, w: { key: string }) => {
      vaultWrites.push({ what: 'setRoot', key: w.key, amount: total });
      return Promise.resolve<Hex>(`0x${'aa'.repeat(32)}`);
    },
    release: (_c: string, _p: Hex, to: Address, amount: bigint, _why: string, w: { key: string }) => {
      if (failRelease) return Promise.reject(new Error('rpc timeout'));
      vaultWrites.push({ what: 'release', key: w.key, amount, to });
      return Promise.resolve<Hex>(`0x${'bb'.repeat(32)}`);
    },
  } as unknown as PrizeVaultPort;
  return { book, vault, recorded, vaultWrites, failReleaseOnce: (v: boolean) => (failRelease = v) };
}

function setup(port?: (fake: FakeMotorsportSeason) => MotorsportPort) {
  const clock = new ManualClock(BEFORE);
  const store = new MemoryRacing();
  const money = payouts();
  const warnings: unknown[] = [];
  const fake = new FakeMotorsportSeason(clock);
  const service = new RacingSettlementService({
    db: store.db(),
    seasons: new SeasonCatalog(port ? port(fake) : fake, clock),
    vault: money.vault,
    book: money.book,
    treasury: TREASURY,
    clock,
    logger: { warn: (o: unknown) => void warnings.push(o) } as unknown as Logger,
  });
  return { clock, store, service, warnings, ...money };
}

/** A provider that still reports some sessions as running (or cancelled) after their scheduled end. */
const overriding = (states: Map<number, EventState>) => (fake: FakeMotorsportSeason) => ({
  currentSeasonId: (at: Date) => fake.currentSeasonId(at),
  season: (id: number) => fake.season(id),
  eventState: (id: number) => {
    const state = states.get(id);
    return state ? Promise.resolve(state) : fake.eventState(id);
  },
});

describe('RacingSettlementService', () => {
  it('settles nothing before a session has ended', async () => {
    const { clock, store, service } = setup();
    store.enter(ALICE);
    clock.advance(q1!.endsAt.getTime() - clock.now() - 1);
    expect(await service.sweep()).toEqual({ settledEvents: 0, completed: [] });
    expect(store.settledRows).toEqual([]);
  });

  it('scores each prediction of a finished session, the early-lock bonus included, once', async () => {
    const { clock, store, service } = setup();
    store.enter(ALICE);
    store.enter(BOB);
    const exact = top(q1!.id, 5);
    store.predict(q1!.id, ALICE, exact, true);
    store.predict(q1!.id, BOB, [...exact].reverse());
    clock.advance(q1!.endsAt.getTime() - clock.now());
    expect(await service.sweep()).toEqual({ settledEvents: 1, completed: [] });
    expect(store.settledRows).toMatchObject([
      {
        eventId: q1!.id,
        state: 'finished',
        seq: 1,
        settledAt: new Date(q1!.endsAt),
        classification: { order: fakeClassification(q1!).order },
      },
    ]);
    const alice = store.scoreRows.find((s) => s.wallet === ALICE)!;
    expect(alice).toMatchObject({ points: maxEventScore('QUALIFYING', true), exact: 5, podium: 3, bonus: 3 });
    expect(alice.points).toBe(21);
    // Reversed top 5: the middle driver in place, the other four in the top 5 elsewhere, one podium match.
    expect(store.scoreRows.find((s) => s.wallet === BOB)).toMatchObject({ exact: 1, inTopN: 4, podium: 1, points: 8 });
    expect(await service.sweep()).toEqual({ settledEvents: 0, completed: [] });
    expect(store.scoreRows).toHaveLength(2);
  });

  it('steps Elo ratings by the event’s scores from the starting rating, changes summing to zero', async () => {
    const { clock, store, service } = setup();
    for (const w of [ALICE, BOB, CAROL]) store.enter(w);
    const exact = top(q1!.id, 5);
    store.predict(q1!.id, ALICE, exact);
    store.predict(q1!.id, BOB, [...exact].reverse());
    store.predict(q1!.id, CAROL, [1, 2, 3, 4, 5]);
    clock.advance(q1!.endsAt.getTime() - clock.now());
    await service.sweep();
    const after = new Map(store.elo.map((e) => [e.wallet, e]));
    expect([...after.values()].every((e) => e.ratingBefore === ELO_START && e.seq === 1)).toBe(true);
    expect(after.get(ALICE)!.ratingAfter).toBeGreaterThan(after.get(BOB)!.ratingAfter);
    expect(after.get(BOB)!.ratingAfter).toBeGreaterThan(after.get(CAROL)!.ratingAfter);
    const drift = [...after.values()].reduce((s, e) => s + e.ratingAfter - e.ratingBefore, 0);
    expect(Math.abs(drift)).toBeLessThan(1e-9);
  });

  it('settles sessions in the order they end and stops at the first one the provider has not finished', async () => {
    const states = new Map<number, EventState>([[q1!.id, { state: 'running' }]]);
    const { clock, store, service } = setup(overriding(states));
    clock.advance(race1!.endsAt.getTime() - clock.now());
    expect((await service.sweep()).settledEvents).toBe(0);
    states.delete(q1!.id);
    expect((await service.sweep()).settledEvents).toBe(2);
    expect(store.settledRows.map((s) => [s.eventId, s.seq])).toEqual([
      [q1!.id, 1],
      [race1!.id, 2],
    ]);
  });

  it('records a cancelled session without scoring it', async () => {
    const states = new Map<number, EventState>([[q1!.id, { state: 'cancelled', reason: 'rain' }]]);
    const { clock, store, service } = setup(overriding(states));
    store.enter(ALICE);
    store.predict(q1!.id, ALICE, top(q1!.id, 5));
    clock.advance(q1!.endsAt.getTime() - clock.now());
    expect((await service.sweep()).settledEvents).toBe(1);
    expect(store.settledRows).toMatchObject([{ eventId: q1!.id, state: 'cancelled', classification: null }]);
    expect(store.scoreRows).toEqual([]);
    expect(store.elo).toEqual([]);
  });

  it('settles a weekend’s side bets on its race', async () => {
    const { clock, store, service } = setup();
    store.enter(ALICE);
    const result = fakeClassification(race1!);
    const bet = (id: string, prop: string, value: string): SideBetRow => ({
      id,
      tournamentId: ID,
      roundId: race1!.roundId,
      wallet: ALICE,
      prop,
      value,
      points: null,
      createdAt: new Date(BEFORE),
      updatedAt: new Date(BEFORE),
    });
    store.sideBets.push(
      bet('b1', 'SAFETY_CAR', String(result.safetyCar)),
      bet('b2', 'DNF_COUNT', String(result.dnfDriverIds.length + 1)),
    );
    clock.advance(q1!.endsAt.getTime() - clock.now());
    await service.sweep();
    expect(store.sideBets.map((b) => b.points)).toEqual([null, null]); // qualifying does not settle them
    clock.advance(race1!.endsAt.getTime() - clock.now());
    await service.sweep();
    expect(store.sideBets.map((b) => b.points)).toEqual([SIDE_BET_POINTS.SAFETY_CAR, 0]);
  });

  it('closes the season after its last session: places by points then seed, the payout root, the fee released', async () => {
    const { clock, store, service, recorded, vaultWrites } = setup();
    for (const w of [ALICE, BOB, CAROL]) store.enter(w);
    store.deposits.push({ amount: (5n * U).toString(), refundedAt: new Date(BEFORE) }); // refunded: not in the pool
    const exact = top(q1!.id, 5);
    store.predict(q1!.id, BOB, exact);
    store.predict(q1!.id, CAROL, [...exact].reverse());
    clock.advance(AFTER_ALL - clock.now());
    const res = await service.sweep();
    expect(res).toEqual({ settledEvents: events.length, completed: [ID] });
    // Bob's exact order (18) leads Carol's reversed one (8); Alice predicted nothing.
    expect([...store.placements.entries()]).toEqual([
      ['entry-2', { placement: 1, points: 18, status: 'CHAMPION' }],
      ['entry-3', { placement: 2, points: 8, status: 'ELIMINATED' }],
      ['entry-1', { placement: 3, points: 0, status: 'ELIMINATED' }],
    ]);
    expect(store.tournament).toMatchObject({ status: 'COMPLETED', championWallet: BOB });
    const pool = 30n * U;
    const fee = pool / 10n;
    expect(recorded).toEqual([
      {
        poolId: tournamentPoolId(ID),
        kind: 'payout',
        entries: seasonPayouts(pool - fee, [6_000, 4_000], [BOB, CAROL, ALICE]).map((l) => ({
          account: l.wallet,
          amount: l.amount,
        })),
      },
    ]);
    expect(recorded[0]!.entries.map((e) => e.amount)).toEqual([(27n * U * 6n) / 10n, (27n * U * 4n) / 10n]);
    expect(vaultWrites).toEqual([
      { what: 'setRoot', key: `racing:set-root:${ID}:payout`, amount: 27n * U },
      { what: 'release', key: `racing:fee:${ID}`, amount: fee, to: TREASURY },
    ]);
    expect(store.paidAt).toEqual(new Date(AFTER_ALL));
  });

  it('breaks ties by seed, and finishes a payout interrupted after the places were written without writing them or the root again', async () => {
    const { clock, store, service, vaultWrites, failReleaseOnce, warnings } = setup();
    store.enter(ALICE);
    store.enter(BOB);
    clock.advance(AFTER_ALL - clock.now());
    failReleaseOnce(true);
    expect(await service.sweep()).toMatchObject({ completed: [] });
    expect(warnings).toHaveLength(1);
    expect(store.paidAt).toBeNull();
    // Level on points: the earlier entry (lower seed) places first.
    expect(store.placements.get('entry-1')).toMatchObject({ placement: 1, status: 'CHAMPION' });
    expect(store.placements.get('entry-2')).toMatchObject({ placement: 2 });
    const writes = store.placementWrites;
    failReleaseOnce(false);
    expect(await service.sweep()).toMatchObject({ settledEvents: 0, completed: [ID] });
    expect(store.placementWrites).toBe(writes);
    expect(vaultWrites.map((w) => w.what)).toEqual(['setRoot', 'release']);
    expect(store.paidAt).not.toBeNull();
  });

  it('counts only the sessions of each entrant’s current period toward the season', async () => {
    const { clock, store, service } = setup();
    store.enter(ALICE);
    store.enter(BOB);
    const exact = top(q1!.id, 5);
    store.predict(q1!.id, ALICE, exact);
    store.predict(q1!.id, BOB, exact);
    // Bob re-entered after the first weekend: his qualifying score is from a past period.
    store.periodRows.push({
      tournamentId: ID,
      wallet: BOB.toLowerCase(),
      periodStart: season.rounds[1]!.events[0]!.startsAt,
      reentries: 1,
      lastDepositTxHash: '0x',
    });
    clock.advance(AFTER_ALL - clock.now());
    await service.sweep();
    expect(store.placements.get('entry-1')).toMatchObject({ placement: 1, points: 18 });
    expect(store.placements.get('entry-2')).toMatchObject({ placement: 2, points: 0 });
  });

  it('pays nothing without a pool, and does not close a cancelled tournament', async () => {
    const empty = setup();
    empty.clock.advance(AFTER_ALL - empty.clock.now());
    expect((await empty.service.sweep()).completed).toEqual([ID]);
    expect(empty.vaultWrites).toEqual([]);
    expect(empty.store.paidAt).not.toBeNull();

    const cancelled = setup();
    cancelled.store.enter(ALICE);
    cancelled.store.tournament.status = 'CANCELED';
    cancelled.clock.advance(AFTER_ALL - cancelled.clock.now());
    expect(await cancelled.service.sweep()).toEqual({ settledEvents: events.length, completed: [] });
    expect(cancelled.store.placements.size).toBe(0);
    expect(cancelled.vaultWrites).toEqual([]);
  });
});
