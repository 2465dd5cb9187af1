import { randomUUID } from 'node:crypto';
import type { Hash } from 'viem';
import type { CreateTournamentRequest } from '@duelkit/contract';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { FixturesPort } from '../../adapters/sports-provider/fixtures.port.js';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import type { BondService } from './tournament-bond.service.js';
import { verifyDeposit } from './deposit-verifier.js';
import { ruleProblems, stageKind, stageName, type FormatRules } from './tournament-format.js';
import type { TournamentDb, TournamentRepos } from './tournament.repository.js';
import { scheduleStages, type ScheduledStage } from './tournament-schedule.js';
import type { StandingsService } from './tournament-standings.service.js';
import { FIXTURE_LENGTH_MS, MINIMUM_BUYIN, type Actor, type TournamentSettings } from './tournament.types.js';
import { tournamentPoolId } from './vault-pools.js';

const HOUR = 3_600_000;

/** The rules a create asks for, completed with the defaults and checked. */
interface Plan {
  readonly id: string;
  readonly txHash: Hash;
  readonly buyin1: bigint;
  readonly rules: FormatRules;
  readonly maxEntrants: number;
  readonly chipsPerStage: number;
  readonly fixturesPerStage: number;
  readonly leagueId: number;
  readonly payoutBps: number[];
}

/**
 * The paid create, deposit first: the creator deposits the stage-1 buy-in into the vault pool of
 * a client-chosen id, then creates with that transaction. Nothing is stored before the deposit is
 * verified on chain and the fixtures are scheduled; the tournament, its stages and fixtures, the
 * deposit and the creator's entry are written in one transaction. A replay answers the tournament.
 */
export class CreateTournamentService {
  constructor(
    private readonly db: TournamentDb,
    private readonly vault: PrizeVaultPort,
    private readonly fixtures: FixturesPort,
    private readonly bonds: BondService,
    private readonly standings: StandingsService,
    private readonly settings: TournamentSettings,
    private readonly clock: Clock,
  ) {}

  /** Creates the tournament; `created` is false when this repeats a create that already happened. */
  async create(actor: Actor, body: CreateTournamentRequest): Promise<{ id: string; created: boolean }> {
    const plan = this.plan(actor, body);
    const existing = await this.db.read.tournaments.byId(plan.id);
    if (existing) return { id: plan.id, created: this.replayed(existing, actor, plan) };
    const used = await this.db.read.deposits.deposit(plan.txHash);
    if (used || (await this.db.read.bonds.movementByTx(plan.txHash))) {
      throw new DomainError('DEPOSIT_ALREADY_USED', 'This deposit already paid for something else', {
        details: { txHash: plan.txHash, usedFor: used ? `tournament ${used.tournamentId}` : 'a creator bond' },
      });
    }
    await this.bonds.assertSufficient(this.db.read, actor.wallet, false);

    await verifyDeposit(this.vault, plan.txHash, {
      collateral: body.stakeAsset,
      poolId: tournamentPoolId(plan.id),
      stage: 1,
      amount: plan.buyin1,
      senders: actor.senders,
    });
    const now = new Date(this.clock.now());
    const start = body.startTime
      ? new Date(body.startTime)
      : new Date(now.getTime() + this.settings.startLeadMinutes * 60_000);
    const scheduled = await scheduleStages(this.fixtures, body.stages, {
      leagueId: plan.leagueId,
      start,
      stageHours: this.settings.stageHours,
      fixturesPerStage: plan.fixturesPerStage,
      now,
    });

    const created = await this.db.transaction(async (r) => {
      await this.bonds.assertSufficient(r, actor.wallet);
      const inserted = await this.insert(r, actor, body, plan, scheduled, now);
      if (!inserted) {
        const winner = await r.tournaments.byId(plan.id);
        if (winner) return this.replayed(winner, actor, plan);
        throw new DomainError('DEPOSIT_ALREADY_USED', 'This deposit already created another tournament', {
          details: { txHash: plan.txHash },
        });
      }
      return true;
    });
    if (created) await this.standings.recompute(plan.id);
    return { id: plan.id, created };
  }

  private plan(actor: Actor, body: CreateTournamentRequest): Plan {
    const stage1 = body.stages.find((s) => s.stageIndex === 1);
    const buyin1 = BigInt(stage1?.buyinUsdc ?? '0');
    if (buyin1 < MINIMUM_BUYIN) {
      throw new DomainError(
        'BUYIN_BELOW_MINIMUM',
        'The stage-1 buy-in must be at least 5 units; free tournaments are not offered',
        { details: { minimum: MINIMUM_BUYIN.toString(), buyin: buyin1.toString() } },
      );
    }
    if (!body.clientTournamentId || !body.creatorDepositTxHash) {
      throw new DomainError(
        'PAID_TOURNAMENT_REQUIRES_DEPOSIT',
        'Paid tournaments require clientTournamentId and creatorDepositTxHash: deposit the stage-1 buy-in into the vault for that id first',
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
    if (body.ownerWallet && body.ownerWallet.toLowerCase() !== actor.wallet.toLowerCase()) {
      throw new DomainError('FORBIDDEN', 'ownerWallet must be your own wallet', {
        details: { ownerWallet: body.ownerWallet, yours: actor.wallet },
      });
    }
    const problems: Record<string, string[]> = {};
    const problem = (field: string, message: string) => (problems[field] = [...(problems[field] ?? []), message]);
    const indices = body.stages.map((s) => s.stageIndex).sort((a, b) => a - b);
    if (indices.length !== body.totalStages || indices.some((s, i) => s !== i + 1)) {
      problem('body.stages', `must list stages 1 to totalStages (${body.totalStages}) once each`);
    }
    for (const s of body.stages) {
      if (s.isFinal !== (s.stageIndex === body.totalStages)) {
        problem(`body.stages.${s.stageIndex - 1}.isFinal`, 'exactly the last stage is final');
      }
    }
    if (body.vaultStack && body.vaultStack !== body.stakeAsset) problem('body.vaultStack', 'must equal stakeAsset');
    if (body.config.stakeAsset && body.config.stakeAsset !== body.stakeAsset) {
      problem('body.config.stakeAsset', 'must equal stakeAsset');
    }
    const rules: FormatRules = {
      format: body.format,
      totalStages: body.totalStages,
      groupSize: body.config.groupSize ?? this.settings.groupSize,
      advancePerGroup: body.config.advancePerGroup ?? this.settings.advancePerGroup,
    };
    const bracket = body.format === 'KNOCKOUT' ? 2 ** Math.min(body.totalStages, 8) : Number.POSITIVE_INFINITY;
    const maxEntrants = body.config.maxEntrants ?? Math.min(this.settings.maxEntrants, bracket);
    for (const p of ruleProblems(rules, maxEntrants)) {
      const [field = 'body', message = p] = p.split(': ');
      problem(`body.${field}`, message);
    }
    if (body.config.minEntriesToActivate > maxEntrants) {
      // The contract refuses an explicit pair already; this also covers the default maxEntrants.
      const relation = `minEntriesToActivate (${body.config.minEntriesToActivate}) must not exceed maxEntrants (${maxEntrants})`;
      problem('body.config.minEntriesToActivate', relation);
      if (body.config.maxEntrants !== undefined) problem('body.config.maxEntrants', relation);
    }
    const payoutBps = body.config.payoutBps ?? [...this.settings.payoutBps];
    if (payoutBps.reduce((a, b) => a + b, 0) !== 10_000) problem('body.config.payoutBps', 'must sum to 10000');
    if (Object.keys(problems).length) {
      throw new DomainError('VALIDATION_FAILED', `Invalid tournament: ${Object.keys(problems).join(', ')}`, {
        fieldErrors: problems,
      });
    }
    return {
      id: body.clientTournamentId.toLowerCase(),
      txHash: body.creatorDepositTxHash as Hash,
      buyin1,
      rules,
      maxEntrants,
      chipsPerStage: body.config.chipsPerStage ?? this.settings.chipsPerStage,
      fixturesPerStage: body.config.fixturesPerStage ?? this.settings.fixturesPerStage,
      leagueId: body.config.leagueId ?? this.settings.leagueId,
      payoutBps,
    };
  }

  /** The same create again answers its tournament; anything else under the id is refused. */
  private replayed(existing: { ownerWallet: string; creatorDepositTxHash: string }, actor: Actor, plan: Plan): false {
    const same =
      existing.ownerWallet.toLowerCase() === actor.wallet.toLowerCase() &&
      existing.creatorDepositTxHash.toLowerCase() === plan.txHash.toLowerCase();
    if (!same) {
      throw new DomainError(
        'TOURNAMENT_ID_TAKEN',
        'A tournament with this id exists; generate a new clientTournamentId',
        {
          details: { tournamentId: plan.id },
        },
      );
    }
    return false;
  }

  private async insert(
    r: TournamentRepos,
    actor: Actor,
    body: CreateTournamentRequest,
    plan: Plan,
    scheduled: readonly ScheduledStage[],
    now: Date,
  ): Promise<boolean> {
    const first = scheduled[0];
    const last = scheduled[scheduled.length - 1];
    if (!first || !last) return false;
    const inserted = await r.tournaments.insertTournament({
      id: plan.id,
      builderAppId: actor.builderAppId,
      name: body.name,
      description: body.description ?? null,
      sport: body.sport,
      league: body.league ?? null,
      category: body.category ?? null,
      gameType: body.gameType,
      format: body.format,
      type: body.type,
      status: 'LIVE',
      stakeAsset: body.stakeAsset,
      ownerWallet: actor.wallet,
      ownerUserId: actor.userId,
      totalStages: body.totalStages,
      minEntries: body.config.minEntriesToActivate,
      maxEntrants: plan.maxEntrants,
      chipsPerStage: plan.chipsPerStage,
      groupSize: plan.rules.groupSize,
      advancePerGroup: plan.rules.advancePerGroup,
      fixturesPerStage: plan.fixturesPerStage,
      leagueId: plan.leagueId,
      feeBps: this.settings.feeBps,
      payoutBps: plan.payoutBps,
      creatorDepositTxHash: plan.txHash.toLowerCase(),
      poolId: tournamentPoolId(plan.id),
      startsAt: first.startsAt,
      endsAt: last.endsAt,
      createdAt: now,
    });
    if (!inserted) return false;
    if (
      !(await r.deposits.insertDeposit({
        txHash: plan.txHash,
        tournamentId: plan.id,
        stageIndex: 1,
        wallet: actor.wallet,
        amount: plan.buyin1.toString(),
        purpose: 'create',
      }))
    ) {
      throw new DomainError('DEPOSIT_ALREADY_USED', 'This deposit already paid for something else', {
        details: { txHash: plan.txHash },
      });
    }
    for (const stage of scheduled) {
      const input = body.stages.find((s) => s.stageIndex === stage.stageIndex);
      const stageId = randomUUID();
      await r.tournaments.insertStage({
        id: stageId,
        tournamentId: plan.id,
        stageIndex: stage.stageIndex,
        stageName: stageName(plan.rules, stage.stageIndex),
        kind: stageKind(plan.rules, stage.stageIndex),
        buyin: input?.buyinUsdc ?? '0',
        multiplier: input?.multiplier ?? 1,
        isFinal: stage.stageIndex === body.totalStages,
        startChips: plan.chipsPerStage * (input?.multiplier ?? 1),
        windowStart: stage.windowStart,
        windowEnd: stage.windowEnd,
        startsAt: stage.startsAt,
        lockAt: stage.startsAt,
        endsAt: stage.endsAt,
      });
      for (const { fixture, odds } of stage.fixtures) {
        const kickoff = fixture.startsAt.getTime();
        await r.tournaments.insertFixture({
          id: randomUUID(),
          tournamentId: plan.id,
          stageId,
          providerFixtureId: fixture.id,
          title: fixture.name,
          homeTeam: fixture.homeTeam,
          awayTeam: fixture.awayTeam,
          startsAt: fixture.startsAt,
          lockAt: fixture.startsAt,
          endsAt: new Date(kickoff + FIXTURE_LENGTH_MS),
          expiresAt: new Date(kickoff + FIXTURE_LENGTH_MS + this.settings.fixtureExpiryHours * HOUR),
          oddsHome: odds.home,
          oddsDraw: odds.draw,
          oddsAway: odds.away,
        });
      }
    }
    await r.tournaments.insertEntry({
      id: randomUUID(),
      tournamentId: plan.id,
      wallet: actor.wallet,
      userId: actor.userId,
      isCreator: true,
      depositTxHash: plan.txHash.toLowerCase(),
      enteredAt: new Date(this.clock.now()),
    });
    return true;
  }
}
