import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../logger.js';
import type { AutomationRunRow } from './tournament-close.repository.js';
import type { DisputeService } from './tournament-disputes.service.js';
import type { PayoutService } from './tournament-payouts.service.js';
import type { TournamentReadService } from './tournament-read.service.js';
import type { SettlementService } from './tournament-settlement.service.js';
import type { StandingsService } from './tournament-standings.service.js';
import type { TournamentDb } from './tournament.repository.js';
import type { TournamentSettings } from './tournament.types.js';
import { CloseContext } from './tournament-windows.js';

/** What a step did: counts, times, and the ids (or small records) it touched. */
export type StepSummary = Record<string, number | string | (string | Record<string, string | number>)[]>;

/** One idempotent step of the automation: running it twice in a row changes nothing the second time. */
export interface AutomationStep {
  readonly name: string;
  run(now: Date): Promise<StepSummary>;
}

/**
 * The deadline step (`process-timeouts`): tournaments past their first lock. The container wires
 * the implementation; `activationTimeouts` is the part every build has.
 */
export interface TimeoutsStep {
  run(now: Date): Promise<StepSummary>;
}

/**
 * Records the activation of tournaments whose first lock passed with enough entries (entries
 * close at that lock by themselves: the lock is a time, not a state to write).
 */
export function activationTimeouts(db: TournamentDb, standings: StandingsService): TimeoutsStep {
  return {
    async run(now) {
      const due = await db.read.tournaments.awaitingActivation(now, 100);
      for (const id of due) await standings.recompute(id);
      return { activated: due.length, tournamentIds: due };
    },
  };
}

function idsOf(value: StepSummary[string] | undefined): string[] {
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
}

function runDto(run: AutomationRunRow) {
  return {
    runId: run.id,
    trigger: run.trigger,
    startedAt: new Date(run.startedAt).toISOString(),
    finishedAt: run.finishedAt ? new Date(run.finishedAt).toISOString() : null,
    steps: run.steps as Record<string, StepSummary>,
  };
}

/**
 * The tournaments automation: a list of idempotent steps — process-timeouts, process-expired
 * (disputes past their deadline), settle-ready (stages that can proceed) — run in that order by
 * `automation/run` and by a repeating durable job. Every run is recorded with what each step did.
 */
export class AutomationService {
  readonly steps: readonly AutomationStep[];

  constructor(
    private readonly db: TournamentDb,
    private readonly reads: TournamentReadService,
    disputes: DisputeService,
    private readonly settlement: SettlementService,
    private readonly payouts: PayoutService,
    timeouts: TimeoutsStep,
    private readonly settings: TournamentSettings,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.steps = [
      { name: 'processTimeouts', run: (now) => timeouts.run(now) },
      { name: 'processExpired', run: (now) => disputes.processExpired(now) },
      { name: 'settleReady', run: (now) => settlement.settleReady(now) },
    ];
  }

  /** Runs `only` (a step's name) or every step, and records the run. */
  async run(trigger: string, only?: string) {
    const startedAt = new Date(this.clock.now());
    const id = await this.db.read.close.insertRun(trigger, startedAt);
    const steps: Record<string, StepSummary> = {};
    for (const step of this.steps) {
      if (only && step.name !== only) continue;
      try {
        steps[step.name] = await step.run(new Date(this.clock.now()));
      } catch (err) {
        // One failing step does not stop the others; the next run retries it.
        this.logger.error({ err, step: step.name }, 'tournament automation step failed');
        steps[step.name] = { failed: 1 };
      }
    }
    const finishedAt = new Date(this.clock.now());
    await this.db.read.close.finishRun(id, steps, finishedAt);
    return runDto({ id, trigger, steps, startedAt, finishedAt });
  }

  async settleReady() {
    const run = await this.run('settle-ready', 'settleReady');
    const s = run.steps['settleReady'] ?? {};
    return {
      checked: Number(s['checked'] ?? 0),
      settled: Number(s['settled'] ?? 0),
      stageIds: idsOf(s['stageIds']),
    };
  }

  async processExpired() {
    const run = await this.run('process-expired', 'processExpired');
    const s = run.steps['processExpired'] ?? {};
    return { expired: Number(s['expired'] ?? 0), disputeIds: idsOf(s['disputeIds']) };
  }

  /** The last run, a tournament's coming deadlines and what blocks it. */
  async status(tournamentId: string) {
    const t = await this.reads.tournament(tournamentId);
    const now = new Date(this.clock.now());
    const ctx = await CloseContext.load(this.db.read, t, now, this.settings);
    type Deadline = {
      kind: 'MARKET_LOCK' | 'RESULT_DUE' | 'DISPUTE_WINDOW_CLOSES' | 'DISPUTE_EXPIRES' | 'FINAL_WINDOW_CLOSES';
      at: Date;
      stageId: string | null;
      marketId: string | null;
      disputeId: string | null;
    };
    const deadlines: Deadline[] = [];
    const blockers: { stageId: string; stageIndex: number; reasons: { code: string; message: string }[] }[] = [];
    if (t.status !== 'CANCELED') {
      for (const f of ctx.fixtures) {
        const lock = new Date(f.lockAt);
        if (lock > now)
          deadlines.push({ kind: 'MARKET_LOCK', at: lock, stageId: f.stageId, marketId: f.id, disputeId: null });
        else if (!f.result) {
          deadlines.push({
            kind: 'RESULT_DUE',
            at: new Date(f.endsAt),
            stageId: f.stageId,
            marketId: f.id,
            disputeId: null,
          });
        }
      }
      for (const stage of ctx.stages) {
        const gate = await this.settlement.gate(this.db.read, ctx, stage);
        if (gate.settled) continue;
        if (gate.reasons.length)
          blockers.push({ stageId: stage.id, stageIndex: stage.stageIndex, reasons: gate.reasons });
        if (gate.window.status !== 'CLOSED' && gate.window.closesAt) {
          deadlines.push({
            kind: 'DISPUTE_WINDOW_CLOSES',
            at: gate.window.closesAt,
            stageId: stage.id,
            marketId: null,
            disputeId: null,
          });
        }
      }
      for (const d of await this.db.read.close.disputes({ tournamentId: t.id, status: 'OPEN' })) {
        deadlines.push({
          kind: 'DISPUTE_EXPIRES',
          at: new Date(d.expiresAt),
          stageId: d.stageId,
          marketId: d.fixtureId,
          disputeId: d.id,
        });
      }
      const final = ctx.finalWindow();
      if (final.status === 'OPEN' && final.closesAt) {
        deadlines.push({
          kind: 'FINAL_WINDOW_CLOSES',
          at: final.closesAt,
          stageId: null,
          marketId: null,
          disputeId: null,
        });
      }
    }
    const root = await this.payouts.payoutRoot(t.id);
    const last = await this.db.read.close.lastRun();
    return {
      tournamentId: t.id,
      status: t.status,
      lastRun: last ? runDto(last) : null,
      nextDeadlines: deadlines
        .sort((a, b) => a.at.getTime() - b.at.getTime())
        .slice(0, 20)
        .map((d) => ({ ...d, at: d.at.toISOString() })),
      blockers,
      payout: { ready: root.ready, reasons: root.reasons, rootStatus: root.status },
    };
  }
}
