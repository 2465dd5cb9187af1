import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CREATOR, HOUR, UNIT, actor } from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import { DomainError } from '../../errors.js';
import { PicksService } from './tournament-picks.service.js';

/** A LIVE one-stage tournament: Alice seated with 1000 chips, Bob entered but not seated, one fixture locking in an hour. */
function setup() {
  const mem = new TournamentWorld();
  const service = new PicksService(mem.db, mem.clock);
  const t = mem.liveFinal();
  const stage = mem.stage(t);
  const fixture = mem.fixture(stage);
  const alice = mem.entry(t, ALICE);
  mem.entry(t, BOB);
  mem.seat(stage, alice);
  return { mem, service, t, stage, fixture, alice };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => ({ code: 'ok' }),
    (e: unknown) => (e instanceof DomainError ? { code: e.code, details: e.details } : { code: String(e) }),
  );

describe('PicksService', () => {
  it('takes a pick at the fixture’s odds for its outcome and moves the stake out of the available chips', async () => {
    const { mem, service, t, stage, fixture, alice } = setup();
    const res = await service.create(actor(ALICE), t.id.toUpperCase(), stage.id, {
      fixtureId: fixture.id,
      outcome: 'AWAY',
      stake: 250,
    });
    expect(res.pick).toMatchObject({
      tournamentId: t.id,
      fixtureId: fixture.id,
      wallet: ALICE,
      outcome: 'AWAY',
      stake: 250,
      odds: '3.00',
      status: 'OPEN',
      createdAt: new Date(mem.clock.now()).toISOString(),
    });
    expect(res.chips).toEqual({ available: 750, stack: 1000 });
    expect(mem.seatOf(stage, alice)).toMatchObject({ available: 750, picks: 1 });
    expect(mem.tables.picks).toHaveLength(1);
  });

  it('refuses a stake above the available chips with INSUFFICIENT_CHIPS and both numbers', async () => {
    const { mem, service, t, stage, fixture, alice } = setup();
    expect(
      await refusal(
        service.create(actor(ALICE), t.id, stage.id, { fixtureId: fixture.id, outcome: 'HOME', stake: 1001 }),
      ),
    ).toEqual({ code: 'INSUFFICIENT_CHIPS', details: { available: 1000, stake: 1001 } });
    expect(mem.tables.picks).toEqual([]);
    expect(mem.seatOf(stage, alice)?.available).toBe(1000);
  });

  it('refuses a second pick on one fixture with ALREADY_PICKED', async () => {
    const { mem, service, t, stage, fixture } = setup();
    await service.create(actor(ALICE), t.id, stage.id, { fixtureId: fixture.id, outcome: 'HOME', stake: 100 });
    const again = service.create(actor(ALICE), t.id, stage.id, { fixtureId: fixture.id, outcome: 'DRAW', stake: 100 });
    expect((await refusal(again)).code).toBe('ALREADY_PICKED');
    expect(mem.tables.picks.map((p) => p.outcome)).toEqual(['HOME']);
  });

  it('refuses picks once the fixture has locked with PICK_LOCKED, its status and lock time', async () => {
    const { mem, service, t, stage, fixture } = setup();
    const other = mem.fixture(stage, { lockAt: new Date(mem.clock.now() + 30 * 60_000) });
    mem.clock.advance(30 * 60_000);
    expect(
      await refusal(service.create(actor(ALICE), t.id, stage.id, { fixtureId: other.id, outcome: 'HOME', stake: 1 })),
    ).toEqual({ code: 'PICK_LOCKED', details: { status: 'LOCKED', lockTime: other.lockAt.toISOString() } });
    // The stage's other fixture still takes picks.
    const ok = service.create(actor(ALICE), t.id, stage.id, { fixtureId: fixture.id, outcome: 'HOME', stake: 1 });
    expect((await refusal(ok)).code).toBe('ok');
  });

  it('refuses who may not pick: no entry, no seat in the stage', async () => {
    const { service, t, stage, fixture } = setup();
    const body = { fixtureId: fixture.id, outcome: 'HOME' as const, stake: 10 };
    expect((await refusal(service.create(actor(CREATOR), t.id, stage.id, body))).code).toBe('NOT_ENTERED');
    expect((await refusal(service.create(actor(BOB), t.id, stage.id, body))).code).toBe('ELIMINATED');
  });

  it('refuses picks outside the stage’s play: tournament not LIVE, stage completed, previous stage not done', async () => {
    const { mem, service, t, stage, fixture, alice } = setup();
    const body = { fixtureId: fixture.id, outcome: 'HOME' as const, stake: 10 };
    t.status = 'CANCELED';
    expect(await refusal(service.create(actor(ALICE), t.id, stage.id, body))).toEqual({
      code: 'STAGE_NOT_OPEN',
      details: { status: 'CANCELED' },
    });
    t.status = 'LIVE';
    stage.completedAt = new Date(mem.clock.now());
    expect(await refusal(service.create(actor(ALICE), t.id, stage.id, body))).toEqual({
      code: 'STAGE_NOT_OPEN',
      details: { status: 'COMPLETED' },
    });
    stage.completedAt = null;
    const next = mem.stage(t, { buyin: '0' });
    const later = mem.fixture(next);
    mem.seat(next, alice);
    expect(await refusal(service.create(actor(ALICE), t.id, next.id, { ...body, fixtureId: later.id }))).toEqual({
      code: 'STAGE_NOT_OPEN',
      details: { status: 'UPCOMING' },
    });
  });

  it('asks for a later stage’s buy-in before its first pick with STAGE_DEPOSIT_REQUIRED', async () => {
    const { mem, service, t, stage, alice } = setup();
    stage.completedAt = new Date(mem.clock.now());
    const next = mem.stage(t, { buyin: (2n * UNIT).toString(), lockAt: new Date(mem.clock.now() + 5 * HOUR) });
    next.lastLockAt = next.lockAt;
    const later = mem.fixture(next);
    mem.seat(next, alice);
    const body = { fixtureId: later.id, outcome: 'DRAW' as const, stake: 10 };
    expect(await refusal(service.create(actor(ALICE), t.id, next.id, body))).toEqual({
      code: 'STAGE_DEPOSIT_REQUIRED',
      details: { stageIndex: 2, buyin: (2n * UNIT).toString() },
    });
    mem.seatOf(next, alice)!.paidTxHash = `0x${'42'.repeat(32)}`;
    expect((await refusal(service.create(actor(ALICE), t.id, next.id, body))).code).toBe('ok');
  });

  it('answers NOT_FOUND for an unknown tournament, stage, or a fixture of another stage', async () => {
    const { mem, service, t, stage } = setup();
    const other = mem.stage(mem.liveFinal());
    const foreign = mem.fixture(other);
    const body = { fixtureId: foreign.id, outcome: 'HOME' as const, stake: 1 };
    expect((await refusal(service.create(actor(ALICE), 'ffffffffffffffffffffffff', stage.id, body))).code).toBe(
      'NOT_FOUND',
    );
    expect((await refusal(service.create(actor(ALICE), t.id, other.id, body))).code).toBe('NOT_FOUND');
    expect((await refusal(service.create(actor(ALICE), t.id, stage.id, body))).code).toBe('NOT_FOUND');
  });

  it('takes a pick back before the lock and returns its chips', async () => {
    const { mem, service, t, stage, fixture, alice } = setup();
    const { pick } = await service.create(actor(ALICE), t.id, stage.id, {
      fixtureId: fixture.id,
      outcome: 'HOME',
      stake: 300,
    });
    const res = await service.remove(actor(ALICE), t.id, pick.id);
    expect(res).toEqual({ deleted: true, pickId: pick.id, refunded: 300, chips: { available: 1000, stack: 1000 } });
    expect(mem.tables.picks).toEqual([]);
    expect(mem.seatOf(stage, alice)).toMatchObject({ available: 1000, picks: 0 });
  });

  it('refuses to take back a pick after the lock, one that is settled, or someone else’s', async () => {
    const { mem, service, t, stage, fixture } = setup();
    const { pick } = await service.create(actor(ALICE), t.id, stage.id, {
      fixtureId: fixture.id,
      outcome: 'HOME',
      stake: 300,
    });
    expect((await refusal(service.remove(actor(BOB), t.id, pick.id))).code).toBe('FORBIDDEN');
    expect((await refusal(service.remove(actor(ALICE), 'ffffffffffffffffffffffff', pick.id))).code).toBe('NOT_FOUND');
    mem.tables.picks[0]!.status = 'WON';
    expect(await refusal(service.remove(actor(ALICE), t.id, pick.id))).toEqual({
      code: 'PICK_LOCKED',
      details: { status: 'SCHEDULED' },
    });
    mem.tables.picks[0]!.status = 'OPEN';
    mem.clock.advance(HOUR);
    expect((await refusal(service.remove(actor(ALICE), t.id, pick.id))).code).toBe('PICK_LOCKED');
    expect(mem.tables.picks).toHaveLength(1);
  });

  it('lists a stage’s picks as of the clock: others’ are hidden until their fixture locks', async () => {
    const { mem, service, t, stage, fixture, alice } = setup();
    const bob = mem.tables.entries.find((e) => e.wallet === BOB)!;
    mem.seat(stage, bob);
    await service.create(actor(ALICE), t.id, stage.id, { fixtureId: fixture.id, outcome: 'HOME', stake: 10 });
    await service.create(actor(BOB), t.id, stage.id, { fixtureId: fixture.id, outcome: 'AWAY', stake: 20 });
    const q = { limit: 20, offset: 0 };
    const before = await service.list(t.id, stage.id, ALICE, q);
    expect(before).toMatchObject({ tournamentId: t.id, stageId: stage.id, total: 1, hidden: 1 });
    expect(before.picks.map((p) => p.wallet)).toEqual([alice.wallet]);
    mem.clock.advance(HOUR);
    const after = await service.list(t.id, stage.id, null, q);
    expect(after).toMatchObject({ total: 2, hidden: 0 });
  });
});
