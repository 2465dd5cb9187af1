import { getAddress } from 'viem';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import type { BondService } from './tournament-bond.service.js';
import { decimalOdds, fixtureStatus, toFixture, toStage, toTournament } from './tournament.mapper.js';
import type { TournamentDb } from './tournament.repository.js';
import type { TournamentStatsQueries } from './tournament-stats.queries.js';
import type { StageRow, TournamentRow, TournamentStatus } from './tournament.types.js';

/** The list filter's values: `active` and `live` mean LIVE (not finished, not cancelled). */
export function statusesOf(filter: string | undefined): TournamentStatus[] | undefined {
  switch (filter?.toLowerCase()) {
    case undefined:
      return undefined;
    case 'completed':
      return ['COMPLETED'];
    case 'canceled':
      return ['CANCELED'];
    default:
      return ['LIVE'];
  }
}

/** The catalogue, one tournament with its stages and fixtures, and platform-wide statistics. */
export class TournamentReadService {
  constructor(
    private readonly db: TournamentDb,
    private readonly stats: TournamentStatsQueries,
    private readonly bonds: BondService,
    private readonly vault: PrizeVaultPort,
    private readonly clock: Clock,
  ) {}

  private now(): Date {
    return new Date(this.clock.now());
  }

  async tournament(id: string): Promise<TournamentRow> {
    const t = await this.db.read.tournaments.byId(id.toLowerCase());
    if (!t) throw new DomainError('NOT_FOUND', `No tournament ${id}`, { details: { tournamentId: id } });
    return t;
  }

  async stage(t: TournamentRow, stageId: string): Promise<{ stage: StageRow; previous: StageRow | undefined }> {
    const stages = await this.db.read.tournaments.stages(t.id);
    const stage = stages.find((s) => s.id === stageId);
    if (!stage) throw new DomainError('NOT_FOUND', `No stage ${stageId} in tournament ${t.id}`);
    return { stage, previous: stages.find((s) => s.stageIndex === stage.stageIndex - 1) };
  }

  async list(q: {
    status?: string | undefined;
    gameType?: string | undefined;
    sport?: string | undefined;
    ownerWallet?: string | undefined;
    limit: number;
    offset: number;
  }) {
    const statuses = statusesOf(q.status);
    const filter = {
      ...(statuses ? { statuses } : {}),
      ...(q.gameType ? { gameType: q.gameType } : {}),
      ...(q.sport ? { sport: q.sport } : {}),
      ...(q.ownerWallet ? { ownerWallet: q.ownerWallet } : {}),
    };
    const [rows, total] = await Promise.all([
      this.db.read.tournaments.list(filter, q.limit, q.offset),
      this.db.read.tournaments.count(filter),
    ]);
    const now = this.now();
    return { tournaments: rows.map((t) => toTournament(t, this.vault, now)), total };
  }

  async detail(id: string) {
    const t = await this.tournament(id);
    const [stages, fixtures] = await Promise.all([
      this.db.read.tournaments.stages(t.id),
      this.db.read.tournaments.fixtures(t.id),
    ]);
    const now = this.now();
    return {
      tournament: toTournament(t, this.vault, now),
      stages: stages.map((s, i) => toStage(s, stages[i - 1], fixtures, now)),
    };
  }

  async fixtures(id: string, stageId: string) {
    const t = await this.tournament(id);
    const { stage } = await this.stage(t, stageId);
    const now = this.now();
    const fixtures = (await this.db.read.tournaments.fixtures(t.id)).filter((f) => f.stageId === stage.id);
    return { tournamentId: t.id, stageId: stage.id, fixtures: fixtures.map((f) => toFixture(f, now)) };
  }

  async odds(id: string, stageId: string) {
    const t = await this.tournament(id);
    const { stage } = await this.stage(t, stageId);
    const now = this.now();
    const fixtures = (await this.db.read.tournaments.fixtures(t.id)).filter((f) => f.stageId === stage.id);
    return {
      tournamentId: t.id,
      stageId: stage.id,
      odds: fixtures.map((f) => ({
        fixtureId: f.id,
        providerFixtureId: f.providerFixtureId,
        title: f.title,
        lockTime: new Date(f.lockAt).toISOString(),
        locked: fixtureStatus(f, now) !== 'SCHEDULED',
        odds: { home: decimalOdds(f.oddsHome), draw: decimalOdds(f.oddsDraw), away: decimalOdds(f.oddsAway) },
      })),
    };
  }

  async byWallet(address: string, limit: number, offset: number) {
    const wallet = getAddress(address);
    const [rows, total] = await Promise.all([
      this.db.read.tournaments.byWallet(wallet, limit, offset),
      this.db.read.tournaments.countByWallet(wallet),
    ]);
    const now = this.now();
    return { wallet, tournaments: rows.map((t) => ({ ...toTournament(t, this.vault, now), role: t.role })), total };
  }

  async globalLeaderboard(limit: number, offset: number) {
    const { rows, total } = await this.stats.globalLeaderboard(limit, offset);
    return {
      leaderboard: rows.map((r, i) => ({
        rank: offset + i + 1,
        wallet: getAddress(r.wallet),
        username: r.username,
        avatarUrl: r.avatarUrl,
        tournamentsPlayed: r.tournamentsPlayed,
        wins: r.wins,
        points: r.points,
        stagesPlayed: r.stagesPlayed,
      })),
      total,
    };
  }

  platformAggregate() {
    return this.stats.platformAggregate();
  }

  async creatorStats(address: string) {
    const wallet = getAddress(address);
    const [stats, bond] = await Promise.all([this.stats.creatorStats(wallet), this.bonds.status(wallet)]);
    return { wallet, ...stats, bond };
  }

  async userStats(address: string) {
    const wallet = getAddress(address);
    return { wallet, ...(await this.stats.userStats(wallet)) };
  }
}
