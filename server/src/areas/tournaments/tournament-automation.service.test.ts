import { describe, expect, it } from 'vitest';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import { ALICE, BOB, HOUR } from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { AutomationService, activationTimeouts, type StepSummary } from './tournament-automation.service.js';
import type { DisputeService } from './tournament-disputes.service.js';
import type { PayoutService } from './tournament-payouts.service.js';
import { TournamentReadService } from './tournament-read.service.js';
import type { Reason, SettlementService } from './tournament-settlement.service.js';
import { StandingsService } from './tournament-standings.service.js';
import type { BondService } from './tournament-bond.service.js';
import type { TournamentStatsQueries } from './tournament-stats.queries.js';
import type { CloseContext } from './tournament-windows.js';
import type { TournamentRepos } from './tournament.repository.js';
import type { StageRow, TournamentSettings } from './tournament.types.js';

const settings = { disputeWindowHours: 24, finalDisputeWindowHours: 48 } as TournamentSettings;

function setup() {
  const mem = new TournamentWorld();
  const errors: Record<string, unknown>[] = [];
  const logger = { error: (o: Record<string, unknown>) => void errors.push(o) } as unknown as Logger;
  const seen: [string, number][] = [];
  /** Each step notes the time it was given and takes a second of the clock. */
  const step =
    (name: string, summary: () => StepSummary) =>
    (now: Date): Promise<StepSummary> => {
      seen.push([name, now.getTime()]);
      mem.clock.advance(1_000);
      return Promise.resolve(summary());
    };
  const outcomes = {
    timeouts: (): StepSummary => ({ activated: 0, tournamentIds: [] }),
    expired: (): StepSummary => ({ expired: 2, disputeIds: ['d1', 'd2'] }),
    settle: (): StepSummary => ({ checked: 3, settled: 1, stageIds: ['s1', { odd: 'not an id' }] }),
  };
  const blockers = new Map<string, Reason[]>();
  const settlement = {
    settleReady: step('settleReady', () => outcomes.settle()),
    gate: (_r: TournamentRepos, ctx: CloseContext, stage: StageRow) =>
      Promise.resolve({
        settled: ctx.settlement(stage.id) !== undefined,
        reasons: blockers.get(stage.id) ?? [],
        window: ctx.stageWindow(stage),
      }),
  };
  const reads = new TournamentReadService(
    mem.db,
    {} as TournamentStatsQueries,
    {} as BondService,
    new PrizeVaultFake(),
    mem.clock,
  );
  const payouts = {
    payoutRoot: (id: string) =>
      Promise.resolve({
        tournamentId: id,
        status: 'none' as const,
        ready: false,
        reasons: [{ code: 'FINAL_UNSETTLED', message: 'the final has not settled' }],
      }),
  };
  const service = new AutomationService(
    mem.db,
    reads,
    { processExpired: step('processExpired', () => outcomes.expired()) } as unknown as DisputeService,
    settlement as unknown as SettlementService,
    payouts as unknown as PayoutService,
    { run: step('processTimeouts', () => outcomes.timeouts()) },
    settings,
    mem.clock,
    logger,
  );
  return { mem, service, seen, outcomes, blockers, errors };
}

describe('AutomationService', () => {
  it('runs timeouts, expired disputes and ready stages in that order, each at the clock’s time, and records the run', async () => {
    const { mem, service, seen } = setup();
    const t0 = mem.clock.now();
    const run = await service.run('manual');
    expect(seen).toEqual([
      ['processTimeouts', t0],
      ['processExpired', t0 + 1_000],
      ['settleReady', t0 + 2_000],
    ]);
    expect(run).toMatchObject({
      trigger: 'manual',
      startedAt: new Date(t0).toISOString(),
      finishedAt: new Date(t0 + 3_000).toISOString(),
      steps: { processExpired: { expired: 2, disputeIds: ['d1', 'd2'] } },
    });
    expect(mem.tables.runs).toEqual([
      { id: run.runId, trigger: 'manual', startedAt: new Date(t0), finishedAt: new Date(t0 + 3_000), steps: run.steps },
    ]);
  });

  it('records a failing step as failed and still runs the steps after it', async () => {
    const { service, outcomes, seen, errors } = setup();
    outcomes.expired = () => {
      throw new Error('database hiccup');
    };
    const run = await service.run('job');
    expect(run.steps).toEqual({
      processTimeouts: { activated: 0, tournamentIds: [] },
      processExpired: { failed: 1 },
      settleReady: { checked: 3, settled: 1, stageIds: ['s1', { odd: 'not an id' }] },
    });
    expect(seen.map(([name]) => name)).toEqual(['processTimeouts', 'processExpired', 'settleReady']);
    expect(errors).toMatchObject([{ step: 'processExpired' }]);
  });

  it('runs one step on its own and answers its counts, keeping only string ids', async () => {
    const { mem, service, seen, outcomes } = setup();
    expect(await service.settleReady()).toEqual({ checked: 3, settled: 1, stageIds: ['s1'] });
    expect(await service.processExpired()).toEqual({ expired: 2, disputeIds: ['d1', 'd2'] });
    expect(seen.map(([name]) => name)).toEqual(['settleReady', 'processExpired']);
    expect(mem.tables.runs.map((r) => r.trigger)).toEqual(['settle-ready', 'process-expired']);
    outcomes.settle = () => ({});
    expect(await service.settleReady()).toEqual({ checked: 0, settled: 0, stageIds: [] });
  });

  it('activates the tournaments past their first lock with enough entries, and only those', async () => {
    const { mem } = setup();
    const standings = new StandingsService(mem.db, mem.clock, {} as Logger);
    const full = mem.liveFinal();
    mem.stage(full);
    mem.entry(full, ALICE);
    mem.entry(full, BOB);
    const short = mem.liveFinal();
    mem.stage(short);
    mem.entry(short, ALICE);
    const step = activationTimeouts(mem.db, standings);
    expect(await step.run(new Date(mem.clock.now()))).toEqual({ activated: 0, tournamentIds: [] });
    mem.clock.advance(HOUR);
    expect(await step.run(new Date(mem.clock.now()))).toEqual({ activated: 1, tournamentIds: [full.id] });
    expect(full.activatedAt).toEqual(new Date(mem.clock.now()));
    expect(short.activatedAt).toBeNull();
    expect(await step.run(new Date(mem.clock.now()))).toEqual({ activated: 0, tournamentIds: [] });
  });

  it('lists a tournament’s coming deadlines in time order with what blocks each stage', async () => {
    const { mem, service, blockers } = setup();
    const now = mem.clock.now();
    const at = (h: number) => new Date(now + h * HOUR);
    const t = mem.liveFinal({ totalStages: 2, startsAt: at(-3) });
    const s1 = mem.stage(t, { lockAt: at(-3), lastLockAt: at(2) });
    const s2 = mem.stage(t, { lockAt: at(-3) });
    const due = mem.fixture(s1, { lockAt: at(-3), endsAt: at(-1) });
    const next = mem.fixture(s1, { lockAt: at(2), endsAt: at(4) });
    const settled = mem.fixture(s2, { lockAt: at(-3), endsAt: at(-2), result: 'HOME', settledAt: at(-2) });
    mem.tables.disputes.push(
      { ...dispute(t.id, s2.id, settled.id), id: 'd-open', status: 'OPEN', expiresAt: at(30) },
      { ...dispute(t.id, s2.id, settled.id), id: 'd-done', status: 'REJECTED', expiresAt: at(10) },
    );
    blockers.set(s1.id, [{ code: 'MARKETS_UNRESOLVED', message: 'two markets have no result' }]);
    blockers.set(s2.id, [{ code: 'PREVIOUS_STAGE_UNSETTLED', message: 'Stage 1 has not settled' }]);
    await service.run('manual');

    const status = await service.status(t.id.toUpperCase());
    expect(status.nextDeadlines.map((d) => [d.kind, d.at, d.disputeId ?? d.marketId ?? d.stageId])).toEqual([
      ['RESULT_DUE', at(-1).toISOString(), due.id],
      ['MARKET_LOCK', at(2).toISOString(), next.id],
      ['DISPUTE_WINDOW_CLOSES', at(22).toISOString(), s2.id],
      ['DISPUTE_EXPIRES', at(30).toISOString(), 'd-open'],
    ]);
    expect(status.blockers).toEqual([
      { stageId: s1.id, stageIndex: 1, reasons: blockers.get(s1.id) },
      { stageId: s2.id, stageIndex: 2, reasons: blockers.get(s2.id) },
    ]);
    expect(status.payout).toEqual({
      ready: false,
      reasons: [{ code: 'FINAL_UNSETTLED', message: 'the final has not settled' }],
      rootStatus: 'none',
    });
    expect(status.lastRun?.trigger).toBe('manual');
  });

  it('shows the final dispute window’s close once the final stage has settled, and no deadlines of a cancelled tournament', async () => {
    const { mem, service } = setup();
    const now = mem.clock.now();
    const t = mem.liveFinal({ startsAt: new Date(now - 5 * HOUR) });
    const final = mem.stage(t, { lockAt: new Date(now - 5 * HOUR) });
    mem.fixture(final, { lockAt: new Date(now - 5 * HOUR), result: 'AWAY', settledAt: new Date(now - 3 * HOUR) });
    mem.tables.settlements.push({
      stageId: final.id,
      tournamentId: t.id,
      mode: 'auto',
      actor: 'system',
      reason: null,
      blockers: [],
      settledAt: new Date(now - HOUR),
    });
    const status = await service.status(t.id);
    expect(status.blockers).toEqual([]);
    expect(status.nextDeadlines).toEqual([
      {
        kind: 'FINAL_WINDOW_CLOSES',
        at: new Date(now + 47 * HOUR).toISOString(),
        stageId: null,
        marketId: null,
        disputeId: null,
      },
    ]);
    expect(status.lastRun).toBeNull();

    t.status = 'CANCELED';
    const cancelled = await service.status(t.id);
    expect(cancelled).toMatchObject({ status: 'CANCELED', nextDeadlines: [], blockers: [] });
  });

  it('answers NOT_FOUND for the status of an unknown tournament', async () => {
    const { service } = setup();
    const err = await service.status('ffffffffffffffffffffffff').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('NOT_FOUND');
  });
});

function dispute(tournamentId: string, stageId: string, fixtureId: string) {
  return {
    tournamentId,
    stageId,
    fixtureId,
    entryId: 'e-1',
    wallet: ALICE,
    reason: 'wrong score',
    proposedResult: null,
    originalResult: 'HOME' as const,
    correctedResult: null,
    resolutionNote: null,
    resolvedBy: null,
    createdAt: new Date(0),
    resolvedAt: null,
  };
}
