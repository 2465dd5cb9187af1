import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { AdminActor } from './tournament-disputes.service.js';
import type { TournamentReadService } from './tournament-read.service.js';
import type { TournamentDb, TournamentRepos } from './tournament.repository.js';
import type { StageRow, TournamentRow, TournamentSettings } from './tournament.types.js';
import { CloseContext, FINAL_SCOPE, windowDto, type DisputeWindow } from './tournament-windows.js';

export interface Reason {
  readonly code: string;
  readonly message: string;
}

export interface StageGate {
  readonly stage: StageRow;
  readonly settled: boolean;
  readonly reasons: Reason[];
  readonly unresolvedMarkets: string[];
  readonly pendingDisputes: string[];
  readonly window: DisputeWindow;
}

/**
 * Stage settlement: a stage settles once every market has a settled result, its dispute window
 * has closed, no dispute of it is open and the stage before it has settled (`can-proceed`).
 * `settleReady` settles every such stage; `forceSettle` settles one whatever blocks it, with an
 * audit entry. Each settlement takes the tournament's row lock and is one row keyed by the stage,
 * so however many instances run it at once, a stage settles once.
 */
export class SettlementService {
  constructor(
    private readonly db: TournamentDb,
    private readonly reads: TournamentReadService,
    private readonly settings: TournamentSettings,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  private now(): Date {
    return new Date(this.clock.now());
  }

  /** What blocks a stage's settlement, read inside `r` (a transaction holding the lock, or plain reads). */
  async gate(r: TournamentRepos, ctx: CloseContext, stage: StageRow): Promise<StageGate> {
    const reasons: Reason[] = [];
    const settled = ctx.settlement(stage.id) !== undefined;
    const window = ctx.stageWindow(stage);
    if (ctx.t.status === 'CANCELED')
      reasons.push({ code: 'TOURNAMENT_CANCELED', message: 'The tournament is cancelled' });
    const previous = ctx.stages.find((s) => s.stageIndex === stage.stageIndex - 1);
    if (previous && !ctx.settlement(previous.id)) {
      reasons.push({
        code: 'PREVIOUS_STAGE_UNSETTLED',
        message: `Stage ${previous.stageIndex} has not settled`,
      });
    }
    const unresolvedMarkets = ctx
      .fixturesOf(stage.id)
      .filter((f) => !f.result || !f.settledAt)
      .map((f) => f.id);
    if (unresolvedMarkets.length) {
      reasons.push({
        code: 'MARKETS_UNRESOLVED',
        message: `${unresolvedMarkets.length} market(s) without a settled result`,
      });
    }
    if (!settled && window.status !== 'CLOSED' && unresolvedMarkets.length === 0) {
      reasons.push({
        code: 'DISPUTE_WINDOW_OPEN',
        message: `The dispute window closes at ${window.closesAt?.toISOString() ?? 'an unknown time'}`,
      });
    }
    const pendingDisputes = (await r.close.disputes({ stageId: stage.id, status: 'OPEN' })).map((d) => d.id);
    if (pendingDisputes.length) {
      reasons.push({ code: 'DISPUTES_PENDING', message: `${pendingDisputes.length} open dispute(s)` });
    }
    return { stage, settled, reasons: settled ? [] : reasons, unresolvedMarkets, pendingDisputes, window };
  }

  private async stageOf(stageId: string): Promise<{ t: TournamentRow; stage: StageRow }> {
    const tournamentId = await this.db.read.close.tournamentOfStage(stageId);
    if (!tournamentId) throw new DomainError('NOT_FOUND', `No stage ${stageId}`, { details: { stageId } });
    const t = await this.reads.tournament(tournamentId);
    const { stage } = await this.reads.stage(t, stageId);
    return { t, stage };
  }

  async canProceed(stageId: string) {
    const { t, stage } = await this.stageOf(stageId);
    const ctx = await CloseContext.load(this.db.read, t, this.now(), this.settings);
    const g = await this.gate(this.db.read, ctx, stage);
    const settlement = ctx.settlement(stage.id);
    return {
      tournamentId: t.id,
      stageId: stage.id,
      stageIndex: stage.stageIndex,
      canProceed: g.settled || g.reasons.length === 0,
      settled: g.settled,
      settledAt: settlement ? new Date(settlement.settledAt).toISOString() : null,
      reasons: g.reasons,
      unresolvedMarkets: g.unresolvedMarkets,
      pendingDisputes: g.pendingDisputes,
      window: windowDto(g.window),
    };
  }

  /** Settles every stage that can proceed; the automation's `settleReady` step. */
  async settleReady(now = this.now()): Promise<{ checked: number; settled: number; stageIds: string[] }> {
    const ids = await this.db.read.close.tournamentsWithSettleableStages(500);
    const stageIds: string[] = [];
    for (const id of ids) {
      try {
        stageIds.push(...(await this.settleTournament(id, now)));
      } catch (err) {
        this.logger.error({ err, tournamentId: id }, 'tournament settlement failed; retried on the next run');
      }
    }
    return { checked: ids.length, settled: stageIds.length, stageIds };
  }

  /** Settles, in order, the stages of one tournament that can proceed (a settled stage may free the next). */
  private settleTournament(tournamentId: string, now: Date): Promise<string[]> {
    return this.db.transaction(async (r) => {
      if (!(await r.tournaments.lock(tournamentId))) return [];
      const settled: string[] = [];
      for (;;) {
        const t = await r.tournaments.byId(tournamentId);
        if (!t) return settled;
        const ctx = await CloseContext.load(r, t, now, this.settings);
        let progressed = false;
        for (const stage of ctx.stages) {
          if (ctx.settlement(stage.id)) continue;
          const g = await this.gate(r, ctx, stage);
          if (g.reasons.length) break;
          const inserted = await r.close.insertSettlement({
            stageId: stage.id,
            tournamentId,
            mode: 'auto',
            actor: 'automation',
            reason: null,
            blockers: [],
            settledAt: now,
          });
          if (inserted) {
            settled.push(stage.id);
            progressed = true;
          }
          break;
        }
        if (!progressed) return settled;
      }
    });
  }

  async forceSettle(admin: AdminActor, stageId: string, reason: string) {
    const { t, stage } = await this.stageOf(stageId);
    const now = this.now();
    return this.db.transaction(async (r) => {
      await r.tournaments.lock(t.id);
      const current = (await r.tournaments.byId(t.id)) ?? t;
      if (current.status === 'CANCELED') {
        throw new DomainError('INVALID_STATE', `Tournament ${t.id} is cancelled: its stages do not settle`, {
          details: { tournamentId: t.id, status: current.status },
        });
      }
      const ctx = await CloseContext.load(r, current, now, this.settings);
      const existing = ctx.settlement(stage.id);
      if (existing) {
        throw new DomainError(
          'INVALID_STATE',
          `Stage ${stage.id} settled at ${new Date(existing.settledAt).toISOString()}`,
          {
            details: { stageId: stage.id, mode: existing.mode },
          },
        );
      }
      const g = await this.gate(r, ctx, stage);
      const rejected = await r.close.rejectOpenOfStage(stage.id, `stage force-settled: ${reason}`, admin.email, now);
      await r.close.insertSettlement({
        stageId: stage.id,
        tournamentId: t.id,
        mode: 'force',
        actor: admin.email,
        reason,
        blockers: g.reasons,
        settledAt: now,
      });
      await r.close.audit({
        tournamentId: t.id,
        stageId: stage.id,
        action: 'force-settle',
        actor: admin.email,
        reason,
        details: { overriddenBlockers: g.reasons, rejectedDisputes: rejected },
        at: now,
      });
      return {
        tournamentId: t.id,
        stageId: stage.id,
        stageIndex: stage.stageIndex,
        mode: 'force' as const,
        actor: admin.email,
        reason,
        settledAt: now.toISOString(),
        overriddenBlockers: g.reasons,
        rejectedDisputes: rejected,
      };
    });
  }

  /** Sets when a stage's window (and its markets') closes. */
  async setStageWindow(admin: AdminActor, stageId: string, body: { endsAt: string; reason?: string | undefined }) {
    const { t, stage } = await this.stageOf(stageId);
    const now = this.now();
    await this.db.transaction(async (r) => {
      await r.tournaments.lock(t.id);
      const current = (await r.tournaments.byId(t.id)) ?? t;
      const settled = (await r.close.settlements(t.id)).some((s) => s.stageId === stage.id);
      if (current.status === 'CANCELED' || settled) {
        throw new DomainError(
          'INVALID_STATE',
          settled ? `Stage ${stage.id} is settled: its window is closed for good` : `Tournament ${t.id} is cancelled`,
          { details: { stageId: stage.id, settled, status: current.status } },
        );
      }
      await r.close.setOverride({
        tournamentId: t.id,
        scope: stage.id,
        endsAt: new Date(body.endsAt),
        setBy: admin.email,
        setAt: now,
      });
      await r.close.audit({
        tournamentId: t.id,
        stageId: stage.id,
        action: 'stage-window-set',
        actor: admin.email,
        reason: body.reason ?? null,
        details: { endsAt: body.endsAt },
        at: now,
      });
    });
    const ctx = await CloseContext.load(this.db.read, await this.reads.tournament(t.id), this.now(), this.settings);
    const settlement = ctx.settlement(stage.id);
    return {
      tournamentId: t.id,
      stageId: stage.id,
      stageIndex: stage.stageIndex,
      settled: settlement !== undefined,
      settledAt: settlement ? new Date(settlement.settledAt).toISOString() : null,
      window: windowDto(ctx.stageWindow(stage)),
    };
  }

  /** Sets when the final window closes; refused once the payout table exists. */
  async setFinalWindow(
    admin: AdminActor,
    tournamentId: string,
    body: { endsAt: string; reason?: string | undefined },
    payoutBuilt: (t: TournamentRow) => Promise<boolean>,
  ) {
    const t = await this.reads.tournament(tournamentId);
    if (t.status === 'CANCELED' || (await payoutBuilt(t))) {
      throw new DomainError(
        'INVALID_STATE',
        t.status === 'CANCELED'
          ? `Tournament ${t.id} is cancelled`
          : `The payout table of ${t.id} is built: the final window is over`,
        { details: { tournamentId: t.id, status: t.status } },
      );
    }
    const now = this.now();
    await this.db.transaction(async (r) => {
      await r.tournaments.lock(t.id);
      await r.close.setOverride({
        tournamentId: t.id,
        scope: FINAL_SCOPE,
        endsAt: new Date(body.endsAt),
        setBy: admin.email,
        setAt: now,
      });
      await r.close.audit({
        tournamentId: t.id,
        stageId: null,
        action: 'final-window-set',
        actor: admin.email,
        reason: body.reason ?? null,
        details: { endsAt: body.endsAt },
        at: now,
      });
    });
    const ctx = await CloseContext.load(this.db.read, t, this.now(), this.settings);
    return { tournamentId: t.id, window: windowDto(ctx.finalWindow()) };
  }
}
