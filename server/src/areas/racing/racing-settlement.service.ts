import { getAddress, type Address } from 'viem';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { MotorsportSeason } from '../../adapters/sports-provider/motorsport.port.js';
import type { Clock } from '../../platform/clock.js';
import { jobContext, type OperationContext } from '../../platform/operation.context.js';
import type { DistributionBook } from '../../platform/merkle/distribution-book.js';
import type { Logger } from '../../logger.js';
import { tournamentPoolId } from '../tournaments/vault-pools.js';
import type { RacingDb, RacingRepos, RacingTournamentRow } from './racing.repository.js';
import { allEvents, countsForPeriod, raceOf, sideBetPick } from './racing.rules.js';
import { ELO_START, eloStep, scoreEvent, scoreSideBet, seasonPayouts } from './racing-scoring.math.js';
import type { SeasonCatalog } from './racing-season.cache.js';

const BPS = 10_000n;

export interface RacingSettlementDeps {
  readonly db: RacingDb;
  readonly seasons: SeasonCatalog;
  readonly vault: PrizeVaultPort;
  readonly book: DistributionBook;
  readonly treasury: Address;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** Season points of every wallet from the stored event scores and side bets, counting only each wallet's current period. */
export async function seasonTable(r: RacingRepos, tournamentId: string, season: MotorsportSeason) {
  const [entries, scores, periods, settled] = await Promise.all([
    r.t.tournaments.entries(tournamentId),
    r.racing.scores(tournamentId),
    r.racing.periods(tournamentId),
    r.racing.settled(tournamentId),
  ]);
  const periodOf = new Map(periods.map((p) => [p.wallet.toLowerCase(), new Date(p.periodStart)]));
  const events = new Map(allEvents(season).map((e) => [e.id, e]));
  const sideBets = (
    await Promise.all(season.rounds.map((round) => r.racing.sideBetsOfRound(tournamentId, round.id)))
  ).flat();
  const rows = new Map(
    entries.map((e) => [
      e.wallet.toLowerCase(),
      { wallet: getAddress(e.wallet), seq: e.seed, points: 0, events: 0, exact: 0, podium: 0 },
    ]),
  );
  for (const s of scores) {
    const row = rows.get(s.wallet.toLowerCase());
    const event = events.get(s.eventId);
    if (!row || !event || !countsForPeriod(event, periodOf.get(row.wallet.toLowerCase()))) continue;
    row.points += s.points;
    row.events += 1;
    row.exact += s.exact;
    row.podium += s.podium;
  }
  for (const b of sideBets) {
    const row = rows.get(b.wallet.toLowerCase());
    const round = season.rounds.find((x) => x.id === b.roundId);
    if (!row || !round || b.points === null) continue;
    if (!countsForPeriod(raceOf(round), periodOf.get(row.wallet.toLowerCase()))) continue;
    row.points += b.points;
  }
  const ranked = [...rows.values()].sort((a, b) => b.points - a.points || a.seq - b.seq);
  return { ranked, settledCount: settled.length };
}

/**
 * Moves racing tournaments along the season as the provider posts results: each finished (or
 * cancelled) session is settled once — its predictions scored, the weekend's side bets scored on
 * the race, the Elo ratings stepped — and when every session is settled the season closes: final
 * places, the payout table in the shared Merkle book, the root published on the vault and the fee
 * released. Each step is keyed, so a sweep that is run again or concurrently does nothing twice.
 */
export class RacingSettlementService {
  constructor(private readonly deps: RacingSettlementDeps) {}

  /** One sweep, as one operation (a job run, or a caller's context): its `now` judges every session. */
  async sweep(
    ctx: OperationContext = jobContext(this.deps.clock),
  ): Promise<{ settledEvents: number; completed: string[] }> {
    let settledEvents = 0;
    const completed: string[] = [];
    for (const racing of await this.deps.db.read.racing.open(100)) {
      try {
        const season = await this.deps.seasons.get(racing.seasonId);
        settledEvents += await this.settleEvents(ctx, racing, season);
        if (await this.closeSeason(ctx, racing, season)) completed.push(racing.tournamentId);
      } catch (err) {
        this.deps.logger.warn({ err, tournamentId: racing.tournamentId }, 'racing sweep failed for a tournament');
      }
    }
    return { settledEvents, completed };
  }

  private async settleEvents(
    ctx: OperationContext,
    racing: RacingTournamentRow,
    season: MotorsportSeason,
  ): Promise<number> {
    const now = ctx.now.getTime();
    const done = new Set((await this.deps.db.read.racing.settled(racing.tournamentId)).map((s) => s.eventId));
    let n = 0;
    // In session order: the Elo history is a fold over events in the order they finish.
    for (const event of allEvents(season).sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime() || a.id - b.id)) {
      if (done.has(event.id) || event.endsAt.getTime() > now) continue;
      const state = await this.deps.seasons.port.eventState(event.id);
      if (state.state === 'scheduled' || state.state === 'running') break;
      const outcome = state.state;
      const settledNow = await this.deps.db.transaction(async (r) => {
        await r.t.tournaments.lock(racing.tournamentId);
        const seq = await r.racing.insertSettled({
          tournamentId: racing.tournamentId,
          eventId: event.id,
          roundId: event.roundId,
          state: outcome,
          classification:
            state.state === 'finished'
              ? {
                  order: [...state.order],
                  fastestLapDriverId: state.fastestLapDriverId,
                  dnfDriverIds: [...state.dnfDriverIds],
                  safetyCar: state.safetyCar,
                }
              : null,
          settledAt: new Date(now),
        });
        if (seq === null) return false;
        if (state.state !== 'finished') return true;
        const predictions = await r.racing.predictionsOfEvent(racing.tournamentId, event.id);
        const scores = predictions.map((p) => {
          const s = scoreEvent(event.eventType, p.driverIds, state, p.lockedEarlyAt !== null);
          return { wallet: getAddress(p.wallet), s };
        });
        for (const { wallet, s } of scores) {
          await r.racing.insertScore(racing.tournamentId, {
            eventId: event.id,
            roundId: event.roundId,
            wallet,
            points: s.total,
            exact: s.exact,
            inTopN: s.inTopN,
            podium: s.podium,
            bonus: s.bonus,
          });
        }
        // Elo: the latest rating of each wallet, stepped by this event's scores.
        const history = await r.racing.eloHistory(racing.tournamentId);
        const ratings = new Map<string, number>();
        for (const h of history) ratings.set(h.wallet, h.ratingAfter);
        const next = eloStep(
          ratings,
          scores.map(({ wallet, s }) => ({ wallet, points: s.total })),
        );
        for (const { wallet } of scores) {
          await r.racing.insertElo(racing.tournamentId, {
            eventId: event.id,
            seq,
            wallet,
            ratingBefore: ratings.get(wallet) ?? ELO_START,
            ratingAfter: next.get(wallet) ?? ELO_START,
          });
        }
        // The race settles the weekend's side bets.
        const round = season.rounds.find((x) => x.id === event.roundId);
        if (round && raceOf(round).id === event.id) {
          for (const b of await r.racing.sideBetsOfRound(racing.tournamentId, round.id)) {
            await r.racing.setSideBetPoints(b.id, scoreSideBet(sideBetPick(b.prop, b.value), state));
          }
        }
        return true;
      });
      if (settledNow) n++;
    }
    return n;
  }

  /** After the last session: final places, the payout root (once), published on the vault with the fee released. */
  private async closeSeason(
    ctx: OperationContext,
    racing: RacingTournamentRow,
    season: MotorsportSeason,
  ): Promise<boolean> {
    const { db, book, vault } = this.deps;
    const events = allEvents(season);
    const settled = await db.read.racing.settled(racing.tournamentId);
    if (settled.length < events.length) return false;
    const t = await db.read.t.tournaments.byId(racing.tournamentId);
    if (!t || t.status === 'CANCELED') return false;
    const now = ctx.now;
    const poolId = tournamentPoolId(t.id);
    const { ranked, deposits } = await db.transaction(async (r) => {
      await r.t.tournaments.lock(t.id);
      const table = await seasonTable(r, t.id, season);
      // Places are written once, when the season closes; a retried payout reads them back.
      if (t.status === 'COMPLETED') return { ranked: table.ranked, deposits: await r.t.deposits.deposits(t.id) };
      const entries = await r.t.tournaments.entries(t.id);
      const entryOf = new Map(entries.map((e) => [e.wallet.toLowerCase(), e]));
      for (const [i, row] of table.ranked.entries()) {
        const e = entryOf.get(row.wallet.toLowerCase());
        if (e) {
          await r.t.tournaments.setPlacement(e.id, {
            placement: i + 1,
            stagesPlayed: 1,
            points: row.points,
            status: i === 0 ? 'CHAMPION' : 'ELIMINATED',
          });
        }
      }
      await r.t.tournaments.setCompleted(t.id, now, table.ranked[0]?.wallet ?? null);
      await r.racing.markCompleted(t.id, now);
      return { ranked: table.ranked, deposits: await r.t.deposits.deposits(t.id) };
    });
    const pool = deposits.filter((d) => !d.refundedAt).reduce((s, d) => s + BigInt(d.amount), 0n);
    const fee = (pool * BigInt(t.feeBps)) / BPS;
    const lines = seasonPayouts(
      pool - fee,
      t.payoutBps,
      ranked.map((r) => r.wallet),
    );
    if (lines.length === 0) {
      await db.read.racing.markPaid(t.id, now);
      return true;
    }
    const d = await book.record(
      poolId,
      'payout',
      t.stakeAsset,
      lines.map((l) => ({ account: getAddress(l.wallet), amount: l.amount })),
    );
    if (!d.publishTxHash) {
      const tx = await vault.setRoot(t.stakeAsset, poolId, 'payout', d.root as `0x${string}`, BigInt(d.total), {
        key: `racing:set-root:${t.id}:payout`,
      });
      await book.markPublished(d, tx);
    }
    if (fee > 0n) {
      await vault.release(t.stakeAsset, poolId, this.deps.treasury, fee, 'tournament-fee', {
        key: `racing:fee:${t.id}`,
      });
    }
    await db.read.racing.markPaid(t.id, now);
    return true;
  }
}
