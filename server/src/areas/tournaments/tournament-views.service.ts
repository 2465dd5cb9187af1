import { getAddress } from 'viem';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { Clock } from '../../platform/clock.js';
import { bracketSize, knockoutRounds, payoutTiers, playersInStage, type FormatRules } from './tournament-format.js';
import { stageStatus, toEntry } from './tournament.mapper.js';
import type { TournamentDb } from './tournament.repository.js';
import type { TournamentReadService } from './tournament-read.service.js';
import type { TournamentStatsQueries } from './tournament-stats.queries.js';
import type { StageEntryRow, StageRow, TournamentRow } from './tournament.types.js';
import { tournamentPoolId } from './vault-pools.js';

const BPS = 10_000n;

const rulesOf = (t: TournamentRow): FormatRules => ({
  format: t.format,
  totalStages: t.totalStages,
  groupSize: t.groupSize,
  advancePerGroup: t.advancePerGroup,
});

/** The payout table priced: each tier's amount per player, down to the base unit. */
function pricedTiers(t: TournamentRow, distributable: bigint) {
  return payoutTiers(rulesOf(t), t.payoutBps).map((tier) => ({
    place: tier.place,
    label: tier.label,
    players: tier.players,
    shareBps: tier.shareBpsEach,
    amountEach: ((distributable * BigInt(tier.shareBpsEach)) / BPS).toString(),
  }));
}

/** What a tournament looks like from inside: standings, groups, bracket, rules, prizes. */
export class TournamentViewsService {
  constructor(
    private readonly db: TournamentDb,
    private readonly reads: TournamentReadService,
    private readonly stats: TournamentStatsQueries,
    private readonly vault: PrizeVaultPort,
    private readonly clock: Clock,
  ) {}

  async standings(id: string, stageId: string, limit: number, offset: number) {
    const t = await this.reads.tournament(id);
    const { stage, previous } = await this.reads.stage(t, stageId);
    const seats = await this.db.read.play.stageEntries(stage.id);
    const paidStage = stage.stageIndex > 1 && BigInt(stage.buyin) > 0n;
    return {
      tournamentId: t.id,
      stageId: stage.id,
      stageIndex: stage.stageIndex,
      status: stageStatus(stage, previous, new Date(this.clock.now())),
      final: stage.completedAt !== null,
      standings: seats.slice(offset, offset + limit).map((s) => ({
        rank: s.rank ?? 1,
        wallet: getAddress(s.wallet),
        username: s.username,
        seed: s.seed,
        group: s.groupLabel,
        chips: s.stack,
        available: s.available,
        startChips: s.startChips,
        picks: s.picks,
        wonPicks: s.wonPicks,
        paid: !paidStage || s.paidTxHash !== null,
        status: s.status,
      })),
      total: seats.length,
    };
  }

  async groups(id: string, stageId: string) {
    const t = await this.reads.tournament(id);
    const { stage } = await this.reads.stage(t, stageId);
    const base = {
      tournamentId: t.id,
      stageId: stage.id,
      stageIndex: stage.stageIndex,
      final: stage.completedAt !== null,
    };
    if (stage.kind !== 'GROUP') return { ...base, advancePerGroup: 0, groups: [] };
    const byLabel = new Map<string, StageEntryRow[]>();
    for (const seat of await this.db.read.play.stageEntries(stage.id)) {
      const label = seat.groupLabel ?? 'A';
      byLabel.set(label, [...(byLabel.get(label) ?? []), seat]);
    }
    const labels = [...byLabel.keys()].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    return {
      ...base,
      advancePerGroup: t.advancePerGroup,
      groups: labels.map((label) => ({
        label,
        members: (byLabel.get(label) ?? [])
          .sort((a, b) => (a.groupRank ?? 0) - (b.groupRank ?? 0))
          .map((s) => ({
            position: s.groupRank ?? 1,
            wallet: getAddress(s.wallet),
            username: s.username,
            seed: s.seed,
            chips: s.stack,
            advancing: (s.groupRank ?? Infinity) <= t.advancePerGroup,
          })),
      })),
    };
  }

  async bracket(id: string) {
    const t = await this.reads.tournament(id);
    const rules = rulesOf(t);
    const now = new Date(this.clock.now());
    const [stages, matches, seats] = await Promise.all([
      this.db.read.tournaments.stages(t.id),
      this.db.read.play.matches(t.id),
      this.db.read.play.stageEntriesOfTournament(t.id),
    ]);
    const seatOf = new Map(seats.map((s) => [`${s.stageId}|${s.entryId}`, s]));
    const rounds = stages
      .filter((s) => s.kind === 'KNOCKOUT')
      .map((s) => {
        const own = matches.filter((m) => m.stageId === s.id);
        const side = (entryId: string | null, seed: number | null) => {
          const seat = entryId ? seatOf.get(`${s.id}|${entryId}`) : undefined;
          return seat && seed !== null
            ? { wallet: getAddress(seat.wallet), username: seat.username, seed, chips: seat.stack }
            : null;
        };
        const drawn = own.length > 0;
        const placeholders = Array.from({ length: playersInStage(rules, s.stageIndex) / 2 }, (_, i) => ({
          slot: i + 1,
          a: null,
          b: null,
          winner: null,
          status: 'PENDING' as const,
        }));
        return {
          stageIndex: s.stageIndex,
          stageId: s.id,
          name: s.stageName,
          status: stageStatus(
            s,
            stages.find((x) => x.stageIndex === s.stageIndex - 1),
            now,
          ),
          drawn,
          matches: drawn
            ? own.map((m) => ({
                slot: m.slot,
                a: side(m.aEntryId, m.aSeed),
                b: side(m.bEntryId, m.bSeed),
                winner: m.winnerEntryId ? getAddress(seatOf.get(`${s.id}|${m.winnerEntryId}`)?.wallet ?? '') : null,
                status: m.status,
              }))
            : placeholders,
        };
      });
    return {
      tournamentId: t.id,
      format: t.format,
      bracketSize: bracketSize(rules),
      rounds,
      championWallet: t.championWallet ? getAddress(t.championWallet) : null,
    };
  }

  async bracketStatus(id: string) {
    const t = await this.reads.tournament(id);
    const now = new Date(this.clock.now());
    const [stages, entries, fixtures] = await Promise.all([
      this.db.read.tournaments.stages(t.id),
      this.db.read.tournaments.entries(t.id),
      this.db.read.tournaments.fixtures(t.id),
    ]);
    const knockout = stages.filter((s) => s.kind === 'KNOCKOUT');
    const current = t.status === 'LIVE' ? knockout.find((s) => !s.completedAt) : undefined;
    const next = fixtures.map((f) => new Date(f.lockAt)).find((d) => d > now);
    return {
      tournamentId: t.id,
      roundsTotal: knockoutRounds(rulesOf(t)),
      roundsCompleted: knockout.filter((s) => s.completedAt).length,
      currentRound: current?.stageIndex ?? null,
      playersRemaining: entries.filter((e) => e.status !== 'ELIMINATED').length,
      championWallet: t.championWallet ? getAddress(t.championWallet) : null,
      finished: t.status === 'COMPLETED',
      nextLockTime: t.status === 'LIVE' && next ? next.toISOString() : null,
    };
  }

  async formatInfo(id: string) {
    const t = await this.reads.tournament(id);
    const rules = rulesOf(t);
    const stages = await this.db.read.tournaments.stages(t.id);
    const groupStage = t.format === 'GROUP_KNOCKOUT';
    return {
      tournamentId: t.id,
      format: t.format,
      description: groupStage
        ? `A group stage, then a single-elimination bracket of ${bracketSize(rules)} seats over ${knockoutRounds(rules)} rounds.`
        : `A single-elimination bracket of ${bracketSize(rules)} seats from the first stage, over ${knockoutRounds(rules)} rounds.`,
      rules: [
        `Every player of a stage starts it with ${t.chipsPerStage} chips × the stage multiplier.`,
        'Stake chips on fixture results (home, draw, away) at the stage odds, one pick per fixture, until the fixture locks at kick-off.',
        'A winning pick returns stake × odds, a losing one nothing, a void fixture the stake; chips never carry over to the next stage.',
        ...(groupStage
          ? [
              `Entrants are drawn into groups of at most ${t.groupSize} by entry order (snake), at the first lock.`,
              `The top ${t.advancePerGroup} of each group by chips reach the bracket: group winners seeded first.`,
            ]
          : ['Entrants are seeded by entry order (the creator first); empty seats are byes.']),
        'In a knockout round the player with more chips at the end of the stage goes through.',
        'A later stage with a buy-in must be paid (deposit, then enter with its stageIndex) before it ends, or the player forfeits.',
      ],
      tieBreakers: ['more chips', 'the better seed (earlier entry; in the bracket, the better bracket seed)'],
      totalStages: t.totalStages,
      bracketSize: bracketSize(rules),
      groupSize: groupStage ? t.groupSize : null,
      advancePerGroup: groupStage ? t.advancePerGroup : null,
      chipsPerStage: t.chipsPerStage,
      stages: stages.map((s) => ({
        stageIndex: s.stageIndex,
        stageName: s.stageName,
        kind: s.kind,
        chips: s.startChips,
        multiplier: s.multiplier,
        buyinUsdc: s.buyin,
        maxPlayers: s.kind === 'GROUP' ? t.maxEntrants : playersInStage(rules, s.stageIndex),
      })),
      payout: payoutTiers(rules, t.payoutBps).map(({ place, label, players, shareBpsEach }) => ({
        place,
        label,
        players,
        shareBps: shareBpsEach,
      })),
    };
  }

  async prizePool(id: string) {
    const t = await this.reads.tournament(id);
    const [stages, deposits] = await Promise.all([
      this.db.read.tournaments.stages(t.id),
      this.db.read.deposits.deposits(t.id),
    ]);
    const live = deposits.filter((d) => !d.refundedAt);
    const total = live.reduce((sum, d) => sum + BigInt(d.amount), 0n);
    const fee = (total * BigInt(t.feeBps)) / BPS;
    const poolId = tournamentPoolId(t.id);
    return {
      tournamentId: t.id,
      stakeAsset: t.stakeAsset,
      total: total.toString(),
      feeBps: t.feeBps,
      fee: fee.toString(),
      distributable: (total - fee).toString(),
      byStage: stages.map((s) => {
        const own = live.filter((d) => d.stageIndex === s.stageIndex);
        return {
          stageIndex: s.stageIndex,
          buyinUsdc: s.buyin,
          deposits: own.length,
          amount: own.reduce((sum, d) => sum + BigInt(d.amount), 0n).toString(),
        };
      }),
      tiers: pricedTiers(t, total - fee),
      vault: {
        address: this.vault.address(t.stakeAsset),
        poolId,
        balance: (await this.vault.poolBalance(t.stakeAsset, poolId)).toString(),
      },
    };
  }

  async leaderboard(id: string, limit: number, offset: number) {
    const t = await this.reads.tournament(id);
    const { rows, total } = await this.stats.leaderboard(t.id, limit, offset);
    return {
      tournamentId: t.id,
      leaderboard: rows.map((r, i) => ({
        rank: r.placement ?? offset + i + 1,
        username: r.username,
        wallet: getAddress(r.wallet),
        avatarUrl: r.avatarUrl,
        points: r.points,
        stagesPlayed: r.stagesPlayed,
        status: r.status,
      })),
      total,
    };
  }

  /**
   * The pool projected for `entrants` (stage-1 buy-ins of all, later paid stages at full seats),
   * its payout table, and the caller's best case and the amount their round already secures.
   */
  async estimatePayout(id: string, wallet: string, entrants?: number) {
    const t = await this.reads.tournament(id);
    const rules = rulesOf(t);
    const [stages, entry] = await Promise.all([
      this.db.read.tournaments.stages(t.id),
      this.db.read.tournaments.entryOf(t.id, wallet),
    ]);
    const n = Math.max(1, entrants ?? t.entryCount + (entry ? 0 : 1));
    const pool = stages.reduce((sum, s) => {
      const players = s.stageIndex === 1 ? n : Math.min(n, playersInStage(rules, s.stageIndex));
      return sum + BigInt(s.buyin) * BigInt(players);
    }, 0n);
    const fee = (pool * BigInt(t.feeBps)) / BPS;
    const tiers = pricedTiers(t, pool - fee);
    const amountOfTier = (tier: number) => tiers[tier]?.amountEach ?? '0';
    let guaranteed = '0';
    if (entry?.status === 'CHAMPION') guaranteed = amountOfTier(0);
    else if (entry) {
      // Reaching a knockout round of P players secures at least the share of that round's losers.
      const seats = (await this.db.read.play.stageEntriesOfTournament(t.id)).filter((s) => s.entryId === entry.id);
      const last = stages.filter((s) => seats.some((x) => x.stageId === s.id)).pop();
      if (last?.kind === 'KNOCKOUT') guaranteed = amountOfTier(Math.log2(playersInStage(rules, last.stageIndex)));
    }
    const alive = entry ? entry.status === 'ALIVE' : t.status === 'LIVE';
    return {
      tournamentId: t.id,
      stakeAsset: t.stakeAsset,
      entrants: n,
      projectedPool: pool.toString(),
      fee: fee.toString(),
      distributable: (pool - fee).toString(),
      tiers,
      caller: {
        wallet: getAddress(wallet),
        hasEntry: entry !== null,
        alive,
        bestCase: alive || entry?.status === 'CHAMPION' ? amountOfTier(0) : '0',
        guaranteed,
      },
    };
  }

  /** The wallet's entry, latest stage, chips and elimination. */
  async myStatus(id: string, wallet: string) {
    const t = await this.reads.tournament(id);
    const now = new Date(this.clock.now());
    const entry = await this.db.read.tournaments.entryOf(t.id, wallet);
    const base = { tournamentId: t.id, wallet: getAddress(wallet) };
    if (!entry) {
      return {
        ...base,
        hasEntry: false,
        entry: null,
        stage: null,
        eliminated: false,
        eliminatedAtStage: null,
        champion: false,
        canWithdraw: false,
      };
    }
    const stages = await this.db.read.tournaments.stages(t.id);
    let latest: { stage: StageRow; seat: StageEntryRow } | null = null;
    for (const stage of stages) {
      const seat = await this.db.read.play.stageEntry(stage.id, entry.id);
      if (seat) latest = { stage, seat };
    }
    const stage = latest
      ? {
          stageId: latest.stage.id,
          stageIndex: latest.stage.stageIndex,
          status: stageStatus(
            latest.stage,
            stages.find((s) => s.stageIndex === latest.stage.stageIndex - 1),
            now,
          ),
          chips: { available: latest.seat.available, stack: latest.seat.stack },
          rank: latest.seat.rank ?? 1,
          group: latest.seat.groupLabel,
          paid: latest.stage.stageIndex === 1 || BigInt(latest.stage.buyin) === 0n || latest.seat.paidTxHash !== null,
          participantStatus: latest.seat.status,
        }
      : null;
    const eliminated = entry.status === 'ELIMINATED';
    return {
      ...base,
      hasEntry: true,
      entry: toEntry(entry),
      stage,
      eliminated,
      eliminatedAtStage: eliminated ? (latest?.stage.stageIndex ?? null) : null,
      champion: entry.status === 'CHAMPION',
      canWithdraw: !entry.isCreator && t.status === 'LIVE' && now < new Date(t.startsAt),
    };
  }
}
