import type { OverrideRow, SettlementRow } from './tournament-close.repository.js';
import type { TournamentRepos } from './tournament.repository.js';
import type { FixtureRow, StageRow, TournamentRow, TournamentSettings } from './tournament.types.js';

/** `PENDING`: not open yet (no result); `OPEN`: disputes accepted; `CLOSED`: passed, or the stage settled. */
export type WindowStatus = 'PENDING' | 'OPEN' | 'CLOSED';

export interface DisputeWindow {
  readonly opensAt: Date | null;
  readonly closesAt: Date | null;
  readonly status: WindowStatus;
  /** An admin set this window's end. */
  readonly overridden: boolean;
}

/** The scope of the final window's override; a stage's is its id. */
export const FINAL_SCOPE = 'final';

const HOUR = 3_600_000;

/**
 * Everything the dispute windows, settlement gates and payout gate of one tournament depend on,
 * read once. The windows are derived, never stored: a market's opens when its result is settled
 * and lasts `disputeWindowHours`; a stage's spans its markets' (an admin's end overrides both);
 * the final window opens when the final stage settles and lasts `finalDisputeWindowHours`.
 */
export class CloseContext {
  private constructor(
    readonly t: TournamentRow,
    readonly stages: readonly StageRow[],
    readonly fixtures: readonly FixtureRow[],
    readonly settlements: ReadonlyMap<string, SettlementRow>,
    readonly overrides: ReadonlyMap<string, OverrideRow>,
    readonly now: Date,
    private readonly settings: Pick<TournamentSettings, 'disputeWindowHours' | 'finalDisputeWindowHours'>,
  ) {}

  static async load(
    r: TournamentRepos,
    t: TournamentRow,
    now: Date,
    settings: Pick<TournamentSettings, 'disputeWindowHours' | 'finalDisputeWindowHours'>,
  ): Promise<CloseContext> {
    // One after another: inside a transaction they share one connection.
    const stages = await r.tournaments.stages(t.id);
    const fixtures = await r.tournaments.fixtures(t.id);
    const settlements = await r.close.settlements(t.id);
    const overrides = await r.close.overrides(t.id);
    return new CloseContext(
      t,
      stages,
      fixtures,
      new Map(settlements.map((s) => [s.stageId, s])),
      new Map(overrides.map((o) => [o.scope, o])),
      now,
      settings,
    );
  }

  stage(stageId: string): StageRow | undefined {
    return this.stages.find((s) => s.id === stageId);
  }

  fixturesOf(stageId: string): FixtureRow[] {
    return this.fixtures.filter((f) => f.stageId === stageId);
  }

  settlement(stageId: string): SettlementRow | undefined {
    return this.settlements.get(stageId);
  }

  finalStage(): StageRow | undefined {
    return this.stages.find((s) => s.isFinal) ?? this.stages[this.stages.length - 1];
  }

  marketWindow(f: FixtureRow): DisputeWindow {
    const override = this.overrides.get(f.stageId)?.endsAt ?? null;
    const opensAt = f.settledAt ? new Date(f.settledAt) : null;
    const closesAt = override
      ? new Date(override)
      : opensAt
        ? new Date(opensAt.getTime() + this.settings.disputeWindowHours * HOUR)
        : null;
    return this.window(opensAt, closesAt, this.settlements.has(f.stageId), override !== null);
  }

  stageWindow(stage: StageRow): DisputeWindow {
    const fixtures = this.fixturesOf(stage.id);
    const settled = fixtures.map((f) => f.settledAt).filter((d): d is Date => d !== null);
    const override = this.overrides.get(stage.id)?.endsAt ?? null;
    const opensAt = settled.length ? new Date(Math.min(...settled.map((d) => new Date(d).getTime()))) : null;
    const lastResult =
      settled.length && settled.length === fixtures.length
        ? Math.max(...settled.map((d) => new Date(d).getTime()))
        : null;
    const closesAt = override
      ? new Date(override)
      : lastResult !== null
        ? new Date(lastResult + this.settings.disputeWindowHours * HOUR)
        : null;
    return this.window(opensAt, closesAt, this.settlements.has(stage.id), override !== null);
  }

  /** After the final stage settles and before the payout root may be built. */
  finalWindow(): DisputeWindow {
    const final = this.finalStage();
    const settledAt = final ? (this.settlements.get(final.id)?.settledAt ?? null) : null;
    const override = this.overrides.get(FINAL_SCOPE)?.endsAt ?? null;
    const opensAt = settledAt ? new Date(settledAt) : null;
    const closesAt = override
      ? new Date(override)
      : opensAt
        ? new Date(opensAt.getTime() + this.settings.finalDisputeWindowHours * HOUR)
        : null;
    // An override before the final stage settles only takes effect once it has.
    const status: WindowStatus = !opensAt ? 'PENDING' : closesAt && this.now >= closesAt ? 'CLOSED' : 'OPEN';
    return { opensAt, closesAt, status, overridden: override !== null };
  }

  private window(opensAt: Date | null, closesAt: Date | null, settled: boolean, overridden: boolean): DisputeWindow {
    const status: WindowStatus =
      settled || (closesAt !== null && this.now >= closesAt)
        ? 'CLOSED'
        : opensAt !== null && this.now >= opensAt
          ? 'OPEN'
          : 'PENDING';
    return { opensAt, closesAt, status, overridden };
  }
}

/** A window on the wire. */
export function windowDto(w: DisputeWindow) {
  return {
    opensAt: w.opensAt?.toISOString() ?? null,
    closesAt: w.closesAt?.toISOString() ?? null,
    status: w.status,
    overridden: w.overridden,
  };
}
