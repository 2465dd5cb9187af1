import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { createLogger } from '../../logger.js';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import { HOUR, T0, TID, actorOf, at, codeOf, tournamentSettings } from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import type { DisputeRow } from './tournament-close.repository.js';
import { TournamentReadService } from './tournament-read.service.js';
import { SettlementService } from './tournament-settlement.service.js';

const admin = { adminId: 'adm-1', email: 'ops@example.com' };
const alice = actorOf('b');

/**
 * Stage 1 (s-1: f1, f2) has both results, settled at +28 h, so its window closes at +52 h;
 * stage 2 (s-2: f3) has none yet.
 */
function setup() {
  const world = new TournamentWorld();
  const clock = new ManualClock(T0 + 30 * HOUR);
  const settings = tournamentSettings();
  const reads = new TournamentReadService(world.db, {} as never, {} as never, new PrizeVaultFake(), clock);
  const service = new SettlementService(world.db, reads, settings, clock, createLogger('silent'));
  world.addTournament();
  world.addStage(1);
  world.addStage(2, { isFinal: true });
  world.addFixture('f1', 's-1', { result: 'HOME', settledAt: at(27) });
  world.addFixture('f2', 's-1', { result: 'DRAW', settledAt: at(28) });
  world.addFixture('f3', 's-2');
  const entry = world.addEntry(TID, alice);
  const dispute = (stageId: string, fixtureId: string): DisputeRow => {
    const d: DisputeRow = {
      id: `d-${world.tables.disputes.length + 1}`,
      tournamentId: TID,
      stageId,
      fixtureId,
      entryId: entry.id,
      wallet: alice.wallet,
      reason: 'wrong',
      proposedResult: null,
      status: 'OPEN',
      originalResult: 'HOME',
      correctedResult: null,
      resolutionNote: null,
      resolvedBy: null,
      createdAt: at(29),
      expiresAt: at(124),
      resolvedAt: null,
    };
    world.tables.disputes.push(d);
    return d;
  };
  /** Stage 2's only market gets its result at `hours`. */
  const resultStage2 = (hours: number) =>
    Object.assign(world.tables.fixtures[2]!, { result: 'AWAY', settledAt: at(hours) });
  return { world, clock, service, dispute, resultStage2 };
}

const codes = (g: { reasons: { code: string }[] }) => g.reasons.map((r) => r.code);

describe('SettlementService', () => {
  it('keeps a stage with every result open until its dispute window closes, then lets it proceed', async () => {
    const { clock, service } = setup();
    const open = await service.canProceed('s-1');
    expect(codes(open)).toEqual(['DISPUTE_WINDOW_OPEN']);
    expect(open).toMatchObject({ canProceed: false, window: { status: 'OPEN', closesAt: at(52).toISOString() } });
    clock.advance(22 * HOUR - 1);
    expect((await service.canProceed('s-1')).canProceed).toBe(false);
    clock.advance(1);
    expect(await service.canProceed('s-1')).toMatchObject({
      canProceed: true,
      reasons: [],
      window: { status: 'CLOSED' },
    });
  });

  it('blocks a stage on unresolved markets, open disputes, an unsettled previous stage and a cancellation', async () => {
    const { world, clock, service, dispute } = setup();
    clock.advance(100 * HOUR);
    const stage2 = await service.canProceed('s-2');
    expect(codes(stage2)).toEqual(['PREVIOUS_STAGE_UNSETTLED', 'MARKETS_UNRESOLVED']);
    expect(stage2.unresolvedMarkets).toEqual(['f3']);
    const d = dispute('s-1', 'f1');
    expect(await service.canProceed('s-1')).toMatchObject({
      reasons: [{ code: 'DISPUTES_PENDING' }],
      pendingDisputes: [d.id],
    });
    world.tables.tournaments[0]!.status = 'CANCELED';
    expect(codes(await service.canProceed('s-1'))).toEqual(['TOURNAMENT_CANCELED', 'DISPUTES_PENDING']);
    expect(await codeOf(service.canProceed('s-9'))).toBe('NOT_FOUND');
  });

  it('settles nothing while a window is open, then each ready stage once, freeing the next in the same run', async () => {
    const { world, clock, service, resultStage2 } = setup();
    expect(await service.settleReady()).toMatchObject({ settled: 0 });
    clock.advance(22 * HOUR);
    resultStage2(28); // its window closes at +52 h too, but it waits for stage 1
    expect(await service.settleReady()).toEqual({ checked: 1, settled: 2, stageIds: ['s-1', 's-2'] });
    expect(world.tables.settlements.map((s) => [s.stageId, s.mode, s.actor, s.settledAt])).toEqual([
      ['s-1', 'auto', 'automation', at(52)],
      ['s-2', 'auto', 'automation', at(52)],
    ]);
    expect(await service.settleReady()).toEqual({ checked: 0, settled: 0, stageIds: [] });
  });

  it('keeps settling other tournaments when one fails, and retries the failed one on the next run', async () => {
    const { world, clock, service } = setup();
    const other = 'cd'.repeat(12);
    world.addTournament({ id: other });
    world.addStage(1, { id: 'o-1', tournamentId: other });
    world.addFixture('o-f1', 'o-1', { tournamentId: other, result: 'HOME', settledAt: at(28) });
    const lock = world.repos.tournaments.lock.bind(world.repos.tournaments);
    world.repos.tournaments.lock = (id) => (id === TID ? Promise.reject(new Error('connection reset')) : lock(id));
    clock.advance(22 * HOUR);
    expect(await service.settleReady()).toEqual({ checked: 2, settled: 1, stageIds: ['o-1'] });
    world.repos.tournaments.lock = lock;
    expect(await service.settleReady()).toMatchObject({ checked: 1, stageIds: ['s-1'] });
  });

  it('does not settle a stage with an open dispute, nor the stages after it', async () => {
    const { world, clock, service, dispute, resultStage2 } = setup();
    dispute('s-1', 'f2');
    resultStage2(29);
    clock.advance(100 * HOUR);
    expect((await service.settleReady()).settled).toBe(0);
    expect(world.tables.settlements).toEqual([]);
  });

  it('force-settles over every blocker, rejecting the stage’s open disputes and auditing what it overrode', async () => {
    const { world, service, dispute } = setup();
    const d = dispute('s-1', 'f1');
    const res = await service.forceSettle(admin, 's-1', 'provider confirmed');
    expect(res).toMatchObject({
      mode: 'force',
      actor: 'ops@example.com',
      settledAt: at(30).toISOString(),
      rejectedDisputes: [d.id],
    });
    expect(res.overriddenBlockers.map((b) => b.code)).toEqual(['DISPUTE_WINDOW_OPEN', 'DISPUTES_PENDING']);
    expect(world.tables.disputes[0]).toMatchObject({ status: 'REJECTED', resolvedBy: 'ops@example.com' });
    expect(world.tables.settlements).toMatchObject([{ stageId: 's-1', mode: 'force', reason: 'provider confirmed' }]);
    expect(world.tables.audit).toMatchObject([{ action: 'force-settle', stageId: 's-1', actor: 'ops@example.com' }]);
    expect(await codeOf(service.forceSettle(admin, 's-1', 'again'))).toBe('INVALID_STATE');
    expect(world.tables.settlements).toHaveLength(1);
  });

  it('refuses to force-settle a stage of a cancelled tournament or an unknown stage', async () => {
    const { world, service } = setup();
    world.tables.tournaments[0]!.status = 'CANCELED';
    expect(await codeOf(service.forceSettle(admin, 's-1', 'x'))).toBe('INVALID_STATE');
    expect(await codeOf(service.forceSettle(admin, 'nope', 'x'))).toBe('NOT_FOUND');
    expect(world.tables.settlements).toEqual([]);
  });

  it('lets an admin close a stage’s window early, audited, and refuses once the stage settled', async () => {
    const { world, clock, service } = setup();
    const res = await service.setStageWindow(admin, 's-1', { endsAt: at(31).toISOString(), reason: 'quiet day' });
    expect(res.window).toMatchObject({ closesAt: at(31).toISOString(), overridden: true, status: 'OPEN' });
    expect(world.tables.audit).toMatchObject([{ action: 'stage-window-set', reason: 'quiet day' }]);
    clock.advance(HOUR);
    expect(await service.settleReady()).toMatchObject({ stageIds: ['s-1'] });
    expect(await codeOf(service.setStageWindow(admin, 's-1', { endsAt: at(90).toISOString() }))).toBe('INVALID_STATE');
    world.tables.tournaments[0]!.status = 'CANCELED';
    expect(await codeOf(service.setStageWindow(admin, 's-2', { endsAt: at(90).toISOString() }))).toBe('INVALID_STATE');
  });

  it('sets the final window until the payout table is built, and never for a cancelled tournament', async () => {
    const { world, service } = setup();
    const notBuilt = () => Promise.resolve(false);
    const res = await service.setFinalWindow(admin, TID, { endsAt: at(200).toISOString() }, notBuilt);
    // The final stage has not settled: the override waits for it.
    expect(res.window).toMatchObject({ status: 'PENDING', overridden: true, closesAt: at(200).toISOString() });
    expect(world.tables.overrides).toMatchObject([{ scope: 'final', setBy: 'ops@example.com' }]);
    expect(
      await codeOf(service.setFinalWindow(admin, TID, { endsAt: at(210).toISOString() }, () => Promise.resolve(true))),
    ).toBe('INVALID_STATE');
    world.tables.tournaments[0]!.status = 'CANCELED';
    expect(await codeOf(service.setFinalWindow(admin, TID, { endsAt: at(210).toISOString() }, notBuilt))).toBe(
      'INVALID_STATE',
    );
    expect(world.tables.overrides[0]?.endsAt).toEqual(at(200));
  });
});
