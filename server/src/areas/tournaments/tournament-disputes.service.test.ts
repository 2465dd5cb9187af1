import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { createLogger } from '../../logger.js';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import {
  HOUR,
  T0,
  TID,
  actorOf,
  at,
  codeOf,
  errorOf,
  tournamentSettings,
} from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import type { PickRow } from './tournament.types.js';
import { DisputeService } from './tournament-disputes.service.js';
import { TournamentReadService } from './tournament-read.service.js';
import type { StandingsService } from './tournament-standings.service.js';

const admin = { adminId: 'adm-1', email: 'ops@example.com' };
const alice = actorOf('b');
const bob = actorOf('c');
const stranger = actorOf('d');

/** Stage 1 (s-1): f1 HOME settled at +28 h (window to +52 h), f2 without a result; now +30 h. */
function setup() {
  const world = new TournamentWorld();
  const clock = new ManualClock(T0 + 30 * HOUR);
  const recomputed: string[] = [];
  const reads = new TournamentReadService(world.db, {} as never, {} as never, new PrizeVaultFake(), clock);
  const standings = {
    recomputeWithin: (_r: unknown, id: string) => Promise.resolve(void recomputed.push(id)),
  } as unknown as StandingsService;
  const service = new DisputeService(world.db, reads, standings, tournamentSettings(), clock, createLogger('silent'));
  world.addTournament();
  world.addStage(1);
  world.addStage(2, { isFinal: true });
  world.addFixture('f1', 's-1', { result: 'HOME', settledAt: at(28) });
  world.addFixture('f2', 's-1');
  world.addFixture('f3', 's-2');
  const a = world.addEntry(TID, alice);
  const b = world.addEntry(TID, bob);
  world.addSeat('s-1', a, { available: 500 });
  world.addSeat('s-1', b, { available: 800 });
  const pick = (id: string, entryId: string, outcome: PickRow['outcome'], status: PickRow['status'], payout: number) =>
    world.tables.picks.push({
      id,
      tournamentId: TID,
      stageId: 's-1',
      fixtureId: 'f1',
      entryId,
      wallet: alice.wallet,
      outcome,
      stake: 100,
      odds: 250,
      status,
      payout,
      createdAt: at(20),
      settledAt: at(28),
    });
  pick('p-a', a.id, 'HOME', 'WON', 250);
  pick('p-b', b.id, 'AWAY', 'LOST', 0);
  const file = (who = alice, marketId = 'f1', proposedResult?: 'HOME' | 'DRAW' | 'AWAY' | 'VOID') =>
    service.file(who, TID, marketId, undefined, { reason: 'the away side scored last', proposedResult });
  return { world, clock, service, file, recomputed, entries: { a, b } };
}

describe('DisputeService', () => {
  it('files an entrant’s dispute inside the market’s window, due for a decision 72 h after the window closes', async () => {
    const { file } = setup();
    const { dispute } = await file(alice, 'f1', 'AWAY');
    expect(dispute).toMatchObject({
      marketId: 'f1',
      stageId: 's-1',
      wallet: alice.wallet,
      status: 'OPEN',
      originalResult: 'HOME',
      proposedResult: 'AWAY',
      createdAt: at(30).toISOString(),
      expiresAt: at(52 + 72).toISOString(),
    });
  });

  it('refuses a second dispute of the same market by the same entrant with ALREADY_DISPUTED', async () => {
    const { world, file } = setup();
    const { dispute } = await file();
    const e = await errorOf(file());
    expect(e.code).toBe('ALREADY_DISPUTED');
    expect(e.details).toMatchObject({ disputeId: dispute.id });
    expect(await codeOf(file(bob))).toBe('ok');
    expect(world.tables.disputes).toHaveLength(2);
  });

  it('refuses non-entrants with NOT_ENTERED and markets of another stage with NOT_FOUND', async () => {
    const { service, file } = setup();
    expect(await codeOf(file(stranger))).toBe('NOT_ENTERED');
    expect(await codeOf(service.file(alice, TID, 'f1', 's-2', { reason: 'x' }))).toBe('NOT_FOUND');
    expect(await codeOf(file(alice, 'nope'))).toBe('NOT_FOUND');
  });

  it('refuses a market without a result, or of a cancelled tournament, with MARKET_NOT_DISPUTEABLE', async () => {
    const { world, file } = setup();
    expect((await errorOf(file(alice, 'f2'))).details).toMatchObject({ reason: 'no_result' });
    world.tables.tournaments[0]!.status = 'CANCELED';
    const e = await errorOf(file());
    expect([e.code, e.details?.['reason']]).toEqual(['MARKET_NOT_DISPUTEABLE', 'tournament_canceled']);
    expect(world.tables.disputes).toEqual([]);
  });

  it('refuses a dispute once the window has closed, or the stage has settled, with DISPUTE_WINDOW_CLOSED', async () => {
    const { world, clock, file } = setup();
    clock.advance(22 * HOUR - 1);
    expect(await codeOf(file(bob))).toBe('ok');
    clock.advance(1);
    const late = await errorOf(file());
    expect([late.code, late.details?.['closesAt']]).toEqual(['DISPUTE_WINDOW_CLOSED', at(52).toISOString()]);
    clock.advance(-HOUR);
    world.tables.settlements.push({
      stageId: 's-1',
      tournamentId: TID,
      mode: 'force',
      actor: 'ops',
      reason: null,
      blockers: [],
      settledAt: at(40),
    });
    expect((await errorOf(file())).details).toMatchObject({ stageSettled: true });
  });

  it('an admin’s past end for the stage closes its markets’ windows at once', async () => {
    const { world, service, file } = setup();
    world.tables.overrides.push({ tournamentId: TID, scope: 's-1', endsAt: at(29), setBy: 'ops', setAt: at(29) });
    const e = await errorOf(file());
    expect([e.code, e.details?.['closesAt']]).toEqual(['DISPUTE_WINDOW_CLOSED', at(29).toISOString()]);
    expect((await service.disputeableMarkets(TID, 's-1')).markets).toEqual([]);
  });

  it('upholding with another result corrects the market, resettles its picks by the difference and recomputes', async () => {
    const { world, service, file, recomputed } = setup();
    const { dispute } = await file(alice, 'f1', 'AWAY');
    const other = (await file(bob, 'f1', 'DRAW')).dispute;
    const res = await service.resolve(admin, dispute.id, { decision: 'UPHOLD', note: 'video' });
    expect(res).toMatchObject({
      changed: true,
      result: 'AWAY',
      dispute: { status: 'UPHELD', correctedResult: 'AWAY' },
    });
    expect(world.tables.fixtures[0]?.result).toBe('AWAY');
    expect(world.tables.picks.map((p) => [p.id, p.status, p.payout])).toEqual([
      ['p-a', 'LOST', 0],
      ['p-b', 'WON', 250],
    ]);
    expect(world.tables.seats.map((s) => s.available)).toEqual([500 - 250, 800 + 250]);
    expect(recomputed).toEqual([TID]);
    // Other disputes of the market stay for the admin to decide.
    expect(world.tables.disputes.find((d) => d.id === other.id)?.status).toBe('OPEN');
    expect(world.tables.audit).toMatchObject([
      { action: 'dispute-uphold', details: { from: 'HOME', to: 'AWAY', disputeId: dispute.id } },
    ]);
  });

  it('a void correction returns every stake', async () => {
    const { world, service, file } = setup();
    const { dispute } = await file();
    await service.resolve(admin, dispute.id, { decision: 'UPHOLD', correctedResult: 'VOID' });
    expect(world.tables.picks.map((p) => [p.status, p.payout])).toEqual([
      ['VOID', 100],
      ['VOID', 100],
    ]);
    expect(world.tables.seats.map((s) => s.available)).toEqual([500 - 150, 800 + 100]);
  });

  it('rejecting, or upholding the recorded result, changes no market and no chips', async () => {
    const { world, service, file, recomputed } = setup();
    const first = (await file(alice, 'f1', 'AWAY')).dispute;
    const second = (await file(bob, 'f1', 'HOME')).dispute;
    expect(await service.resolve(admin, first.id, { decision: 'REJECT', note: 'stands' })).toMatchObject({
      changed: false,
      result: 'HOME',
      dispute: { status: 'REJECTED', resolutionNote: 'stands', resolvedBy: 'ops@example.com' },
    });
    expect(await service.resolve(admin, second.id, { decision: 'UPHOLD' })).toMatchObject({ changed: false });
    expect(world.tables.fixtures[0]?.result).toBe('HOME');
    expect(world.tables.seats.map((s) => s.available)).toEqual([500, 800]);
    expect(recomputed).toEqual([]);
  });

  it('refuses to uphold without a result, to decide twice, and an unknown dispute', async () => {
    const { world, service, file } = setup();
    const { dispute } = await file();
    expect(await codeOf(service.resolve(admin, dispute.id, { decision: 'UPHOLD' }))).toBe('VALIDATION_FAILED');
    await service.resolve(admin, dispute.id, { decision: 'REJECT' });
    expect(await codeOf(service.resolve(admin, dispute.id, { decision: 'UPHOLD', correctedResult: 'AWAY' }))).toBe(
      'DISPUTE_CLOSED',
    );
    expect(await codeOf(service.resolve(admin, 'missing', { decision: 'REJECT' }))).toBe('NOT_FOUND');
    expect(world.tables.fixtures[0]?.result).toBe('HOME');
  });

  it('expires undecided disputes at their deadline, every one of them however many', async () => {
    const { world, clock, service, file } = setup();
    await file();
    for (let i = 0; i < 201; i++) {
      world.tables.disputes.push({ ...world.tables.disputes[0]!, id: `bulk-${i}`, expiresAt: at(100) });
    }
    expect(await service.processExpired()).toEqual({ expired: 0, disputeIds: [] });
    clock.advance(70 * HOUR);
    expect((await service.processExpired()).expired).toBe(201); // past one batch of 200
    clock.advance(24 * HOUR);
    expect(await service.processExpired()).toEqual({ expired: 1, disputeIds: [world.tables.disputes[0]?.id] });
    expect(world.tables.disputes.every((d) => d.status === 'EXPIRED')).toBe(true);
  });

  it('shows only markets whose window is open as disputeable', async () => {
    const { clock, service } = setup();
    const open = await service.disputeableMarkets(TID, 's-1');
    expect(open.markets.map((m) => m.marketId)).toEqual(['f1']);
    const windows = await service.windows(TID);
    expect(windows.stages[0]?.markets.map((m) => [m.marketId, m.window.status])).toEqual([
      ['f1', 'OPEN'],
      ['f2', 'PENDING'],
    ]);
    clock.advance(22 * HOUR);
    expect((await service.disputeableMarkets(TID, 's-1')).markets).toEqual([]);
  });

  it('lists disputes by tournament, market and stage, and refuses an unknown stage id', async () => {
    const { service, file } = setup();
    const { dispute } = await file();
    await file(bob);
    await service.resolve(admin, dispute.id, { decision: 'REJECT' });
    const page = { limit: 10, offset: 0 };
    expect((await service.ofTournament(TID, page, 'OPEN')).disputes.map((d) => d.wallet)).toEqual([bob.wallet]);
    expect((await service.ofMarket(TID, 'f1', page)).total).toBe(2);
    expect((await service.ofMarket(TID, 'f2', page)).total).toBe(0);
    expect((await service.ofStageId('s-1', page, 'REJECTED')).disputes.map((d) => d.id)).toEqual([dispute.id]);
    expect(await codeOf(service.ofStageId('s-9', page))).toBe('NOT_FOUND');
    expect(await codeOf(service.ofStage(TID, 's-9', page))).toBe('NOT_FOUND');
  });

  it('counts disputes by status for the admins', async () => {
    const { service, file } = setup();
    const { dispute } = await file();
    await file(bob);
    await service.resolve(admin, dispute.id, { decision: 'REJECT' });
    expect(await service.stats()).toEqual({
      total: 2,
      byStatus: { OPEN: 1, UPHELD: 0, REJECTED: 1, EXPIRED: 0 },
      tournamentsWithOpen: 1,
      oldestOpenAt: at(30).toISOString(),
    });
  });
});
