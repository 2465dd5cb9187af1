import type { Logger } from '../../logger.js';
import type { Clock } from '../../platform/clock.js';
import {
  computeTournament,
  pickReturn,
  type FixtureResult,
  type StageState,
  type TournamentInput,
} from './tournament-format.js';
import type { TournamentDb, TournamentRepos } from './tournament.repository.js';
import type { MatchRow, StageRow } from './tournament.types.js';

/**
 * Keeps what follows from the facts up to date: settles a finished fixture's picks (chips move
 * incrementally, each pick once) and recomputes standings, groups, matches and placements from
 * scratch through tournament-format.ts, inside one transaction holding the tournament's lock.
 * Every step is idempotent, so a job delivered twice changes nothing the second time.
 */
export class StandingsService {
  constructor(
    private readonly db: TournamentDb,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Settles the open picks of a fixture whose result is recorded, then recomputes its tournament. */
  async settleFixture(fixtureId: string): Promise<void> {
    const fixture = await this.db.read.tournaments.fixture(fixtureId);
    const result = fixture?.result;
    if (!fixture || !result) return;
    const now = new Date(this.clock.now());
    await this.db.transaction(async (r) => {
      if (!(await r.tournaments.lock(fixture.tournamentId))) return;
      for (const pick of await r.play.openPicksOn(fixtureId)) {
        const back = pickReturn({ outcome: pick.outcome, stake: pick.stake, oddsX100: pick.odds }, result);
        const status = result === 'VOID' ? 'VOID' : result === pick.outcome ? 'WON' : 'LOST';
        if (await r.play.settlePick(pick.id, status, back, now))
          await r.play.addAvailable(pick.stageId, pick.entryId, back);
      }
      await r.tournaments.markFixtureSettled(fixtureId, now);
      await this.recomputeIn(r, fixture.tournamentId, now);
    });
  }

  /** Recomputes a tournament from its facts (after an entry, a withdrawal, a lock passing). */
  async recompute(tournamentId: string): Promise<void> {
    const now = new Date(this.clock.now());
    await this.db.transaction(async (r) => {
      if (await r.tournaments.lock(tournamentId)) await this.recomputeIn(r, tournamentId, now);
    });
  }

  /** The model's input, from the stored facts: the same function the reads and tests use. */
  async inputOf(
    r: TournamentRepos,
    tournamentId: string,
  ): Promise<{ input: TournamentInput; stages: StageRow[] } | null> {
    const t = await r.tournaments.byId(tournamentId);
    if (!t) return null;
    // One after another: inside a transaction they share one connection.
    const stages = await r.tournaments.stages(tournamentId);
    const fixtures = await r.tournaments.fixtures(tournamentId);
    const entries = await r.tournaments.entries(tournamentId);
    const picks = await r.play.picksOfTournament(tournamentId);
    const seats = await r.play.stageEntriesOfTournament(tournamentId);
    const indexOf = new Map(stages.map((s) => [s.id, s.stageIndex]));
    const payments = new Map<number, Set<string>>();
    for (const seat of seats) {
      if (!seat.paidTxHash) continue;
      const index = indexOf.get(seat.stageId) ?? 0;
      payments.set(index, (payments.get(index) ?? new Set()).add(seat.entryId));
    }
    const input: TournamentInput = {
      rules: {
        format: t.format,
        totalStages: t.totalStages,
        groupSize: t.groupSize,
        advancePerGroup: t.advancePerGroup,
      },
      entrants: entries.map((e) => ({ id: e.id, seed: e.seed })),
      stages: stages.map((s) => ({
        index: s.stageIndex,
        startChips: s.startChips,
        paid: BigInt(s.buyin) > 0n,
        fixtureIds: fixtures.filter((f) => f.stageId === s.id).map((f) => f.id),
      })),
      picks: picks.map((p) => ({
        id: p.id,
        entrantId: p.entryId,
        stageIndex: indexOf.get(p.stageId) ?? 0,
        fixtureId: p.fixtureId,
        outcome: p.outcome,
        stake: p.stake,
        oddsX100: p.odds,
      })),
      // Only settled fixtures count: their picks' chips have moved, so scratch and incremental agree.
      results: new Map(
        fixtures
          .filter((f): f is typeof f & { result: FixtureResult } => f.result !== null && f.settledAt !== null)
          .map((f) => [f.id, f.result]),
      ),
      stagePayments: payments,
    };
    return { input, stages };
  }

  /** Recomputes inside a transaction that already holds the tournament's lock (a corrected result). */
  recomputeWithin(r: TournamentRepos, tournamentId: string): Promise<void> {
    return this.recomputeIn(r, tournamentId, new Date(this.clock.now()));
  }

  private async recomputeIn(r: TournamentRepos, tournamentId: string, now: Date): Promise<void> {
    const t = await r.tournaments.byId(tournamentId);
    if (!t || t.status === 'CANCELED') return;
    const loaded = await this.inputOf(r, tournamentId);
    if (!loaded) return;
    const state = computeTournament(loaded.input);
    const entries = await r.tournaments.entries(tournamentId);
    const walletOf = new Map(entries.map((e) => [e.id, e.wallet]));
    const seats = await r.play.stageEntriesOfTournament(tournamentId);
    const seatOf = new Map(seats.map((s) => [`${s.stageId}|${s.entryId}`, s]));

    for (const stage of loaded.stages) {
      const s = state.stages.find((x) => x.index === stage.stageIndex);
      if (!s) continue;
      await this.writeStage(r, tournamentId, stage, s, walletOf, seatOf);
      if (s.complete && !stage.completedAt) await r.tournaments.markStageCompleted(stage.id, now);
    }
    for (const p of state.placements) {
      await r.tournaments.setPlacement(p.entrantId, {
        placement: p.rank,
        stagesPlayed: p.stagesPlayed,
        points: p.points,
        status: p.status,
      });
    }
    if (!t.activatedAt && now >= new Date(t.startsAt) && entries.length >= t.minEntries) {
      await r.tournaments.setActivated(tournamentId, now);
    }
    if (state.finished) {
      const champion = state.champion ? (walletOf.get(state.champion) ?? null) : null;
      if (t.status === 'LIVE') await r.tournaments.setCompleted(tournamentId, now, champion);
      // An upheld dispute can change the final's winner after completion.
      else await r.tournaments.setChampion(tournamentId, champion);
    }
  }

  private async writeStage(
    r: TournamentRepos,
    tournamentId: string,
    stage: StageRow,
    s: StageState,
    walletOf: Map<string, string>,
    seatOf: Map<string, { available: number }>,
  ): Promise<void> {
    if (!s.drawn) {
      await r.play.unseatOthers(stage.id, []);
      await r.play.writeMatches(tournamentId, stage.id, []);
      return;
    }
    for (const standing of s.standings) {
      const write = {
        stageId: stage.id,
        entryId: standing.entrantId,
        tournamentId,
        wallet: walletOf.get(standing.entrantId) ?? '',
        startChips: standing.startChips,
        stack: standing.stack,
        rank: standing.rank,
        groupLabel: standing.group,
        groupRank: standing.groupRank,
        status: standing.status,
        picks: standing.picks,
        wonPicks: standing.wonPicks,
      };
      const seat = seatOf.get(`${stage.id}|${standing.entrantId}`);
      if (!seat) await r.play.seat(write);
      else if (seat.available !== standing.available) {
        // The incremental balance and the one from scratch must agree; keep the record, say so loudly.
        this.logger.error(
          {
            tournamentId,
            stageId: stage.id,
            entryId: standing.entrantId,
            stored: seat.available,
            computed: standing.available,
          },
          'tournament chip balance differs from its recomputation',
        );
      }
      await r.play.writeStanding(write);
    }
    await r.play.unseatOthers(
      stage.id,
      s.standings.map((x) => x.entrantId),
    );
    const matches: MatchRow[] = s.matches.map((m) => ({
      stageId: stage.id,
      slot: m.slot,
      aEntryId: m.a?.entrantId ?? null,
      aSeed: m.a?.seed ?? null,
      bEntryId: m.b?.entrantId ?? null,
      bSeed: m.b?.seed ?? null,
      winnerEntryId: m.winner,
      status: m.status,
    }));
    await r.play.writeMatches(tournamentId, stage.id, matches);
  }
}
