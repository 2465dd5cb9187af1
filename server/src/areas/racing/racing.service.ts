import { randomUUID } from 'node:crypto';
import { getAddress, type Hash } from 'viem';
import type { CollateralKind } from '../../adapters/chain/chain.port.js';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { OperationContext } from '../../platform/operation.context.js';
import type { Region } from '../../platform/geo/region.js';
import { DomainError } from '../../errors.js';
import type { BondService, SignerLookup } from '../tournaments/tournament-bond.service.js';
import { verifyDeposit } from '../tournaments/deposit-verifier.js';
import type { EntryService } from '../tournaments/tournament-entry.service.js';
import {
  MINIMUM_BUYIN,
  type Actor,
  type TournamentRow,
  type TournamentSettings,
} from '../tournaments/tournament.types.js';
import { tournamentPoolId } from '../tournaments/vault-pools.js';
import type { PredictionRow, RacingDb } from './racing.repository.js';
import {
  allEvents,
  assertOpen,
  assertPrediction,
  findEvent,
  findRound,
  raceOf,
  reentryProblem,
  sideBetValue,
  type SideBetInput,
} from './racing.rules.js';
import { POINTS } from './racing-scoring.math.js';
import type { SeasonCatalog } from './racing-season.cache.js';

export const F1_GAME_TYPE = 'F1_GRID_PREDICTOR';

export interface CreateRacingInput {
  readonly name: string;
  readonly description?: string | undefined;
  readonly stakeAsset: CollateralKind;
  readonly buyinUsdc: string;
  readonly seasonId?: number | undefined;
  readonly clientTournamentId?: string | undefined;
  readonly creatorDepositTxHash?: string | undefined;
  readonly minEntriesToActivate: number;
  readonly maxEntrants?: number | undefined;
  readonly payoutBps?: readonly number[] | undefined;
}

export interface RacingServiceDeps {
  readonly db: RacingDb;
  readonly seasons: SeasonCatalog;
  readonly vault: PrizeVaultPort;
  readonly signers: SignerLookup;
  readonly bonds: BondService;
  readonly entries: EntryService;
  readonly settings: TournamentSettings;
}

export const toPrediction = (p: PredictionRow) => ({
  id: p.id,
  tournamentId: p.tournamentId,
  eventId: p.eventId,
  roundId: p.roundId,
  wallet: getAddress(p.wallet),
  driverIds: p.driverIds,
  lockedEarly: p.lockedEarlyAt !== null,
  lockedEarlyAt: p.lockedEarlyAt ? new Date(p.lockedEarlyAt).toISOString() : null,
  createdAt: new Date(p.createdAt).toISOString(),
  updatedAt: new Date(p.updatedAt).toISOString(),
});

/**
 * The writes of racing tournaments: the paid create (deposit first, as every tournament), entry
 * and re-entry through the tournaments vault, predictions with their edits and early locks, and
 * side bets. Every rule is judged at the operation's `now` (`ctx.now`, from the injected clock).
 */
export class RacingService {
  constructor(private readonly deps: RacingServiceDeps) {}

  /** The racing tournament `id` with its season, or NOT_FOUND (a classic tournament is not one). */
  async load(id: string) {
    const tournamentId = id.toLowerCase();
    const [t, racing] = await Promise.all([
      this.deps.db.read.t.tournaments.byId(tournamentId),
      this.deps.db.read.racing.racing(tournamentId),
    ]);
    if (!t || !racing || t.gameType !== F1_GAME_TYPE) {
      throw new DomainError('NOT_FOUND', `No racing tournament ${id}`, { details: { tournamentId: id } });
    }
    return { t, racing, season: await this.deps.seasons.get(racing.seasonId) };
  }

  async create(
    ctx: OperationContext,
    actor: Actor,
    body: CreateRacingInput,
  ): Promise<{ id: string; created: boolean }> {
    const buyin = BigInt(body.buyinUsdc);
    if (buyin < MINIMUM_BUYIN) {
      throw new DomainError(
        'BUYIN_BELOW_MINIMUM',
        'The buy-in must be at least 5 units; free tournaments are not offered',
        {
          details: { minimum: MINIMUM_BUYIN.toString(), buyin: buyin.toString() },
        },
      );
    }
    if (!body.clientTournamentId || !body.creatorDepositTxHash) {
      throw new DomainError(
        'PAID_TOURNAMENT_REQUIRES_DEPOSIT',
        'Paid tournaments require clientTournamentId and creatorDepositTxHash: deposit the buy-in into the vault for that id first',
        {
          details: {
            missing: [
              ...(body.clientTournamentId ? [] : ['clientTournamentId']),
              ...(body.creatorDepositTxHash ? [] : ['creatorDepositTxHash']),
            ],
          },
        },
      );
    }
    const payoutBps = body.payoutBps ?? [...this.deps.settings.payoutBps];
    if (payoutBps.reduce((a, b) => a + b, 0) !== 10_000) {
      throw new DomainError('VALIDATION_FAILED', 'payoutBps must sum to 10000', {
        fieldErrors: { 'body.payoutBps': ['must sum to 10000'] },
      });
    }
    const maxEntrants = body.maxEntrants ?? this.deps.settings.maxEntrants;
    if (body.minEntriesToActivate > maxEntrants) {
      throw new DomainError('VALIDATION_FAILED', 'minEntriesToActivate must not exceed maxEntrants', {
        fieldErrors: { 'body.minEntriesToActivate': [`must not exceed maxEntrants (${maxEntrants})`] },
      });
    }
    const id = body.clientTournamentId.toLowerCase();
    const txHash = body.creatorDepositTxHash.toLowerCase() as Hash;
    const { db } = this.deps;
    const existing = await db.read.t.tournaments.byId(id);
    if (existing) return { id, created: this.replayed(existing, actor, txHash) };
    if ((await db.read.t.deposits.deposit(txHash)) || (await db.read.t.bonds.movementByTx(txHash))) {
      throw new DomainError('DEPOSIT_ALREADY_USED', 'This deposit already paid for something else', {
        details: { txHash },
      });
    }
    await this.deps.bonds.assertSufficient(db.read.t, actor.wallet, false);
    const now = ctx.now;
    const seasonId = body.seasonId ?? (await this.deps.seasons.port.currentSeasonId(now));
    const season = seasonId === null ? null : await this.deps.seasons.find(seasonId);
    const events = season ? allEvents(season) : [];
    const first = events[0];
    const last = events[events.length - 1];
    if (!season || !first || !last) {
      throw new DomainError('SEASON_UNAVAILABLE', `The provider has no season ${seasonId ?? '(none upcoming)'}`, {
        details: { seasonId },
      });
    }
    if (first.startsAt <= now) {
      throw new DomainError('SEASON_UNAVAILABLE', `Season ${season.id} has started: its first session locked`, {
        details: { seasonId: season.id, firstLock: first.startsAt.toISOString() },
      });
    }
    await verifyDeposit(this.deps.vault, txHash, {
      collateral: body.stakeAsset,
      poolId: tournamentPoolId(id),
      stage: 1,
      amount: buyin,
      senders: actor.senders,
    });
    const created = await db.transaction(async (r) => {
      await this.deps.bonds.assertSufficient(r.t, actor.wallet);
      const inserted = await r.t.tournaments.insertTournament({
        id,
        builderAppId: actor.builderAppId,
        name: body.name,
        description: body.description ?? null,
        sport: 'Formula 1',
        league: season.name,
        category: 'Formula 1',
        gameType: F1_GAME_TYPE,
        // The classic format fields are nominal here: one season-long stage, no bracket.
        format: 'KNOCKOUT',
        type: 'PROTOCOL',
        status: 'LIVE',
        stakeAsset: body.stakeAsset,
        ownerWallet: actor.wallet,
        ownerUserId: actor.userId,
        totalStages: 1,
        minEntries: body.minEntriesToActivate,
        maxEntrants,
        // Nominal for a season (no chips, groups or fixtures): the classic defaults keep the shared row valid.
        chipsPerStage: this.deps.settings.chipsPerStage,
        groupSize: this.deps.settings.groupSize,
        advancePerGroup: this.deps.settings.advancePerGroup,
        fixturesPerStage: 1,
        leagueId: season.id,
        feeBps: this.deps.settings.feeBps,
        payoutBps: [...payoutBps],
        creatorDepositTxHash: txHash,
        poolId: tournamentPoolId(id),
        startsAt: first.startsAt,
        endsAt: last.endsAt,
        createdAt: now,
      });
      if (!inserted) {
        const winner = await r.t.tournaments.byId(id);
        if (winner) return this.replayed(winner, actor, txHash);
        throw new DomainError('DEPOSIT_ALREADY_USED', 'This deposit already created another tournament', {
          details: { txHash },
        });
      }
      if (
        !(await r.t.deposits.insertDeposit({
          txHash,
          tournamentId: id,
          stageIndex: 1,
          wallet: actor.wallet,
          amount: buyin.toString(),
          purpose: 'create',
        }))
      ) {
        throw new DomainError('DEPOSIT_ALREADY_USED', 'This deposit already paid for something else', {
          details: { txHash },
        });
      }
      await r.t.tournaments.insertStage({
        id: randomUUID(),
        tournamentId: id,
        stageIndex: 1,
        stageName: 'Season',
        kind: 'KNOCKOUT',
        buyin: buyin.toString(),
        multiplier: 1,
        isFinal: true,
        startChips: this.deps.settings.chipsPerStage,
        windowStart: first.startsAt,
        windowEnd: last.endsAt,
        startsAt: first.startsAt,
        lockAt: first.startsAt,
        endsAt: last.endsAt,
      });
      await r.t.tournaments.insertEntry({
        id: randomUUID(),
        tournamentId: id,
        wallet: actor.wallet,
        userId: actor.userId,
        isCreator: true,
        depositTxHash: txHash,
        enteredAt: now,
      });
      await r.racing.insertRacing({ tournamentId: id, seasonId: season.id, seasonName: season.name });
      return true;
    });
    return { id, created };
  }

  private replayed(existing: TournamentRow, actor: Actor, txHash: string): false {
    const same =
      existing.gameType === F1_GAME_TYPE &&
      existing.ownerWallet.toLowerCase() === actor.wallet.toLowerCase() &&
      existing.creatorDepositTxHash.toLowerCase() === txHash.toLowerCase();
    if (!same) {
      throw new DomainError(
        'TOURNAMENT_ID_TAKEN',
        'A tournament with this id exists; generate a new clientTournamentId',
        {
          details: { tournamentId: existing.id },
        },
      );
    }
    return false;
  }

  /** Entry through the tournaments area: the same verified vault deposit, eligibility and capacity. */
  async enter(
    ctx: OperationContext,
    actor: Actor,
    id: string,
    body: { depositTxHash: string; wallet?: string | undefined },
    region: Region,
  ) {
    const { t } = await this.load(id);
    return this.deps.entries.enter(actor, t.id, { ...body, stageIndex: 1 }, region);
  }

  async eligibility(id: string, wallet: string, region: Region) {
    const { t } = await this.load(id);
    return this.deps.entries.eligibility(t.id, wallet, region);
  }

  /**
   * A fresh card for a new period: the entrant pays the buy-in again (a verified vault deposit,
   * or with `execute` one sent from the bearer's managed wallet) and their season score restarts
   * with the next session; earlier predictions stay visible but stop counting.
   */
  async reenter(
    ctx: OperationContext,
    actor: Actor,
    id: string,
    body: { depositTxHash?: string | undefined; execute: boolean },
  ) {
    const { t, season } = await this.load(id);
    const { db } = this.deps;
    const entry = await db.read.t.tournaments.entryOf(t.id, actor.wallet);
    if (!entry) throw new DomainError('NOT_ENTERED', 'Only an entrant can re-enter: enter first');
    const now = ctx.now;
    if (t.status !== 'LIVE') {
      throw new DomainError('REENTRY_NOT_ALLOWED', `The tournament is ${t.status}`, {
        details: { reason: 'NOT_LIVE' },
      });
    }
    const period = await db.read.racing.period(t.id, actor.wallet);
    const periodStart = period ? new Date(period.periodStart) : new Date(t.createdAt);
    if (body.depositTxHash && period?.lastDepositTxHash === body.depositTxHash.toLowerCase()) {
      return this.reentryView(t.id, actor.wallet, false);
    }
    const problem = reentryProblem(season, periodStart, now);
    if (problem) throw new DomainError('REENTRY_NOT_ALLOWED', problem, { details: { reason: problem } });
    const buyin = BigInt((await db.read.t.tournaments.stages(t.id))[0]?.buyin ?? '0');
    const poolId = tournamentPoolId(t.id);
    let txHash: Hash;
    if (body.depositTxHash) {
      txHash = body.depositTxHash.toLowerCase() as Hash;
    } else if (body.execute && actor.userId) {
      txHash = await this.deps.vault.deposit(
        await this.deps.signers.forUser(actor.userId),
        t.stakeAsset,
        poolId,
        1,
        buyin,
        {
          key: `racing:reenter:${t.id}:${actor.wallet.toLowerCase()}:${period?.reentries ?? 0}`,
          write: ctx.writeKey('reenter-deposit'),
          refusal: 'INSUFFICIENT_BALANCE',
        },
      );
    } else {
      throw new DomainError('VALIDATION_FAILED', 'Send depositTxHash, or execute: true with a bearer token', {
        fieldErrors: { 'body.depositTxHash': ['required unless execute is true with a bearer token'] },
      });
    }
    if (await db.read.t.deposits.deposit(txHash)) {
      throw new DomainError('DEPOSIT_ALREADY_USED', 'This deposit already paid for something else', {
        details: { txHash },
      });
    }
    await verifyDeposit(this.deps.vault, txHash, {
      collateral: t.stakeAsset,
      poolId,
      stage: 1,
      amount: buyin,
      senders: actor.senders,
    });
    await db.transaction(async (r) => {
      await r.t.tournaments.lock(t.id);
      if (
        !(await r.t.deposits.insertDeposit({
          txHash,
          tournamentId: t.id,
          stageIndex: 1,
          wallet: actor.wallet,
          amount: buyin.toString(),
          purpose: 'reenter',
        }))
      ) {
        throw new DomainError('DEPOSIT_ALREADY_USED', 'This deposit already paid for something else', {
          details: { txHash },
        });
      }
      await r.racing.upsertPeriod({
        tournamentId: t.id,
        wallet: actor.wallet,
        periodStart: now,
        reentries: (period?.reentries ?? 0) + 1,
        lastDepositTxHash: txHash,
      });
    });
    return this.reentryView(t.id, actor.wallet, true);
  }

  private async reentryView(tournamentId: string, wallet: string, created: boolean) {
    const p = await this.deps.db.read.racing.period(tournamentId, wallet);
    if (!p) throw new DomainError('NOT_FOUND', 'No re-entry recorded');
    return {
      tournamentId,
      wallet: getAddress(wallet),
      periodStart: new Date(p.periodStart).toISOString(),
      reentries: p.reentries,
      depositTxHash: p.lastDepositTxHash as Hash,
      created,
    };
  }

  private async assertEntrant(tournamentId: string, wallet: string) {
    if (!(await this.deps.db.read.t.tournaments.entryOf(tournamentId, wallet))) {
      throw new DomainError('NOT_ENTERED', 'Enter the tournament before predicting');
    }
  }

  /** A new prediction for an event (one per entrant and event), open until the event's lock. */
  async predict(ctx: OperationContext, actor: Actor, id: string, eventId: number, driverIds: readonly number[]) {
    const { t, season } = await this.load(id);
    const event = findEvent(season, eventId);
    await this.assertEntrant(t.id, actor.wallet);
    assertOpen(event, ctx.now);
    assertPrediction(event, driverIds, new Set(season.drivers.map((d) => d.id)));
    const existing = await this.deps.db.read.racing.predictionOf(t.id, eventId, actor.wallet);
    if (existing) {
      if (JSON.stringify(existing.driverIds) === JSON.stringify(driverIds)) return toPrediction(existing);
      throw new DomainError('ALREADY_PICKED', 'You have a prediction for this event: PUT it to change it', {
        details: { predictionId: existing.id },
      });
    }
    const now = ctx.now;
    const row = {
      id: randomUUID(),
      tournamentId: t.id,
      eventId,
      roundId: event.roundId,
      wallet: actor.wallet,
      driverIds: [...driverIds],
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.deps.db.read.racing.insertPrediction(row))) {
      const raced = await this.deps.db.read.racing.predictionOf(t.id, eventId, actor.wallet);
      if (raced) return toPrediction(raced);
    }
    return toPrediction({ ...row, lockedEarlyAt: null });
  }

  private async ownPrediction(ctx: OperationContext, actor: Actor, id: string, predictionId: string) {
    const { t, season } = await this.load(id);
    const p = await this.deps.db.read.racing.prediction(t.id, predictionId);
    if (!p) throw new DomainError('NOT_FOUND', `No prediction ${predictionId}`, { details: { predictionId } });
    if (p.wallet.toLowerCase() !== actor.wallet.toLowerCase()) {
      throw new DomainError('FORBIDDEN', 'This prediction is someone else’s', { details: { predictionId } });
    }
    const event = findEvent(season, p.eventId);
    assertOpen(event, ctx.now);
    if (p.lockedEarlyAt) {
      throw new DomainError('PREDICTION_LOCKED', 'You locked this prediction early', {
        details: { eventId: event.id, lockTime: new Date(p.lockedEarlyAt).toISOString() },
      });
    }
    return { t, season, p, event };
  }

  async update(ctx: OperationContext, actor: Actor, id: string, predictionId: string, driverIds: readonly number[]) {
    const { season, p, event } = await this.ownPrediction(ctx, actor, id, predictionId);
    assertPrediction(event, driverIds, new Set(season.drivers.map((d) => d.id)));
    const now = ctx.now;
    await this.deps.db.read.racing.updatePrediction(p.id, driverIds, now);
    return toPrediction({ ...p, driverIds: [...driverIds], updatedAt: now });
  }

  async remove(ctx: OperationContext, actor: Actor, id: string, predictionId: string) {
    const { t, p } = await this.ownPrediction(ctx, actor, id, predictionId);
    await this.deps.db.read.racing.deletePrediction(p.id);
    return { tournamentId: t.id, predictionId: p.id, eventId: p.eventId, deleted: true as const };
  }

  /** Commits the caller's prediction for an event before its lock, for the early-lock bonus. */
  async lockEarly(ctx: OperationContext, actor: Actor, id: string, eventId: number) {
    const { t, season } = await this.load(id);
    const event = findEvent(season, eventId);
    const p = await this.deps.db.read.racing.predictionOf(t.id, eventId, actor.wallet);
    if (!p) throw new DomainError('NOT_FOUND', 'You have no prediction for this event', { details: { eventId } });
    const now = ctx.now;
    if (!p.lockedEarlyAt) {
      assertOpen(event, now);
      await this.deps.db.read.racing.lockPrediction(p.id, now);
    }
    const locked = (await this.deps.db.read.racing.prediction(t.id, p.id)) ?? p;
    return {
      eventId,
      lockTime: event.startsAt.toISOString(),
      bonusPct: POINTS.earlyLockBonusPct,
      prediction: toPrediction(locked),
    };
  }

  /** Places or replaces the caller's side bets of a weekend, until its race locks. */
  async sideBets(ctx: OperationContext, actor: Actor, id: string, roundId: number, bets: readonly SideBetInput[]) {
    const { t, season } = await this.load(id);
    const round = findRound(season, roundId);
    await this.assertEntrant(t.id, actor.wallet);
    const race = raceOf(round);
    assertOpen(race, ctx.now);
    const props = bets.map((b) => b.prop);
    if (new Set(props).size !== props.length) {
      throw new DomainError('VALIDATION_FAILED', 'One bet per prop', {
        fieldErrors: { 'body.sideBets': ['one bet per prop'] },
      });
    }
    const grid = new Set(season.drivers.map((d) => d.id));
    const values = bets.map((b) => ({ prop: b.prop, value: sideBetValue(b, grid) }));
    const now = ctx.now;
    for (const v of values) {
      await this.deps.db.read.racing.upsertSideBet({
        id: randomUUID(),
        tournamentId: t.id,
        roundId,
        wallet: actor.wallet,
        prop: v.prop,
        value: v.value,
        createdAt: now,
        updatedAt: now,
      });
    }
    const mine = (await this.deps.db.read.racing.sideBetsOfRound(t.id, roundId)).filter(
      (b) => b.wallet.toLowerCase() === actor.wallet.toLowerCase(),
    );
    return { tournamentId: t.id, roundId, lockTime: race.startsAt.toISOString(), sideBets: mine.map(toSideBet) };
  }
}

export const toSideBet = (b: {
  id: string;
  roundId: number;
  wallet: string;
  prop: string;
  value: string;
  points: number | null;
}) => ({
  id: b.id,
  roundId: b.roundId,
  wallet: getAddress(b.wallet),
  prop: b.prop as 'FASTEST_LAP' | 'SAFETY_CAR' | 'DNF_COUNT',
  value: b.value,
  points: b.points,
});
