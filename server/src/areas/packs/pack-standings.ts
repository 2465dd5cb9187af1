import type { Clock } from '../../platform/clock.js';
import type { PackEntryRow } from './pack.entities.js';
import { marketOutcome, type PackMarketState } from './pack.mapper.js';
import type { PackRepository, PackView } from './pack.repository.js';
import { notFound, type PackService } from './pack.service.js';
import { pickPoints, pickResult, rankEntrants, type Ranked } from './pack-scoring.js';
import type { LeaderboardDto, StandingDto } from './pack.types.js';
import { getAddress } from 'viem';

export interface EntrantScore {
  readonly account: string;
  readonly points: number;
  readonly entry: PackEntryRow & { username: string | null };
  readonly correctPicks: number;
  readonly picks: number;
}

export interface Standings {
  readonly markets: PackMarketState[];
  readonly ranked: Ranked<EntrantScore>[];
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Scores every confirmed entrant of a pack from its markets' outcomes so far, and ranks them. */
export class PackStandings {
  constructor(
    private readonly repo: PackRepository,
    private readonly packs: PackService,
    private readonly clock: Clock,
  ) {}

  /** Final standings (with payouts) once settled; before that, standings from the results so far. */
  async leaderboard(packId: string, page: number, limit: number): Promise<LeaderboardDto> {
    const pack = await this.packs.require(packId);
    if (pack.status === 'draft') throw notFound(packId);
    const final = pack.status === 'settled' || pack.status === 'claimed';
    let rows: StandingDto[];
    if (final) {
      const [entries, picks] = await Promise.all([this.repo.confirmedEntries(pack.id), this.repo.allPicks(pack.id)]);
      rows = entries
        .map((e) => ({
          rank: e.rank ?? entries.length,
          userAddress: getAddress(e.account),
          username: e.username,
          points: e.points ?? 0,
          correctPicks: e.correctPicks ?? 0,
          picks: picks.filter((p) => p.userId === e.userId).length,
          payout: e.payout ?? '0',
        }))
        .sort((a, b) => a.rank - b.rank || (a.userAddress.toLowerCase() < b.userAddress.toLowerCase() ? -1 : 1));
    } else {
      rows = (await this.compute(pack)).ranked.map((e) => ({
        rank: e.rank,
        userAddress: getAddress(e.account),
        username: e.entry.username,
        points: e.points,
        correctPicks: e.correctPicks,
        picks: e.picks,
        payout: null,
      }));
    }
    const total = rows.length;
    return {
      packId: pack.id,
      final,
      data: rows.slice((page - 1) * limit, page * limit),
      pagination: { page, limit, total, hasMore: page * limit < total },
    };
  }

  async compute(pack: PackView): Promise<Standings> {
    const now = this.clock.now();
    const [markets, entries, picks] = await Promise.all([
      this.packs.markets(pack.id),
      this.repo.confirmedEntries(pack.id),
      this.repo.allPicks(pack.id),
    ]);
    const outcomes = markets.map((m) => ({ duelId: m.duel.duelId, outcome: marketOutcome(m, now) }));
    const scores: EntrantScore[] = entries.map((entry) => {
      let points = 0;
      let correctPicks = 0;
      const own = picks.filter((p) => p.userId === entry.userId);
      for (const p of own) {
        const outcome = outcomes.find((o) => same(o.duelId, p.duelId))?.outcome;
        if (!outcome) continue;
        const result = pickResult(outcome, p.optionIndex);
        points += pickPoints(result, p.pointsIfCorrect) ?? 0;
        if (result === 'won') correctPicks++;
      }
      return { account: entry.account, points, entry, correctPicks, picks: own.length };
    });
    return { markets, ranked: rankEntrants(scores) };
  }
}
