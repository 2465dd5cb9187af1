import { getAddress } from 'viem';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { DisputeFilter, DisputeRow, DisputeStatus } from './tournament-close.repository.js';
import { pickReturn, type FixtureResult } from './tournament-format.js';
import type { TournamentReadService } from './tournament-read.service.js';
import type { TournamentDb } from './tournament.repository.js';
import type { StandingsService } from './tournament-standings.service.js';
import type { Actor, FixtureRow, TournamentRow, TournamentSettings } from './tournament.types.js';
import { CloseContext, windowDto } from './tournament-windows.js';

/** An admin acting on the tournaments host, as the audit records them. */
export interface AdminActor {
  readonly adminId: string;
  readonly email: string;
}

const HOUR = 3_600_000;

export function toDisputeDto(d: DisputeRow) {
  return {
    id: d.id,
    tournamentId: d.tournamentId,
    stageId: d.stageId,
    marketId: d.fixtureId,
    wallet: getAddress(d.wallet),
    reason: d.reason,
    proposedResult: d.proposedResult,
    status: d.status,
    originalResult: d.originalResult,
    correctedResult: d.correctedResult,
    resolutionNote: d.resolutionNote,
    resolvedBy: d.resolvedBy,
    createdAt: new Date(d.createdAt).toISOString(),
    expiresAt: new Date(d.expiresAt).toISOString(),
    resolvedAt: d.resolvedAt ? new Date(d.resolvedAt).toISOString() : null,
  };
}

/**
 * Disputes of market results: entrants file them inside a market's window; admins uphold them
 * with a corrected result (the fixture's picks settle again and the tournament recomputes from
 * its facts) or reject them; undecided ones expire. Filing and deciding take the tournament's row
 * lock, the same lock a stage's settlement takes, so a dispute never slips past a settlement.
 */
export class DisputeService {
  constructor(
    private readonly db: TournamentDb,
    private readonly reads: TournamentReadService,
    private readonly standings: StandingsService,
    private readonly settings: TournamentSettings,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  private now(): Date {
    return new Date(this.clock.now());
  }

  private context(t: TournamentRow): Promise<CloseContext> {
    return CloseContext.load(this.db.read, t, this.now(), this.settings);
  }

  private async market(t: TournamentRow, marketId: string, stageId?: string): Promise<FixtureRow> {
    if (stageId) await this.reads.stage(t, stageId);
    const f = await this.db.read.tournaments.fixture(marketId);
    if (!f || f.tournamentId !== t.id || (stageId !== undefined && f.stageId !== stageId)) {
      throw new DomainError(
        'NOT_FOUND',
        `No market ${marketId} in ${stageId ? `stage ${stageId}` : `tournament ${t.id}`}`,
        {
          details: { tournamentId: t.id, marketId, ...(stageId ? { stageId } : {}) },
        },
      );
    }
    return f;
  }

  private marketView(ctx: CloseContext, f: FixtureRow) {
    const window = ctx.marketWindow(f);
    return {
      marketId: f.id,
      stageId: f.stageId,
      title: f.title,
      result: f.settledAt ? f.result : null,
      disputeable: ctx.t.status !== 'CANCELED' && window.status === 'OPEN',
      window: windowDto(window),
    };
  }

  async windows(tournamentId: string) {
    const t = await this.reads.tournament(tournamentId);
    const ctx = await this.context(t);
    return {
      tournamentId: t.id,
      defaults: {
        marketHours: this.settings.disputeWindowHours,
        finalHours: this.settings.finalDisputeWindowHours,
        resolveHours: this.settings.disputeResolveHours,
      },
      stages: ctx.stages.map((s) => ({
        ...this.stageView(ctx, s.id),
        markets: ctx.fixturesOf(s.id).map((f) => this.marketView(ctx, f)),
      })),
      final: windowDto(ctx.finalWindow()),
    };
  }

  private stageView(ctx: CloseContext, stageId: string) {
    const stage = ctx.stage(stageId);
    if (!stage) throw new DomainError('NOT_FOUND', `No stage ${stageId}`);
    const settlement = ctx.settlement(stageId);
    return {
      stageId,
      stageIndex: stage.stageIndex,
      settled: settlement !== undefined,
      settledAt: settlement ? new Date(settlement.settledAt).toISOString() : null,
      window: windowDto(ctx.stageWindow(stage)),
    };
  }

  async marketWindow(tournamentId: string, marketId: string) {
    const t = await this.reads.tournament(tournamentId);
    const f = await this.market(t, marketId);
    return { tournamentId: t.id, ...this.marketView(await this.context(t), f) };
  }

  async stageWindow(tournamentId: string, stageId: string) {
    const t = await this.reads.tournament(tournamentId);
    await this.reads.stage(t, stageId);
    return { tournamentId: t.id, ...this.stageView(await this.context(t), stageId) };
  }

  async disputeableMarkets(tournamentId: string, stageId: string) {
    const t = await this.reads.tournament(tournamentId);
    await this.reads.stage(t, stageId);
    const ctx = await this.context(t);
    return {
      tournamentId: t.id,
      stageId,
      markets: ctx
        .fixturesOf(stageId)
        .map((f) => this.marketView(ctx, f))
        .filter((m) => m.disputeable),
    };
  }

  async list(filter: DisputeFilter, page: { limit: number; offset: number }) {
    const [rows, total] = await Promise.all([
      this.db.read.close.disputes(filter, page.limit, page.offset),
      this.db.read.close.countDisputes(filter),
    ]);
    return { disputes: rows.map(toDisputeDto), total };
  }

  async ofTournament(tournamentId: string, page: { limit: number; offset: number }, status?: DisputeStatus) {
    const t = await this.reads.tournament(tournamentId);
    return this.list({ tournamentId: t.id, status }, page);
  }

  async ofMarket(tournamentId: string, marketId: string, page: { limit: number; offset: number }) {
    const t = await this.reads.tournament(tournamentId);
    const f = await this.market(t, marketId);
    return this.list({ fixtureId: f.id }, page);
  }

  async ofStage(tournamentId: string, stageId: string, page: { limit: number; offset: number }) {
    const t = await this.reads.tournament(tournamentId);
    await this.reads.stage(t, stageId);
    return this.list({ stageId }, page);
  }

  /** Admin: the disputes of a stage known only by its id. */
  async ofStageId(stageId: string, page: { limit: number; offset: number }, status?: DisputeStatus) {
    const tournamentId = await this.db.read.close.tournamentOfStage(stageId);
    if (!tournamentId) throw new DomainError('NOT_FOUND', `No stage ${stageId}`, { details: { stageId } });
    return this.list({ stageId, status }, page);
  }

  async stats() {
    const s = await this.db.read.close.disputeStats();
    const byStatus = { OPEN: 0, UPHELD: 0, REJECTED: 0, EXPIRED: 0 };
    for (const row of s.byStatus) byStatus[row.status] = row.n;
    return {
      total: Object.values(byStatus).reduce((a, b) => a + b, 0),
      byStatus,
      tournamentsWithOpen: s.tournamentsWithOpen,
      oldestOpenAt: s.oldestOpenAt ? new Date(s.oldestOpenAt).toISOString() : null,
    };
  }

  /** An entrant disputes a market's recorded result. */
  async file(
    actor: Actor,
    tournamentId: string,
    marketId: string,
    stageId: string | undefined,
    body: { reason: string; proposedResult?: FixtureResult | undefined },
  ) {
    const t = await this.reads.tournament(tournamentId);
    const f = await this.market(t, marketId, stageId);
    const dispute = await this.db.transaction(async (r) => {
      await r.tournaments.lock(t.id);
      const entry = await r.tournaments.entryOf(t.id, actor.wallet);
      if (!entry) {
        throw new DomainError('NOT_ENTERED', `${actor.wallet} is not an entrant of tournament ${t.id}`, {
          details: { tournamentId: t.id, wallet: actor.wallet },
        });
      }
      const current = (await r.tournaments.byId(t.id)) ?? t;
      const ctx = await CloseContext.load(r, current, this.now(), this.settings);
      const fixture = ctx.fixtures.find((x) => x.id === f.id) ?? f;
      if (current.status === 'CANCELED' || !fixture.result || !fixture.settledAt) {
        throw new DomainError(
          'MARKET_NOT_DISPUTEABLE',
          current.status === 'CANCELED'
            ? `Tournament ${t.id} is cancelled: nothing can be disputed`
            : `Market ${f.id} has no result yet: there is nothing to dispute`,
          { details: { marketId: f.id, reason: current.status === 'CANCELED' ? 'tournament_canceled' : 'no_result' } },
        );
      }
      const window = ctx.marketWindow(fixture);
      if (window.status !== 'OPEN' || !window.closesAt) {
        throw new DomainError('DISPUTE_WINDOW_CLOSED', `The dispute window of market ${f.id} is closed`, {
          details: {
            marketId: f.id,
            closesAt: window.closesAt?.toISOString() ?? null,
            stageSettled: ctx.settlement(f.stageId) !== undefined,
          },
        });
      }
      const inserted = await r.close.insertDispute({
        tournamentId: t.id,
        stageId: f.stageId,
        fixtureId: f.id,
        entryId: entry.id,
        wallet: actor.wallet,
        reason: body.reason,
        proposedResult: body.proposedResult ?? null,
        originalResult: fixture.result,
        createdAt: ctx.now,
        expiresAt: new Date(window.closesAt.getTime() + this.settings.disputeResolveHours * HOUR),
      });
      if (!inserted) {
        const existing = await r.close.disputeOf(f.id, entry.id);
        throw new DomainError('ALREADY_DISPUTED', `${actor.wallet} already disputed market ${f.id}`, {
          details: { marketId: f.id, disputeId: existing?.id ?? null },
        });
      }
      return inserted;
    });
    return { dispute: toDisputeDto(dispute) };
  }

  /**
   * An admin's decision. Upholding with a result other than the recorded one corrects the
   * fixture, settles its picks again (each player's chips move by the difference) and recomputes
   * the tournament — stacks, ranks, brackets, placements, the champion — in one transaction.
   */
  async resolve(
    admin: AdminActor,
    disputeId: string,
    body: { decision: 'UPHOLD' | 'REJECT'; correctedResult?: FixtureResult | undefined; note?: string | undefined },
  ) {
    const found = await this.db.read.close.dispute(disputeId);
    if (!found) throw new DomainError('NOT_FOUND', `No dispute ${disputeId}`, { details: { disputeId } });
    const corrected = body.decision === 'UPHOLD' ? (body.correctedResult ?? found.proposedResult) : null;
    if (body.decision === 'UPHOLD' && !corrected) {
      throw new DomainError('VALIDATION_FAILED', 'Upholding needs the corrected result: none was proposed', {
        fieldErrors: { 'body.correctedResult': ['required when the dispute proposed no result'] },
      });
    }
    const now = this.now();
    return this.db.transaction(async (r) => {
      await r.tournaments.lock(found.tournamentId);
      const d = await r.close.dispute(disputeId, true);
      if (!d || d.status !== 'OPEN') {
        throw new DomainError('DISPUTE_CLOSED', `Dispute ${disputeId} is ${d?.status ?? 'gone'}`, {
          details: { disputeId, status: d?.status ?? null },
        });
      }
      const fixture = await r.tournaments.fixture(d.fixtureId);
      if (!fixture?.result) throw new DomainError('INVALID_STATE', `Market ${d.fixtureId} has no result`);
      const changed = corrected !== null && corrected !== fixture.result;
      await r.close.resolveDispute(d.id, {
        status: body.decision === 'UPHOLD' ? 'UPHELD' : 'REJECTED',
        correctedResult: corrected,
        note: body.note ?? null,
        by: admin.email,
        at: now,
      });
      if (changed) {
        await r.close.correctResult(fixture.id, corrected);
        for (const pick of await r.close.settledPicksOn(fixture.id)) {
          const back = pickReturn({ outcome: pick.outcome, stake: pick.stake, oddsX100: pick.odds }, corrected);
          const status = corrected === 'VOID' ? 'VOID' : corrected === pick.outcome ? 'WON' : 'LOST';
          await r.close.resettlePick(pick.id, status, back);
          await r.play.addAvailable(pick.stageId, pick.entryId, back - (pick.payout ?? 0));
        }
        await this.standings.recomputeWithin(r, d.tournamentId);
        this.logger.info(
          { tournamentId: d.tournamentId, fixtureId: fixture.id, from: fixture.result, to: corrected, disputeId: d.id },
          'tournament market result corrected by an upheld dispute',
        );
      }
      await r.close.audit({
        tournamentId: d.tournamentId,
        stageId: d.stageId,
        action: `dispute-${body.decision.toLowerCase()}`,
        actor: admin.email,
        reason: body.note ?? null,
        details: {
          disputeId: d.id,
          marketId: fixture.id,
          from: fixture.result,
          to: changed ? corrected : fixture.result,
        },
        at: now,
      });
      const after = await r.close.dispute(d.id);
      return {
        dispute: toDisputeDto(after ?? d),
        changed,
        result: changed ? corrected : fixture.result,
      };
    });
  }

  /** Closes every open dispute past its deadline; the automation's `processExpired` step. */
  async processExpired(now = this.now()): Promise<{ expired: number; disputeIds: string[] }> {
    const ids: string[] = [];
    for (;;) {
      const batch = await this.db.read.close.expireDisputes(now, 200);
      ids.push(...batch);
      if (batch.length < 200) break;
    }
    return { expired: ids.length, disputeIds: ids };
  }
}
