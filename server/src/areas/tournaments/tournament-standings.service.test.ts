import { describe, expect, it } from 'vitest';
import { ALICE, BOB, HOUR } from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import type { Logger } from '../../logger.js';
import type { PickOutcome } from './tournament-format.js';
import { StandingsService } from './tournament-standings.service.js';
import type { EntryRow, StageRow } from './tournament.types.js';

/** A LIVE two-player knockout final with one fixture (home 2.00, away 3.00) kicking off in an hour. */
function setup() {
  const mem = new TournamentWorld();
  const logged: Record<string, unknown>[] = [];
  const logger = { error: (o: Record<string, unknown>) => void logged.push(o) } as unknown as Logger;
  const service = new StandingsService(mem.db, mem.clock, logger);
  const t = mem.liveFinal();
  const stage = mem.stage(t);
  const fixture = mem.fixture(stage);
  const alice = mem.entry(t, ALICE);
  const bob = mem.entry(t, BOB);
  return { mem, service, logged, t, stage, fixture, alice, bob };
}

let n = 0;
/** A pick as the picks service makes it: the stake leaves the available chips. */
function pick(
  mem: TournamentWorld,
  stage: StageRow,
  entry: EntryRow,
  fixtureId: string,
  outcome: PickOutcome,
  stake: number,
) {
  const odds = outcome === 'HOME' ? 200 : outcome === 'DRAW' ? 320 : 300;
  mem.tables.picks.push({
    id: `p-${++n}`,
    tournamentId: entry.tournamentId,
    stageId: stage.id,
    fixtureId,
    entryId: entry.id,
    wallet: entry.wallet,
    outcome,
    stake,
    odds,
    status: 'OPEN',
    payout: null,
    createdAt: new Date(mem.clock.now()),
    settledAt: null,
  });
  const seat = mem.seatOf(stage, entry)!;
  seat.available -= stake;
  seat.picks += 1;
}

/** Seats both players, has Alice back HOME with 100 and Bob AWAY with 300, and plays the fixture. */
async function played(result: 'HOME' | 'AWAY' | 'VOID') {
  const w = setup();
  await w.service.recompute(w.t.id);
  pick(w.mem, w.stage, w.alice, w.fixture.id, 'HOME', 100);
  pick(w.mem, w.stage, w.bob, w.fixture.id, 'AWAY', 300);
  w.mem.clock.advance(3 * HOUR);
  w.fixture.result = result;
  return w;
}

describe('StandingsService', () => {
  it('seats the players of a drawn stage with its chips and pairs them in a pending match', async () => {
    const { mem, service, t, stage, alice, bob } = setup();
    await service.recompute(t.id);
    expect(mem.tables.seats.map((s) => [s.entryId, s.available, s.stack, s.status])).toEqual([
      [alice.id, 1000, 1000, 'ALIVE'],
      [bob.id, 1000, 1000, 'ALIVE'],
    ]);
    expect(mem.tables.matches.get(stage.id)).toEqual([
      {
        stageId: stage.id,
        slot: 1,
        aEntryId: alice.id,
        aSeed: 1,
        bEntryId: bob.id,
        bSeed: 2,
        winnerEntryId: null,
        status: 'PENDING',
      },
    ]);
    expect(t.activatedAt).toBeNull();
    expect(mem.locks).toEqual([t.id]);
  });

  it('records the activation once the first lock has passed with enough entries, and not before', async () => {
    const { mem, service, t } = setup();
    mem.clock.advance(HOUR - 1);
    await service.recompute(t.id);
    expect(t.activatedAt).toBeNull();
    mem.clock.advance(1);
    await service.recompute(t.id);
    expect(t.activatedAt).toEqual(new Date(mem.clock.now()));

    const short = mem.liveFinal();
    mem.stage(short);
    mem.entry(short, ALICE);
    await service.recompute(short.id);
    expect(short.activatedAt).toBeNull();
  });

  it('settles a finished fixture’s picks: a win returns floor(stake × odds), a loss nothing; the final crowns its winner', async () => {
    const { mem, service, t, stage, fixture, alice, bob } = await played('AWAY');
    await service.settleFixture(fixture.id);
    const now = new Date(mem.clock.now());
    expect(mem.tables.picks.map((p) => [p.entryId, p.status, p.payout])).toEqual([
      [alice.id, 'LOST', 0],
      [bob.id, 'WON', 900],
    ]);
    expect(mem.seatOf(stage, alice)).toMatchObject({ available: 900, stack: 900, rank: 2, status: 'ELIMINATED' });
    expect(mem.seatOf(stage, bob)).toMatchObject({ available: 1600, stack: 1600, rank: 1, status: 'CHAMPION' });
    expect(fixture.settledAt).toEqual(now);
    expect(stage.completedAt).toEqual(now);
    expect(t).toMatchObject({ status: 'COMPLETED', completedAt: now, championWallet: BOB });
    expect(mem.tables.entries.map((e) => [e.wallet, e.placement, e.status])).toEqual([
      [ALICE, 2, 'ELIMINATED'],
      [BOB, 1, 'CHAMPION'],
    ]);
    expect(mem.tables.matches.get(stage.id)?.[0]).toMatchObject({ winnerEntryId: bob.id, status: 'DECIDED' });
  });

  it('settles each pick once: the same fixture delivered again moves no chips', async () => {
    const { mem, service, stage, fixture, bob, logged } = await played('HOME');
    await service.settleFixture(fixture.id);
    await service.settleFixture(fixture.id);
    expect(mem.seatOf(stage, bob)?.available).toBe(700);
    expect(mem.tables.picks.map((p) => p.payout)).toEqual([200, 0]);
    expect(logged).toEqual([]);
  });

  it('returns the stakes of a void fixture, and a level final goes to the better seed', async () => {
    const { mem, service, t, stage, fixture, alice, bob } = await played('VOID');
    await service.settleFixture(fixture.id);
    expect(mem.tables.picks.map((p) => [p.status, p.payout])).toEqual([
      ['VOID', 100],
      ['VOID', 300],
    ]);
    expect(mem.seatOf(stage, alice)?.available).toBe(1000);
    expect(mem.seatOf(stage, bob)?.available).toBe(1000);
    expect(t.championWallet).toBe(ALICE);
  });

  it('does nothing for a fixture without a result yet, or one it does not know', async () => {
    const { mem, service, fixture } = await played('HOME');
    fixture.result = null;
    await service.settleFixture(fixture.id);
    await service.settleFixture('f-unknown');
    expect(mem.tables.picks.every((p) => p.status === 'OPEN')).toBe(true);
    expect(fixture.settledAt).toBeNull();
  });

  it('leaves a cancelled tournament’s standings as they are', async () => {
    const { mem, service, t } = setup();
    t.status = 'CANCELED';
    await service.recompute(t.id);
    expect(mem.tables.seats).toEqual([]);
    expect(mem.tables.matches.size).toBe(0);
  });

  it('unseats a player who is no longer drawn (a withdrawal) and keeps the others', async () => {
    const { mem, service, t, stage, alice, bob } = setup();
    await service.recompute(t.id);
    mem.tables.entries.splice(mem.tables.entries.indexOf(bob), 1);
    await service.recompute(t.id);
    expect(mem.tables.seats.map((s) => s.entryId)).toEqual([alice.id]);
    expect(mem.tables.matches.get(stage.id)?.[0]).toMatchObject({ aEntryId: alice.id, bEntryId: null, status: 'BYE' });
  });

  it('keeps the stored chip balance and reports it when it differs from the recomputation', async () => {
    const { mem, service, t, stage, alice, logged } = setup();
    await service.recompute(t.id);
    mem.seatOf(stage, alice)!.available = 990;
    await service.recompute(t.id);
    expect(mem.seatOf(stage, alice)?.available).toBe(990);
    expect(logged).toEqual([{ tournamentId: t.id, stageId: stage.id, entryId: alice.id, stored: 990, computed: 1000 }]);
  });

  it('moves the champion of a completed tournament when a corrected result changes the final', async () => {
    const { service, t, fixture } = await played('AWAY');
    await service.settleFixture(fixture.id);
    expect(t.championWallet).toBe(BOB);
    fixture.result = 'HOME';
    await service.recompute(t.id);
    expect(t).toMatchObject({ status: 'COMPLETED', championWallet: ALICE });
  });
});
