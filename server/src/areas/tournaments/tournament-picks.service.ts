import { randomUUID } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import { fixtureStatus, stageStatus, toPick } from './tournament.mapper.js';
import type { PickOutcome } from './tournament-format.js';
import type { TournamentDb } from './tournament.repository.js';
import type { Actor, FixtureRow, StageRow, TournamentRow } from './tournament.types.js';

const oddsFor = (f: FixtureRow, outcome: PickOutcome) =>
  outcome === 'HOME' ? f.oddsHome : outcome === 'DRAW' ? f.oddsDraw : f.oddsAway;

/**
 * Picks: a participant stakes stage chips on a fixture's outcome at the stage's odds, once per
 * fixture, until the fixture locks; taking a pick back before then returns its chips. The chips
 * move in the same transaction as the pick, under the participant's row lock.
 */
export class PicksService {
  constructor(
    private readonly db: TournamentDb,
    private readonly clock: Clock,
  ) {}

  private async stageOf(
    id: string,
    stageId: string,
  ): Promise<{ t: TournamentRow; stage: StageRow; stages: StageRow[] }> {
    const t = await this.db.read.tournaments.byId(id.toLowerCase());
    if (!t) throw new DomainError('NOT_FOUND', `No tournament ${id}`);
    const stages = await this.db.read.tournaments.stages(t.id);
    const stage = stages.find((s) => s.id === stageId);
    if (!stage) throw new DomainError('NOT_FOUND', `No stage ${stageId} in tournament ${t.id}`);
    return { t, stage, stages };
  }

  async create(
    actor: Actor,
    id: string,
    stageId: string,
    body: { fixtureId: string; outcome: PickOutcome; stake: number },
  ) {
    const { t, stage, stages } = await this.stageOf(id, stageId);
    const now = new Date(this.clock.now());
    const status = stageStatus(
      stage,
      stages.find((s) => s.stageIndex === stage.stageIndex - 1),
      now,
    );
    if (t.status !== 'LIVE' || status === 'UPCOMING' || status === 'COMPLETED') {
      throw new DomainError(
        'STAGE_NOT_OPEN',
        `Stage ${stage.stageIndex} is not taking picks (${t.status === 'LIVE' ? status : t.status})`,
        {
          details: { status: t.status === 'LIVE' ? status : t.status },
        },
      );
    }
    const entry = await this.db.read.tournaments.entryOf(t.id, actor.wallet);
    if (!entry) throw new DomainError('NOT_ENTERED', 'You have no entry in this tournament');
    const seat = await this.db.read.play.stageEntry(stage.id, entry.id);
    if (!seat) throw new DomainError('ELIMINATED', `You do not play stage ${stage.stageIndex}`);
    if (stage.stageIndex > 1 && BigInt(stage.buyin) > 0n && !seat.paidTxHash) {
      throw new DomainError(
        'STAGE_DEPOSIT_REQUIRED',
        `Stage ${stage.stageIndex} has a buy-in: deposit it, then POST enter`,
        {
          details: { stageIndex: stage.stageIndex, buyin: stage.buyin },
        },
      );
    }
    const fixture = await this.db.read.tournaments.fixture(body.fixtureId);
    if (!fixture || fixture.stageId !== stage.id)
      throw new DomainError('NOT_FOUND', `No fixture ${body.fixtureId} in this stage`);
    this.assertUnlocked(fixture, now);
    if (await this.db.read.play.pickOn(fixture.id, entry.id)) {
      throw new DomainError('ALREADY_PICKED', 'You have a pick on this fixture; delete it first to change it');
    }
    return this.db.transaction(async (r) => {
      // Checked again under the row's share lock: a cancellation that committed since the read above
      // is seen here, and one still running waits for this pick.
      const live = await r.tournaments.statusShared(t.id);
      if (live !== 'LIVE') {
        throw new DomainError('STAGE_NOT_OPEN', `Stage ${stage.stageIndex} is not taking picks (${live})`, {
          details: { status: live },
        });
      }
      const locked = await r.play.stageEntry(stage.id, entry.id, true);
      this.assertUnlocked(fixture, new Date(this.clock.now()));
      if (!locked || locked.available < body.stake) {
        throw new DomainError('INSUFFICIENT_CHIPS', 'You do not have that many chips available in this stage', {
          details: { available: locked?.available ?? 0, stake: body.stake },
        });
      }
      const pick = {
        id: randomUUID(),
        tournamentId: t.id,
        stageId: stage.id,
        fixtureId: fixture.id,
        entryId: entry.id,
        wallet: entry.wallet,
        outcome: body.outcome,
        stake: body.stake,
        odds: oddsFor(fixture, body.outcome),
        createdAt: new Date(this.clock.now()),
      };
      if (!(await r.play.insertPick(pick))) {
        throw new DomainError('ALREADY_PICKED', 'You have a pick on this fixture; delete it first to change it');
      }
      await r.play.addAvailable(stage.id, entry.id, -body.stake, 1);
      return {
        pick: toPick({ ...pick, status: 'OPEN', payout: null, settledAt: null }),
        chips: { available: locked.available - body.stake, stack: locked.stack },
      };
    });
  }

  private assertUnlocked(f: FixtureRow, now: Date): void {
    const status = fixtureStatus(f, now);
    if (status !== 'SCHEDULED') {
      throw new DomainError('PICK_LOCKED', `The fixture is ${status.toLowerCase()}: picks closed at its lock time`, {
        details: { status, lockTime: new Date(f.lockAt).toISOString() },
      });
    }
  }

  async remove(actor: Actor, id: string, pickId: string) {
    const pick = await this.db.read.play.pick(pickId);
    if (!pick || pick.tournamentId !== id.toLowerCase())
      throw new DomainError('NOT_FOUND', `No pick ${pickId} in this tournament`);
    if (pick.wallet.toLowerCase() !== actor.wallet.toLowerCase())
      throw new DomainError('FORBIDDEN', 'This is not your pick');
    const fixture = await this.db.read.tournaments.fixture(pick.fixtureId);
    if (!fixture) throw new DomainError('NOT_FOUND', `No pick ${pickId} in this tournament`);
    this.assertUnlocked(fixture, new Date(this.clock.now()));
    return this.db.transaction(async (r) => {
      const seat = await r.play.stageEntry(pick.stageId, pick.entryId, true);
      this.assertUnlocked(fixture, new Date(this.clock.now()));
      if (!seat || !(await r.play.deleteOpenPick(pick.id))) {
        throw new DomainError('PICK_LOCKED', 'The pick is settled', {
          details: { status: fixtureStatus(fixture, new Date(this.clock.now())) },
        });
      }
      await r.play.addAvailable(pick.stageId, pick.entryId, pick.stake, -1);
      return {
        deleted: true as const,
        pickId: pick.id,
        refunded: pick.stake,
        chips: { available: seat.available + pick.stake, stack: seat.stack },
      };
    });
  }

  async list(
    id: string,
    stageId: string,
    viewer: string | null,
    q: { wallet?: string | undefined; limit: number; offset: number },
  ) {
    const { t, stage } = await this.stageOf(id, stageId);
    const page = await this.db.read.play.stagePicks(
      stage.id,
      viewer,
      q.wallet ?? null,
      new Date(this.clock.now()),
      q.limit,
      q.offset,
    );
    return {
      tournamentId: t.id,
      stageId: stage.id,
      picks: page.picks.map(toPick),
      total: page.total,
      hidden: page.hidden,
    };
  }
}
