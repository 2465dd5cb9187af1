import { randomUUID } from 'node:crypto';
import { getAddress, type Hash } from 'viem';
import type { CollateralKind } from '../../adapters/chain/chain.port.js';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { Clock } from '../../platform/clock.js';
import { assertCollateralAllowed, UNRESTRICTED, type Region } from '../../platform/geo/region.js';
import { DomainError } from '../../errors.js';
import type { OperationContext } from '../../platform/operation.context.js';
import type { Logger } from '../../logger.js';
import type { CollateralReader, Reason, SignerLookup } from './tournament-bond.service.js';
import { verifyDeposit } from './deposit-verifier.js';
import { stageStatus, toEntry } from './tournament.mapper.js';
import type { TournamentDb } from './tournament.repository.js';
import type { StandingsService } from './tournament-standings.service.js';
import { MINIMUM_BUYIN, type Actor, type EntryRow, type StageRow, type TournamentRow } from './tournament.types.js';
import { tournamentPoolId } from './vault-pools.js';

/**
 * Entering and leaving a tournament, and paying a later paid stage: what to deposit where, the
 * on-chain verification of the deposit, and the entry itself, idempotent per deposit (the
 * transaction hash is the key, the tournament's row lock keeps capacity and seeds exact).
 */
export class EntryService {
  constructor(
    private readonly db: TournamentDb,
    private readonly vault: PrizeVaultPort,
    private readonly chain: CollateralReader,
    private readonly signers: SignerLookup,
    private readonly standings: StandingsService,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  private now(): Date {
    return new Date(this.clock.now());
  }

  private async tournament(id: string): Promise<TournamentRow> {
    const t = await this.db.read.tournaments.byId(id.toLowerCase());
    if (!t) throw new DomainError('NOT_FOUND', `No tournament ${id}`, { details: { tournamentId: id } });
    return t;
  }

  private closedReason(t: TournamentRow, now: Date): Reason | null {
    if (t.status !== 'LIVE') return { code: 'NOT_LIVE', message: `The tournament is ${t.status}` };
    if (now >= new Date(t.startsAt)) return { code: 'ENTRIES_CLOSED', message: 'Entries closed at the first lock' };
    return null;
  }

  /** Every reason `wallet` cannot enter now. */
  async eligibility(id: string, wallet: string | null, region: Region) {
    const t = await this.tournament(id);
    const stage1 = (await this.db.read.tournaments.stages(t.id))[0];
    const buyin = BigInt(stage1?.buyin ?? '0');
    const reasons: Reason[] = [];
    const closed = this.closedReason(t, this.now());
    if (closed) reasons.push(closed);
    if (t.entryCount >= t.maxEntrants) reasons.push({ code: 'TOURNAMENT_FULL', message: 'The tournament is full' });
    if (t.stakeAsset === 'usdc' && !region.usdcAllowed) {
      reasons.push({ code: 'GEO_BLOCKED', message: 'usdc tournaments are not available in your region' });
    }
    if (!wallet) {
      reasons.push({ code: 'WALLET_REQUIRED', message: 'Name a wallet or send a bearer token' });
    } else {
      if (await this.db.read.tournaments.entryOf(t.id, wallet)) {
        reasons.push({ code: 'ALREADY_ENTERED', message: 'This wallet has an entry' });
      } else if ((await this.chain.collateralBalance(t.stakeAsset, getAddress(wallet))) < buyin) {
        reasons.push({
          code: 'INSUFFICIENT_BALANCE',
          message: `The wallet holds less ${t.stakeAsset} than the buy-in`,
        });
      }
    }
    return {
      tournamentId: t.id,
      wallet: wallet ? getAddress(wallet) : null,
      eligible: reasons.length === 0,
      stageIndex: 1,
      buyin: buyin.toString(),
      reasons,
    };
  }

  /**
   * What to deposit where for a stage, and with `execute` the deposit from the caller's managed
   * wallet. Before a paid create the tournament does not exist: the body names asset and amount.
   */
  async deposit(
    ctx: OperationContext,
    actor: Actor,
    id: string,
    body: {
      stageIndex?: number | undefined;
      stakeAsset?: CollateralKind | undefined;
      amount?: string | undefined;
      execute: boolean;
    },
    region: Region = UNRESTRICTED,
  ) {
    const tournamentId = id.toLowerCase();
    const t = await this.db.read.tournaments.byId(tournamentId);
    let asset: CollateralKind;
    let amount: bigint;
    let stageIndex: number;
    if (!t) {
      if (!body.stakeAsset || !body.amount) {
        throw new DomainError(
          'NOT_FOUND',
          `No tournament ${id}: for a paid create, name stakeAsset and amount (stage 1)`,
          {
            details: { tournamentId },
          },
        );
      }
      if (body.stageIndex !== undefined && body.stageIndex !== 1) {
        throw new DomainError('VALIDATION_FAILED', 'Before the tournament exists only stage 1 can be paid', {
          fieldErrors: { 'body.stageIndex': ['must be 1 (or absent) before the tournament exists'] },
        });
      }
      if (BigInt(body.amount) < MINIMUM_BUYIN) {
        throw new DomainError('BUYIN_BELOW_MINIMUM', 'The stage-1 buy-in must be at least 5 units', {
          details: { minimum: MINIMUM_BUYIN.toString() },
        });
      }
      [asset, amount, stageIndex] = [body.stakeAsset, BigInt(body.amount), 1];
    } else {
      const stage = await this.stageDue(t, actor, body.stageIndex);
      [asset, amount, stageIndex] = [t.stakeAsset, BigInt(stage.buyin), stage.stageIndex];
      const mismatch: Record<string, string[]> = {};
      if (body.stakeAsset && body.stakeAsset !== asset) mismatch['body.stakeAsset'] = [`the tournament is in ${asset}`];
      if (body.amount && BigInt(body.amount) !== amount) mismatch['body.amount'] = [`the buy-in is ${amount}`];
      if (Object.keys(mismatch).length) {
        throw new DomainError('VALIDATION_FAILED', 'The deposit does not match the tournament', {
          fieldErrors: mismatch,
        });
      }
    }
    assertCollateralAllowed(region, asset);
    const poolId = tournamentPoolId(tournamentId);
    const vault = this.vault.address(asset);
    let txHash: Hash | null = null;
    if (body.execute) {
      if (!actor.userId) {
        throw new DomainError('VALIDATION_FAILED', 'Only a managed wallet (bearer token) can deposit through the API', {
          fieldErrors: { 'body.execute': ['a wallet credential deposits itself: send the calls, then POST enter'] },
        });
      }
      // One chain write per logical deposit: a retry before the deposit is used reuses the key.
      const n = await this.db.read.deposits.depositCount(tournamentId, actor.wallet, stageIndex);
      txHash = await this.vault.deposit(await this.signers.forUser(actor.userId), asset, poolId, stageIndex, amount, {
        key: `tournaments:deposit:${tournamentId}:${stageIndex}:${actor.wallet.toLowerCase()}:${n}:${amount}`,
        write: ctx.writeKey('deposit'),
      });
    }
    return {
      tournamentId,
      tournamentExists: t !== null,
      stageIndex,
      stakeAsset: asset,
      amount: amount.toString(),
      decimals: 18 as const,
      token: this.chain.addresses[asset],
      vault,
      poolId,
      calls: this.vault.depositCalls(asset, poolId, stageIndex, amount),
      executed: txHash !== null,
      txHash,
    };
  }

  /** The stage the caller pays next: stage 1 to enter, or a later paid stage they were drawn into. */
  private async stageDue(t: TournamentRow, actor: Actor, requested: number | undefined): Promise<StageRow> {
    const stages = await this.db.read.tournaments.stages(t.id);
    const entry = await this.db.read.tournaments.entryOf(t.id, actor.wallet);
    let index = requested;
    if (index === undefined) {
      if (!entry) index = 1;
      else {
        for (const s of stages.filter((x) => x.stageIndex > 1 && BigInt(x.buyin) > 0n && !x.completedAt)) {
          const seat = await this.db.read.play.stageEntry(s.id, entry.id);
          if (seat && !seat.paidTxHash) index = s.stageIndex;
        }
      }
    }
    const stage = stages.find((s) => s.stageIndex === index);
    if (!stage || index === undefined) {
      throw new DomainError('INVALID_STATE', 'Nothing is due: you have entered and no paid stage awaits your deposit', {
        details: { tournamentId: t.id },
      });
    }
    if (BigInt(stage.buyin) === 0n) {
      throw new DomainError('INVALID_STATE', `Stage ${index} has no buy-in`, { details: { stageIndex: index } });
    }
    if (index === 1) {
      const closed = this.closedReason(t, this.now());
      if (closed) throw new DomainError('ENTRIES_CLOSED', closed.message, { details: { status: t.status } });
      if (entry)
        throw new DomainError('ALREADY_ENTERED', 'You have an entry already', { details: { wallet: entry.wallet } });
    }
    return stage;
  }

  /** Enters with a verified deposit, or pays a later stage; the same deposit again answers the same entry. */
  async enter(
    actor: Actor,
    id: string,
    body: { depositTxHash: string; wallet?: string | undefined; stageIndex: number },
    region: Region = UNRESTRICTED,
  ) {
    if (body.wallet && body.wallet.toLowerCase() !== actor.wallet.toLowerCase()) {
      throw new DomainError('FORBIDDEN', 'wallet must be your own wallet', {
        details: { wallet: body.wallet, yours: actor.wallet },
      });
    }
    const t = await this.tournament(id);
    assertCollateralAllowed(region, t.stakeAsset);
    const txHash = body.depositTxHash.toLowerCase() as Hash;
    const replay = await this.replayOf(t, actor, txHash, body.stageIndex);
    if (replay) return replay;
    const stages = await this.db.read.tournaments.stages(t.id);
    const stage = stages.find((s) => s.stageIndex === body.stageIndex);
    if (!stage)
      throw new DomainError('NOT_FOUND', `No stage ${body.stageIndex}`, { details: { stageIndex: body.stageIndex } });
    const entry = await this.db.read.tournaments.entryOf(t.id, actor.wallet);
    if (body.stageIndex === 1) {
      const closed = this.closedReason(t, this.now());
      if (closed) throw new DomainError('ENTRIES_CLOSED', closed.message, { details: { status: t.status } });
      if (entry) {
        // A concurrent request with this very deposit may have just recorded it.
        const replayed = await this.replayOf(t, actor, txHash, body.stageIndex);
        if (replayed) return replayed;
        throw new DomainError('ALREADY_ENTERED', 'You have an entry already, with another deposit');
      }
      if (t.entryCount >= t.maxEntrants) throw new DomainError('TOURNAMENT_FULL', 'The tournament is full');
    } else {
      await this.assertStagePayable(t, stages, stage, entry).catch(async (err: unknown) => {
        if (await this.replayOf(t, actor, txHash, body.stageIndex)) return;
        throw err;
      });
    }
    await verifyDeposit(this.vault, txHash, {
      collateral: t.stakeAsset,
      poolId: tournamentPoolId(t.id),
      stage: stage.stageIndex,
      amount: BigInt(stage.buyin),
      senders: actor.senders,
    });

    const created = await this.db.transaction(async (r) => {
      await r.tournaments.lock(t.id);
      const fresh = await r.tournaments.byId(t.id);
      const mine = await r.tournaments.entryOf(t.id, actor.wallet);
      if (body.stageIndex === 1) {
        const closed = fresh ? this.closedReason(fresh, this.now()) : null;
        if (closed) throw new DomainError('ENTRIES_CLOSED', closed.message);
        if (mine) return false;
        if ((fresh?.entryCount ?? 0) >= t.maxEntrants)
          throw new DomainError('TOURNAMENT_FULL', 'The tournament is full');
      } else if (fresh && fresh.status !== 'LIVE') {
        // A cancellation may have taken the lock since the stage was found payable.
        throw new DomainError('ENTRIES_CLOSED', `The tournament is ${fresh.status}`);
      }
      const purpose = body.stageIndex === 1 ? 'entry' : 'stage';
      const recorded = await r.deposits.insertDeposit({
        txHash,
        tournamentId: t.id,
        stageIndex: stage.stageIndex,
        wallet: actor.wallet,
        amount: stage.buyin,
        purpose,
      });
      if (!recorded) return false;
      if (body.stageIndex === 1) {
        await r.tournaments.insertEntry({
          id: randomUUID(),
          tournamentId: t.id,
          wallet: actor.wallet,
          userId: actor.userId,
          isCreator: false,
          depositTxHash: txHash,
          enteredAt: this.now(),
        });
      } else if (mine) {
        await r.play.setPaid(stage.id, mine.id, txHash);
      }
      return true;
    });
    if (created) await this.standings.recompute(t.id);
    // A concurrent request with the same deposit may have won: answer what is recorded now.
    const again = await this.replayOf(t, actor, txHash, body.stageIndex);
    if (again) return { ...again, created };
    throw new DomainError('ALREADY_ENTERED', 'You have an entry already, with another deposit');
  }

  private async assertStagePayable(t: TournamentRow, stages: StageRow[], stage: StageRow, entry: EntryRow | null) {
    if (!entry) throw new DomainError('NOT_ENTERED', 'You have no entry in this tournament');
    if (BigInt(stage.buyin) === 0n) {
      throw new DomainError('INVALID_STATE', `Stage ${stage.stageIndex} has no buy-in`, {
        details: { stageIndex: stage.stageIndex },
      });
    }
    const previous = stages.find((s) => s.stageIndex === stage.stageIndex - 1);
    const status = stageStatus(stage, previous, this.now());
    if (status === 'UPCOMING' || status === 'COMPLETED') {
      throw new DomainError('STAGE_NOT_OPEN', `Stage ${stage.stageIndex} is ${status}`, { details: { status } });
    }
    const seat = await this.db.read.play.stageEntry(stage.id, entry.id);
    if (!seat) throw new DomainError('ELIMINATED', `You do not play stage ${stage.stageIndex}`);
    if (seat.paidTxHash) throw new DomainError('ALREADY_ENTERED', `You paid stage ${stage.stageIndex} already`);
    if (t.status !== 'LIVE') throw new DomainError('ENTRIES_CLOSED', `The tournament is ${t.status}`);
  }

  /** The answer to a deposit already recorded for this tournament, wallet and stage; refuses one used elsewhere. */
  private async replayOf(t: TournamentRow, actor: Actor, txHash: Hash, stageIndex: number) {
    const used = await this.db.read.deposits.deposit(txHash);
    if (!used) return null;
    const mine =
      used.tournamentId === t.id &&
      used.wallet.toLowerCase() === actor.wallet.toLowerCase() &&
      used.stageIndex === stageIndex;
    if (!mine) {
      throw new DomainError('DEPOSIT_ALREADY_USED', 'This deposit already paid for another entry or tournament', {
        details: { txHash, usedFor: `tournament ${used.tournamentId}, stage ${used.stageIndex}` },
      });
    }
    const entry = await this.db.read.tournaments.entryOf(t.id, actor.wallet);
    if (!entry) throw new DomainError('NOT_ENTERED', 'This deposit’s entry was withdrawn');
    return { tournamentId: t.id, hasEntry: true as const, stageIndex, created: false, entry: toEntry(entry) };
  }
}
