import { getAddress, type Address, type Hex } from 'viem';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type {
  MotorsportEvent,
  MotorsportRound,
  MotorsportSeason,
} from '../../adapters/sports-provider/motorsport.port.js';
import type { Clock } from '../../platform/clock.js';
import { claimProofOf } from '../../platform/merkle/claim-proof.js';
import type { DistributionBook } from '../../platform/merkle/distribution-book.js';
import { DomainError } from '../../errors.js';
import type { TournamentRow } from '../tournaments/tournament.types.js';
import { tournamentPoolId } from '../tournaments/vault-pools.js';
import type { RacingDb, RacingTournamentRow, SettledEventRow } from './racing.repository.js';
import {
  allEvents,
  countsForPeriod,
  eventStatus,
  findEvent,
  findRound,
  raceOf,
  roundStatus,
  type SettledState,
} from './racing.rules.js';
import { ELO_START, POINTS, POSITIONS, SIDE_BET_POINTS, roundRating, seasonPayouts } from './racing-scoring.math.js';
import type { SeasonCatalog } from './racing-season.cache.js';
import { ShortCache } from './racing-season.cache.js';
import { seasonTable } from './racing-settlement.service.js';
import { toPrediction, toSideBet, type RacingService } from './racing.service.js';

const BPS = 10_000n;
/** How long heatmaps and the external dashboards are reused (docs/racing.md). */
export const SHORT_CACHE_MS = 15_000;

export interface RacingReadDeps {
  readonly db: RacingDb;
  readonly seasons: SeasonCatalog;
  readonly racing: RacingService;
  readonly book: DistributionBook;
  readonly vault: PrizeVaultPort;
  readonly clock: Clock;
}

type Loaded = Awaited<ReturnType<RacingService['load']>>;

type ExternalRow = Awaited<ReturnType<RacingReadService['externalRowOf']>>;
export interface ExternalFeed {
  readonly generatedAt: string;
  readonly cachedForSeconds: number;
  readonly tournaments: ExternalRow[];
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The reads of racing tournaments: season, rounds, crowd heatmaps, results, leaderboards, statistics, payouts, dashboards. */
export class RacingReadService {
  private readonly heatmaps: ShortCache<unknown>;
  private readonly dashboards: ShortCache<ExternalFeed>;

  constructor(private readonly deps: RacingReadDeps) {
    this.heatmaps = new ShortCache(deps.clock, SHORT_CACHE_MS);
    this.dashboards = new ShortCache(deps.clock, SHORT_CACHE_MS);
  }

  private now(): Date {
    return new Date(this.deps.clock.now());
  }

  private async settledOf(tournamentId: string): Promise<{ rows: SettledEventRow[]; state: SettledState }> {
    const rows = await this.deps.db.read.racing.settled(tournamentId);
    return { rows, state: new Map(rows.map((r) => [r.eventId, r.state])) };
  }

  private eventView(e: MotorsportEvent, now: Date, settled: SettledState) {
    return {
      id: e.id,
      roundId: e.roundId,
      eventType: e.eventType,
      lockTime: e.startsAt.toISOString(),
      startTime: e.startsAt.toISOString(),
      endTime: e.endsAt.toISOString(),
      status: eventStatus(e, now, settled),
      positions: POSITIONS[e.eventType],
    };
  }

  private roundView(r: MotorsportRound, now: Date, settled: SettledState) {
    const first = r.events[0];
    const last = r.events[r.events.length - 1];
    return {
      id: r.id,
      roundNumber: r.roundNumber,
      gpName: r.gpName,
      circuitName: r.circuitName,
      country: r.country,
      sprint: r.sprint,
      status: roundStatus(r, now, settled),
      startDate: (first?.startsAt ?? new Date(0)).toISOString(),
      endDate: (last?.endsAt ?? new Date(0)).toISOString(),
      events: r.events.map((e) => this.eventView(e, now, settled)),
    };
  }

  private summary(t: TournamentRow, racing: RacingTournamentRow, season: MotorsportSeason, settled: SettledState) {
    const now = this.now();
    const next = allEvents(season).find((e) => now < e.startsAt) ?? null;
    const round = next ? season.rounds.find((r) => r.id === next.roundId) : undefined;
    return {
      id: t.id,
      name: t.name,
      description: t.description,
      sport: t.sport,
      gameType: 'F1_GRID_PREDICTOR' as const,
      status: t.status,
      stakeAsset: t.stakeAsset,
      buyinUsdc: '0',
      entryCount: t.entryCount,
      prizePool: t.prizePool,
      ownerWallet: getAddress(t.ownerWallet),
      seasonId: racing.seasonId,
      seasonName: racing.seasonName,
      startsAt: new Date(t.startsAt).toISOString(),
      endsAt: new Date(t.endsAt).toISOString(),
      completedAt: iso(t.completedAt),
      minEntriesToActivate: t.minEntries,
      maxEntrants: t.maxEntrants,
      feeBps: t.feeBps,
      payoutBps: t.payoutBps,
      totalRounds: season.rounds.length,
      roundsCompleted: season.rounds.filter((r) => roundStatus(r, now, settled) === 'COMPLETED').length,
      nextEvent: next
        ? {
            eventId: next.id,
            roundId: next.roundId,
            eventType: next.eventType,
            gpName: round?.gpName ?? '',
            lockTime: next.startsAt.toISOString(),
          }
        : null,
    };
  }

  private async buyinOf(tournamentId: string): Promise<string> {
    return (await this.deps.db.read.t.tournaments.stages(tournamentId))[0]?.buyin ?? '0';
  }

  async detail(id: string) {
    const { t, racing, season } = await this.deps.racing.load(id);
    const { state } = await this.settledOf(t.id);
    return {
      ...this.summary(t, racing, season, state),
      buyinUsdc: await this.buyinOf(t.id),
      scoring: {
        positions: POSITIONS,
        exact: POINTS.exact,
        inTopN: POINTS.inTopN,
        podium: POINTS.podium,
        earlyLockBonusPct: POINTS.earlyLockBonusPct,
        sideBets: SIDE_BET_POINTS,
        eloStart: ELO_START,
        eloK: 32,
      },
    };
  }

  async drivers(id: string) {
    const { season } = await this.deps.racing.load(id);
    return {
      seasonId: season.id,
      drivers: season.drivers.map((d) => ({ ...d })),
      teams: season.teams.map((x) => ({ ...x })),
    };
  }

  async rounds(id: string) {
    const { t, season } = await this.deps.racing.load(id);
    const { state } = await this.settledOf(t.id);
    const now = this.now();
    return { rounds: season.rounds.map((r) => this.roundView(r, now, state)) };
  }

  async round(id: string, roundId: number) {
    const { t, season } = await this.deps.racing.load(id);
    const { state } = await this.settledOf(t.id);
    return this.roundView(findRound(season, roundId), this.now(), state);
  }

  /** Head-to-head pairs of a weekend, derived: the two drivers of each team, decided by the race. */
  async matchups(id: string, roundId: number) {
    const { t, season } = await this.deps.racing.load(id);
    const round = findRound(season, roundId);
    const race = raceOf(round);
    const { rows } = await this.settledOf(t.id);
    const result = rows.find((r) => r.eventId === race.id)?.classification ?? null;
    const place = new Map((result?.order ?? []).map((d, i) => [d, i]));
    return {
      roundId,
      raceEventId: race.id,
      source: 'TEAMMATES' as const,
      matchups: season.teams.flatMap((team) => {
        const [a, b] = season.drivers.filter((d) => d.teamId === team.id);
        if (!a || !b) return [];
        const pa = place.get(a.id);
        const pb = place.get(b.id);
        return [
          {
            id: `${roundId}-${team.id}`,
            teamId: team.id,
            teamName: team.name,
            driverA: { id: a.id, code: a.code, name: a.name },
            driverB: { id: b.id, code: b.code, name: b.name },
            winnerDriverId: pa === undefined || pb === undefined ? null : pa < pb ? a.id : b.id,
          },
        ];
      }),
    };
  }

  async sideBetsOfRound(id: string, roundId: number, viewer: Address | null) {
    const { t, season } = await this.deps.racing.load(id);
    const round = findRound(season, roundId);
    const race = raceOf(round);
    const bets = await this.deps.db.read.racing.sideBetsOfRound(t.id, roundId);
    const { state } = await this.settledOf(t.id);
    return {
      roundId,
      raceEventId: race.id,
      lockTime: race.startsAt.toISOString(),
      status: eventStatus(race, this.now(), state),
      props: (Object.keys(SIDE_BET_POINTS) as (keyof typeof SIDE_BET_POINTS)[]).map((prop) => ({
        prop,
        points: SIDE_BET_POINTS[prop],
        answer:
          prop === 'FASTEST_LAP'
            ? ('driverId' as const)
            : prop === 'SAFETY_CAR'
              ? ('value' as const)
              : ('count' as const),
      })),
      totalBets: bets.length,
      mine: viewer ? bets.filter((b) => b.wallet.toLowerCase() === viewer.toLowerCase()).map(toSideBet) : [],
    };
  }

  async sideBetHeatmap(id: string, roundId: number) {
    const { t, season } = await this.deps.racing.load(id);
    findRound(season, roundId);
    return this.heatmaps.get(`sb:${t.id}:${roundId}`, async () => {
      const rows = await this.deps.db.read.racing.sideBetHeatmap(t.id, roundId);
      const totals = new Map<string, number>();
      for (const r of rows) totals.set(r.prop, (totals.get(r.prop) ?? 0) + r.count);
      return {
        roundId,
        cachedForSeconds: SHORT_CACHE_MS / 1000,
        cells: rows.map((r) => ({
          prop: r.prop as keyof typeof SIDE_BET_POINTS,
          value: r.value,
          count: r.count,
          share: Math.round((r.count / (totals.get(r.prop) ?? 1)) * 10_000) / 10_000,
        })),
      };
    }) as Promise<{
      roundId: number;
      cachedForSeconds: number;
      cells: { prop: keyof typeof SIDE_BET_POINTS; value: string; count: number; share: number }[];
    }>;
  }

  async heatmap(id: string, eventId: number) {
    const { t, season } = await this.deps.racing.load(id);
    const event = findEvent(season, eventId);
    return this.heatmaps.get(`ev:${t.id}:${eventId}`, async () => {
      const [cells, predictions] = await Promise.all([
        this.deps.db.read.racing.heatmap(t.id, eventId),
        this.deps.db.read.racing.predictionsOfEvent(t.id, eventId),
      ]);
      const n = predictions.length;
      return {
        eventId,
        eventType: event.eventType,
        predictions: n,
        positions: POSITIONS[event.eventType],
        cachedForSeconds: SHORT_CACHE_MS / 1000,
        cells: cells.map((c) => ({ ...c, share: n ? Math.round((c.count / n) * 10_000) / 10_000 : 0 })),
      };
    }) as Promise<{
      eventId: number;
      eventType: MotorsportEvent['eventType'];
      predictions: number;
      positions: number;
      cachedForSeconds: number;
      cells: { position: number; driverId: number; count: number; share: number }[];
    }>;
  }

  private async eventResult(loaded: Loaded, eventId: number) {
    const { t, season } = loaded;
    const event = findEvent(season, eventId);
    const { rows, state } = await this.settledOf(t.id);
    const settled = rows.find((r) => r.eventId === eventId) ?? null;
    const scores = (await this.deps.db.read.racing.scores(t.id)).filter((s) => s.eventId === eventId);
    return { event, status: eventStatus(event, this.now(), state), settled, scores };
  }

  async results(id: string, eventId: number) {
    const loaded = await this.deps.racing.load(id);
    const { event, status, settled, scores } = await this.eventResult(loaded, eventId);
    const byId = new Map(loaded.season.drivers.map((d) => [d.id, d]));
    const c = settled?.classification ?? null;
    const dnf = new Set(c?.dnfDriverIds ?? []);
    return {
      eventId,
      roundId: event.roundId,
      eventType: event.eventType,
      status,
      classification: (c?.order ?? []).map((driverId, i) => ({
        position: i + 1,
        driverId,
        code: byId.get(driverId)?.code ?? '',
        name: byId.get(driverId)?.name ?? '',
        teamName: byId.get(driverId)?.teamName ?? '',
        dnf: dnf.has(driverId),
      })),
      fastestLapDriverId: c?.fastestLapDriverId ?? null,
      safetyCar: c?.safetyCar ?? null,
      scores: [...scores]
        .sort((a, b) => b.points - a.points || a.wallet.localeCompare(b.wallet))
        .map((s) => ({
          wallet: getAddress(s.wallet),
          points: s.points,
          exact: s.exact,
          inTopN: s.inTopN,
          podium: s.podium,
          bonus: s.bonus,
        })),
    };
  }

  async raceAnalytics(id: string, eventId: number) {
    const loaded = await this.deps.racing.load(id);
    const { event, status, settled, scores } = await this.eventResult(loaded, eventId);
    const predictions = await this.deps.db.read.racing.predictionsOfEvent(loaded.t.id, eventId);
    const order = settled?.classification?.order ?? [];
    const winnerPicks = new Map<number, number>();
    for (const p of predictions) {
      const w = p.driverIds[0];
      if (w !== undefined) winnerPicks.set(w, (winnerPicks.get(w) ?? 0) + 1);
    }
    const favourite = [...winnerPicks.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
    const best = [...scores].sort((a, b) => b.points - a.points || a.wallet.localeCompare(b.wallet))[0];
    return {
      eventId,
      eventType: event.eventType,
      status,
      predictions: predictions.length,
      earlyLocks: predictions.filter((p) => p.lockedEarlyAt).length,
      mostPickedWinner: favourite ? { driverId: favourite[0], count: favourite[1] } : null,
      actualWinnerDriverId: order[0] ?? null,
      averagePoints: scores.length
        ? Math.round((scores.reduce((s, x) => s + x.points, 0) / scores.length) * 100) / 100
        : 0,
      bestPoints: best?.points ?? 0,
      bestWallet: best ? getAddress(best.wallet) : null,
      perfectPredictions: scores.filter((s) => s.exact === POSITIONS[event.eventType]).length,
      positionAccuracy: order.length
        ? Array.from({ length: POSITIONS[event.eventType] }, (_, i) => {
            const correct = predictions.filter((p) => p.driverIds[i] === order[i]).length;
            return {
              position: i + 1,
              correct,
              share: predictions.length ? Math.round((correct / predictions.length) * 10_000) / 10_000 : 0,
            };
          })
        : [],
    };
  }

  private async eloRatings(tournamentId: string) {
    const history = await this.deps.db.read.racing.eloHistory(tournamentId);
    const ratings = new Map<string, { rating: number; events: number }>();
    for (const h of history) {
      const k = h.wallet.toLowerCase();
      ratings.set(k, { rating: h.ratingAfter, events: (ratings.get(k)?.events ?? 0) + 1 });
    }
    return ratings;
  }

  async seasonLeaderboard(id: string, limit: number, offset: number) {
    const { t, season } = await this.deps.racing.load(id);
    const { ranked } = await seasonTable(this.deps.db.read, t.id, season);
    const elo = await this.eloRatings(t.id);
    const page = ranked.slice(offset, offset + limit);
    const names = await this.deps.db.read.racing.usernames(page.map((r) => r.wallet));
    return {
      total: ranked.length,
      rows: page.map((r, i) => ({
        rank: offset + i + 1,
        wallet: r.wallet,
        username: names.get(r.wallet.toLowerCase()) ?? null,
        seasonPoints: r.points,
        eloRating: roundRating(elo.get(r.wallet.toLowerCase())?.rating ?? ELO_START),
        racesParticipated: r.events,
      })),
    };
  }

  async weekendLeaderboard(id: string, roundId: number) {
    const { t, season } = await this.deps.racing.load(id);
    const round = findRound(season, roundId);
    const [entries, scores, bets, periods] = await Promise.all([
      this.deps.db.read.t.tournaments.entries(t.id),
      this.deps.db.read.racing.scores(t.id),
      this.deps.db.read.racing.sideBetsOfRound(t.id, roundId),
      this.deps.db.read.racing.periods(t.id),
    ]);
    const periodOf = new Map(periods.map((p) => [p.wallet.toLowerCase(), new Date(p.periodStart)]));
    const events = new Map(round.events.map((e) => [e.id, e]));
    const rows = entries.map((e) => {
      const w = e.wallet.toLowerCase();
      const period = periodOf.get(w);
      const eventPoints = scores
        .filter((s) => s.wallet.toLowerCase() === w && events.has(s.eventId))
        .filter((s) => countsForPeriod(events.get(s.eventId) as MotorsportEvent, period))
        .reduce((sum, s) => sum + s.points, 0);
      const sideBetPoints = countsForPeriod(raceOf(round), period)
        ? bets.filter((b) => b.wallet.toLowerCase() === w).reduce((sum, b) => sum + (b.points ?? 0), 0)
        : 0;
      return {
        wallet: getAddress(e.wallet),
        seq: e.seed,
        eventPoints,
        sideBetPoints,
        totalPoints: eventPoints + sideBetPoints,
      };
    });
    rows.sort((a, b) => b.totalPoints - a.totalPoints || a.seq - b.seq);
    const names = await this.deps.db.read.racing.usernames(rows.map((r) => r.wallet));
    return {
      roundId,
      gpName: round.gpName,
      rows: rows.map((r, i) => ({
        rank: i + 1,
        wallet: r.wallet,
        username: names.get(r.wallet.toLowerCase()) ?? null,
        totalPoints: r.totalPoints,
        eventPoints: r.eventPoints,
        sideBetPoints: r.sideBetPoints,
      })),
    };
  }

  async eloLeaderboard(id: string) {
    const { t } = await this.deps.racing.load(id);
    const entries = await this.deps.db.read.t.tournaments.entries(t.id);
    const elo = await this.eloRatings(t.id);
    const rows = entries
      .map((e) => ({
        wallet: getAddress(e.wallet),
        seq: e.seed,
        rating: elo.get(e.wallet.toLowerCase())?.rating ?? ELO_START,
        events: elo.get(e.wallet.toLowerCase())?.events ?? 0,
      }))
      .sort((a, b) => b.rating - a.rating || a.seq - b.seq);
    const names = await this.deps.db.read.racing.usernames(rows.map((r) => r.wallet));
    return {
      startRating: ELO_START,
      k: 32,
      rows: rows.map((r, i) => ({
        rank: i + 1,
        wallet: r.wallet,
        username: names.get(r.wallet.toLowerCase()) ?? null,
        eloRating: roundRating(r.rating),
        eventsRated: r.events,
      })),
    };
  }

  async myPicks(id: string, address: string) {
    const { t } = await this.deps.racing.load(id);
    const [predictions, bets] = await Promise.all([
      this.deps.db.read.racing.predictionsOfWallet(t.id, address),
      this.deps.db.read.racing.sideBetsOfWallet(t.id, address),
    ]);
    return { wallet: getAddress(address), predictions: predictions.map(toPrediction), sideBets: bets.map(toSideBet) };
  }

  async predictionOf(id: string, address: string, eventId: number) {
    const { t, season } = await this.deps.racing.load(id);
    findEvent(season, eventId);
    const p = await this.deps.db.read.racing.predictionOf(t.id, eventId, address);
    if (!p) {
      throw new DomainError('NOT_FOUND', `${getAddress(address)} has no prediction for event ${eventId}`, {
        details: { eventId, wallet: getAddress(address) },
      });
    }
    const score = (await this.deps.db.read.racing.scores(t.id)).find(
      (s) => s.eventId === eventId && s.wallet.toLowerCase() === address.toLowerCase(),
    );
    return { ...toPrediction(p), points: score?.points ?? null };
  }

  async stats(id: string, address: string) {
    const { t, season } = await this.deps.racing.load(id);
    const wallet = getAddress(address);
    const [entry, predictions, table, elo, period] = await Promise.all([
      this.deps.db.read.t.tournaments.entryOf(t.id, wallet),
      this.deps.db.read.racing.predictionsOfWallet(t.id, wallet),
      seasonTable(this.deps.db.read, t.id, season),
      this.eloRatings(t.id),
      this.deps.db.read.racing.period(t.id, wallet),
    ]);
    const scores = (await this.deps.db.read.racing.scores(t.id)).filter(
      (s) => s.wallet.toLowerCase() === wallet.toLowerCase(),
    );
    const index = table.ranked.findIndex((r) => r.wallet.toLowerCase() === wallet.toLowerCase());
    return {
      wallet,
      entered: entry !== null,
      rank: index >= 0 ? index + 1 : null,
      seasonPoints: index >= 0 ? (table.ranked[index]?.points ?? 0) : 0,
      eloRating: roundRating(elo.get(wallet.toLowerCase())?.rating ?? ELO_START),
      eventsPredicted: predictions.length,
      eventsScored: scores.length,
      exactHits: scores.reduce((s, x) => s + x.exact, 0),
      podiumHits: scores.reduce((s, x) => s + x.podium, 0),
      bestEventPoints: scores.reduce((m, x) => Math.max(m, x.points), 0),
      earlyLocks: predictions.filter((p) => p.lockedEarlyAt).length,
      reentries: period?.reentries ?? 0,
    };
  }

  async dashboard(id: string, viewer: Address | null) {
    const { t, racing, season } = await this.deps.racing.load(id);
    const { state } = await this.settledOf(t.id);
    const board = await this.seasonLeaderboard(t.id, 5, 0);
    const now = this.now();
    const current =
      season.rounds.find((r) => roundStatus(r, now, state) === 'LIVE') ??
      season.rounds.find((r) => roundStatus(r, now, state) === 'UPCOMING') ??
      null;
    return {
      tournament: { ...this.summary(t, racing, season, state), buyinUsdc: await this.buyinOf(t.id) },
      currentRound: current ? this.roundView(current, now, state) : null,
      leaders: board.rows,
      me: viewer ? await this.stats(t.id, viewer) : null,
    };
  }

  /** One tournament of the external feed (public for its type only). */
  async externalRowOf(id: string, full: boolean) {
    return this.externalRow(id, full);
  }

  private async externalRow(id: string, full: boolean) {
    const { t, racing, season } = await this.deps.racing.load(id);
    const { state } = await this.settledOf(t.id);
    const base = { ...this.summary(t, racing, season, state), buyinUsdc: await this.buyinOf(t.id) };
    const top = await this.seasonLeaderboard(t.id, full ? 10 : 1, 0);
    const leader = top.rows[0];
    return {
      ...base,
      leader: leader ? { wallet: leader.wallet, username: leader.username, seasonPoints: leader.seasonPoints } : null,
      ...(full
        ? {
            leaderboard: top.rows,
            rounds: season.rounds.map((r) => ({
              id: r.id,
              roundNumber: r.roundNumber,
              gpName: r.gpName,
              status: roundStatus(r, this.now(), state),
            })),
          }
        : {}),
    };
  }

  /** The embeddable feed across racing tournaments (newest first), reused for a few seconds. */
  async external(full: boolean, limit: number): Promise<ExternalFeed> {
    return this.dashboards.get(`ext:${full}:${limit}`, async () => {
      const ids = await this.deps.db.read.racing.ids(limit);
      const rows = await Promise.all(ids.map((id) => this.externalRow(id, full)));
      return { generatedAt: this.now().toISOString(), cachedForSeconds: SHORT_CACHE_MS / 1000, tournaments: rows };
    });
  }

  private async payoutLines(t: TournamentRow) {
    const poolId = tournamentPoolId(t.id);
    const d = await this.deps.book.find(poolId, 'payout');
    const deposits = await this.deps.db.read.t.deposits.deposits(t.id);
    const pool = deposits.filter((x) => !x.refundedAt).reduce((s, x) => s + BigInt(x.amount), 0n);
    const fee = (pool * BigInt(t.feeBps)) / BPS;
    const entries = await this.deps.db.read.t.tournaments.entries(t.id);
    const placementOf = new Map(entries.map((e) => [e.wallet.toLowerCase(), e.placement]));
    if (d) {
      const leaves = await this.deps.book.leaves(d, { offset: 0, limit: 10_000 });
      return {
        d,
        pool,
        fee,
        lines: leaves
          .map((l) => ({
            wallet: getAddress(l.account),
            placement: placementOf.get(l.account.toLowerCase()) ?? null,
            amount: l.amount,
            claimed: l.claimed,
          }))
          .sort((a, b) => (a.placement ?? Infinity) - (b.placement ?? Infinity)),
      };
    }
    // Before the season closes: the projection from the standings now.
    const season = await this.deps.seasons.get((await this.deps.db.read.racing.racing(t.id))?.seasonId ?? 0);
    const { ranked } = await seasonTable(this.deps.db.read, t.id, season);
    return {
      d: null,
      pool,
      fee,
      lines: seasonPayouts(
        pool - fee,
        t.payoutBps,
        ranked.map((r) => r.wallet),
      ).map((l) => ({
        wallet: getAddress(l.wallet),
        placement: l.placement,
        amount: l.amount,
        claimed: false,
      })),
    };
  }

  async payouts(id: string) {
    const { t } = await this.deps.racing.load(id);
    const { d, pool, fee, lines } = await this.payoutLines(t);
    return {
      tournamentId: t.id,
      status: d ? (d.status === 'published' ? ('published' as const) : ('built' as const)) : ('projected' as const),
      stakeAsset: t.stakeAsset,
      prizePool: pool.toString(),
      fee: fee.toString(),
      distributable: (pool - fee).toString(),
      root: (d?.root as Hex | undefined) ?? null,
      payouts: lines.map((l) => ({ ...l, amount: l.amount.toString() })),
    };
  }

  async myPayout(id: string, wallet: Address | null) {
    if (!wallet) throw walletRequired();
    const { t } = await this.deps.racing.load(id);
    const { d, lines } = await this.payoutLines(t);
    const mine = lines.find((l) => l.wallet.toLowerCase() === wallet.toLowerCase());
    return {
      tournamentId: t.id,
      wallet: getAddress(wallet),
      status: d ? (d.status === 'published' ? ('published' as const) : ('built' as const)) : ('projected' as const),
      placement: mine?.placement ?? null,
      amount: (mine?.amount ?? 0n).toString(),
      claimed: mine?.claimed ?? false,
      claimable: d?.status === 'published' && mine !== undefined && !mine.claimed,
    };
  }

  async claimProof(id: string, wallet: Address | null) {
    if (!wallet) throw walletRequired();
    const { t } = await this.deps.racing.load(id);
    const poolId = tournamentPoolId(t.id);
    if (!(await this.deps.book.find(poolId, 'payout'))) {
      throw new DomainError(
        'PAYOUT_NOT_READY',
        `Tournament ${t.id} has no payout root yet: the season has not closed`,
        {
          details: { tournamentId: t.id, reasons: [{ code: 'ROOT_NOT_BUILT', message: 'No payout root yet' }] },
        },
      );
    }
    const leaf = await this.deps.book.proof(poolId, 'payout', wallet);
    if (!leaf) {
      throw new DomainError('NOT_FOUND', `${getAddress(wallet)} has no payout in tournament ${t.id}`, {
        details: { tournamentId: t.id, wallet: getAddress(wallet) },
      });
    }
    const claimed =
      leaf.claimed ||
      (leaf.published && (await this.deps.vault.isClaimed(t.stakeAsset, poolId, 'payout', leaf.account)));
    return claimProofOf(leaf, t.stakeAsset, this.deps.vault.claimCall(t.stakeAsset, leaf), claimed);
  }
}

/** A read of one wallet's line without a caller to take it from: the wallet is a missing input (the route's auth is optional). */
function walletRequired(): DomainError {
  return new DomainError('VALIDATION_FAILED', 'Send a bearer token, or name the wallet with ?wallet=', {
    fieldErrors: { 'query.wallet': ['required without a bearer token'] },
  });
}
