import { describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { FakeMotorsportSeason, fakeSeason } from '../../adapters/sports-provider/fake-motorsport.season.js';
import { ManualClock } from '../../platform/clock.js';
import { operationContext } from '../../platform/operation.context.js';
import { isDomainError } from '../../errors.js';
import type { Actor } from '../tournaments/tournament.types.js';
import type { PredictionRow, RacingDb, SideBetRow } from './racing.repository.js';
import { SeasonCatalog } from './racing-season.cache.js';
import { RacingService, type RacingServiceDeps } from './racing.service.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 11, 1, 8);
const SEASON = Math.floor(T0 / (24 * HOUR));
const season = fakeSeason(SEASON);
const q1 = season.rounds[0]!.events[0]!;
const r1 = season.rounds[0]!;
const ID = 'ab'.repeat(12);
const actor = (n: number): Actor => {
  const wallet: Address = `0x${String(n).repeat(40).slice(0, 40)}`;
  return { wallet, userId: null, builderAppId: null, senders: [wallet] };
};
const alice = actor(1);
const bob = actor(2);
const stranger = actor(3);

/** The racing tables in memory: what the prediction and side-bet rules read and write. */
function memoryDb(entrants: Address[]) {
  const predictions = new Map<string, PredictionRow>();
  const sideBets: SideBetRow[] = [];
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const racing = {
    racing: async () => ({ tournamentId: ID, seasonId: SEASON, seasonName: season.name, completedAt: null }),
    prediction: async (_t: string, id: string) => predictions.get(id) ?? null,
    predictionOf: async (_t: string, eventId: number, wallet: string) =>
      [...predictions.values()].find((p) => p.eventId === eventId && same(p.wallet, wallet)) ?? null,
    insertPrediction: async (p: Omit<PredictionRow, 'lockedEarlyAt'>) => {
      if ([...predictions.values()].some((x) => x.eventId === p.eventId && same(x.wallet, p.wallet))) return false;
      predictions.set(p.id, { ...p, lockedEarlyAt: null });
      return true;
    },
    updatePrediction: async (id: string, driverIds: number[], at: Date) => {
      const p = predictions.get(id);
      if (p) predictions.set(id, { ...p, driverIds: [...driverIds], updatedAt: at });
    },
    lockPrediction: async (id: string, at: Date) => {
      const p = predictions.get(id);
      if (p && !p.lockedEarlyAt) predictions.set(id, { ...p, lockedEarlyAt: at });
    },
    deletePrediction: async (id: string) => void predictions.delete(id),
    upsertSideBet: async (b: Omit<SideBetRow, 'points'>) => {
      const i = sideBets.findIndex((x) => x.roundId === b.roundId && same(x.wallet, b.wallet) && x.prop === b.prop);
      if (i >= 0) sideBets[i] = { ...(sideBets[i] as SideBetRow), value: b.value };
      else sideBets.push({ ...b, points: null });
    },
    sideBetsOfRound: async (_t: string, roundId: number) => sideBets.filter((b) => b.roundId === roundId),
  };
  const tournaments = {
    byId: async () => ({ id: ID, gameType: 'F1_GRID_PREDICTOR', status: 'LIVE' }),
    entryOf: async (_t: string, wallet: string) => (entrants.some((e) => same(e, wallet)) ? { wallet } : null),
  };
  return { db: { read: { racing, t: { tournaments } } } as unknown as RacingDb, predictions, sideBets };
}

function service(entrants: Address[] = [alice.wallet, bob.wallet]) {
  const clock = new ManualClock(T0);
  const store = memoryDb(entrants);
  const deps = {
    db: store.db,
    seasons: new SeasonCatalog(new FakeMotorsportSeason(clock), clock),
  } as unknown as RacingServiceDeps;
  // One operation per call, begun at the clock's now.
  const op = () => operationContext({ requestId: 'test', clock });
  return { svc: new RacingService(deps), clock, op, ...store };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  return isDomainError(err) ? err.code : `no domain error: ${String(err)}`;
}

const top5 = [101, 102, 103, 104, 105];

describe('predictions', () => {
  it('takes a valid order from an entrant, once per event', async () => {
    const { svc, op, predictions } = service();
    const p = await svc.predict(op(), alice, ID, q1.id, top5);
    expect(p).toMatchObject({ eventId: q1.id, roundId: r1.id, driverIds: top5, lockedEarly: false });
    expect(await svc.predict(op(), alice, ID, q1.id, top5)).toMatchObject({ id: p.id });
    expect(await codeOf(svc.predict(op(), alice, ID, q1.id, [105, 104, 103, 102, 101]))).toBe('ALREADY_PICKED');
    expect(predictions.size).toBe(1);
  });

  it('refuses each kind of bad order with its own code', async () => {
    const { svc, op } = service();
    expect(await codeOf(svc.predict(op(), alice, ID, q1.id, [101, 102, 103, 104]))).toBe('PREDICTION_WRONG_LENGTH');
    expect(await codeOf(svc.predict(op(), alice, ID, q1.id, [...top5, 106]))).toBe('PREDICTION_WRONG_LENGTH');
    expect(await codeOf(svc.predict(op(), alice, ID, q1.id, [101, 101, 103, 104, 105]))).toBe(
      'PREDICTION_DUPLICATE_DRIVER',
    );
    expect(await codeOf(svc.predict(op(), alice, ID, q1.id, [101, 102, 103, 104, 1]))).toBe(
      'PREDICTION_UNKNOWN_DRIVER',
    );
    expect(await codeOf(svc.predict(op(), stranger, ID, q1.id, top5))).toBe('NOT_ENTERED');
    expect(await codeOf(svc.predict(op(), alice, ID, 77, top5))).toBe('NOT_FOUND');
  });

  it('locks at the session start, answering the lock time', async () => {
    const { svc, clock, op } = service();
    const p = await svc.predict(op(), alice, ID, q1.id, top5);
    clock.advance(q1.startsAt.getTime() - clock.now() - 1);
    await svc.update(op(), alice, ID, p.id, [102, 101, 103, 104, 105]);
    clock.advance(1);
    const err = await svc.update(op(), alice, ID, p.id, top5).catch((e: unknown) => e);
    expect(isDomainError(err) && [err.code, err.details?.['lockTime']]).toEqual([
      'PREDICTION_LOCKED',
      q1.startsAt.toISOString(),
    ]);
    expect(await codeOf(svc.remove(op(), alice, ID, p.id))).toBe('PREDICTION_LOCKED');
    expect(await codeOf(svc.predict(op(), bob, ID, q1.id, top5))).toBe('PREDICTION_LOCKED');
    expect(await codeOf(svc.lockEarly(op(), alice, ID, q1.id))).toBe('PREDICTION_LOCKED');
  });

  it('lets only the owner edit or delete', async () => {
    const { svc, op, predictions } = service();
    const p = await svc.predict(op(), alice, ID, q1.id, top5);
    expect(await codeOf(svc.update(op(), bob, ID, p.id, top5))).toBe('FORBIDDEN');
    expect(await codeOf(svc.remove(op(), bob, ID, p.id))).toBe('FORBIDDEN');
    expect(await svc.remove(op(), alice, ID, p.id)).toMatchObject({ deleted: true });
    expect(predictions.size).toBe(0);
    expect(await codeOf(svc.remove(op(), alice, ID, p.id))).toBe('NOT_FOUND');
  });

  it('an early lock freezes the prediction and keeps its time', async () => {
    const { svc, clock, op } = service();
    const p = await svc.predict(op(), alice, ID, q1.id, top5);
    clock.advance(HOUR / 2);
    const locked = await svc.lockEarly(op(), alice, ID, q1.id);
    expect(locked).toMatchObject({ bonusPct: 20, lockTime: q1.startsAt.toISOString() });
    expect(locked.prediction.lockedEarlyAt).toBe(new Date(T0 + HOUR / 2).toISOString());
    clock.advance(HOUR / 4);
    expect((await svc.lockEarly(op(), alice, ID, q1.id)).prediction.lockedEarlyAt).toBe(
      new Date(T0 + HOUR / 2).toISOString(),
    );
    expect(await codeOf(svc.update(op(), alice, ID, p.id, [102, 101, 103, 104, 105]))).toBe('PREDICTION_LOCKED');
    expect(await codeOf(svc.lockEarly(op(), bob, ID, q1.id))).toBe('NOT_FOUND');
  });
});

describe('side bets', () => {
  it('replaces a prop’s bet, checks answers, and closes at the race start', async () => {
    const { svc, clock, op, sideBets } = service();
    await svc.sideBets(op(), alice, ID, r1.id, [{ prop: 'SAFETY_CAR', value: true }]);
    const again = await svc.sideBets(op(), alice, ID, r1.id, [
      { prop: 'SAFETY_CAR', value: false },
      { prop: 'FASTEST_LAP', driverId: 104 },
    ]);
    expect(again.sideBets.map((b) => [b.prop, b.value])).toEqual([
      ['SAFETY_CAR', 'false'],
      ['FASTEST_LAP', '104'],
    ]);
    expect(sideBets).toHaveLength(2);
    expect(await codeOf(svc.sideBets(op(), alice, ID, r1.id, [{ prop: 'DNF_COUNT' }]))).toBe('VALIDATION_FAILED');
    expect(await codeOf(svc.sideBets(op(), alice, ID, r1.id, [{ prop: 'FASTEST_LAP', driverId: 3 }]))).toBe(
      'PREDICTION_UNKNOWN_DRIVER',
    );
    expect(
      await codeOf(
        svc.sideBets(op(), alice, ID, r1.id, [
          { prop: 'DNF_COUNT', count: 1 },
          { prop: 'DNF_COUNT', count: 2 },
        ]),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(await codeOf(svc.sideBets(op(), stranger, ID, r1.id, [{ prop: 'DNF_COUNT', count: 1 }]))).toBe(
      'NOT_ENTERED',
    );
    // The qualifying has started; the race has not: still open.
    clock.advance(q1.endsAt.getTime() - clock.now());
    await svc.sideBets(op(), bob, ID, r1.id, [{ prop: 'DNF_COUNT', count: 2 }]);
    clock.advance(r1.events[1]!.startsAt.getTime() - clock.now());
    expect(await codeOf(svc.sideBets(op(), bob, ID, r1.id, [{ prop: 'DNF_COUNT', count: 3 }]))).toBe(
      'PREDICTION_LOCKED',
    );
  });
});
