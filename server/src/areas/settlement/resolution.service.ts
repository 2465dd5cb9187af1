import type {
  ContestWithAddress,
  ErrorCode,
  FinalizeContestRequest,
  ResolveRequest,
  SubmitContestRequest,
} from '@duelkit/contract';
import type { Bytes32, Signer } from '../../adapters/chain/chain.port.js';
import type { MarketLifecyclePort } from '../../adapters/chain/market-lifecycle.port.js';
import { DomainError, isDomainError } from '../../errors.js';
import { jobContext, type OperationContext, type WriteKey } from '../../platform/operation.context.js';
import type { Logger } from '../../logger.js';
import type { Duel } from '../markets/duel.entity.js';
import { assertTransition, canTransition } from '../markets/duel-state.js';
import { assertCreator } from '../markets/market-creator.js';
import type { MarketAccess } from '../markets/market-access.js';
import type { ContestRepository } from './contest.repository.js';
import type { LocalAccount } from 'viem';
import type { Clock } from '../../platform/clock.js';

/** The signed-in user acting on a market. */
export interface Caller {
  readonly userId: string;
  /** Managed wallet. */
  readonly address: string;
}

export interface DuelLookup {
  require(duelId: string): Promise<Duel>;
}

export interface SignerLookup {
  forUser(userId: string): Promise<LocalAccount>;
}

export interface Page {
  readonly page: number;
  readonly limit: number;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function withoutAddress({ userAddress: _omit, ...contest }: ContestWithAddress) {
  return contest;
}

/** What the ResolutionService works with. */
export interface ResolutionDeps {
  readonly contests: ContestRepository;
  readonly lifecycle: MarketLifecyclePort;
  readonly duels: DuelLookup;
  readonly signers: SignerLookup;
  readonly access: MarketAccess;
  readonly logger: Logger;
  readonly clock: Clock;
}

/**
 * Resolution of ended markets by their creator, contests by participants during the contest
 * period, and finalization (creator, admin, or the platform for uncontested markets). Every
 * write goes to the chain, which holds the truth; the indexer moves the read model.
 */
export class ResolutionService {
  constructor(private readonly deps: ResolutionDeps) {}

  /**
   * Checks the whole batch first (404, 403, 409 name the duel; nothing is sent then), then
   * resolves each market on chain with the creator's managed wallet. Chain rejections after the
   * check are reported per item.
   */
  async resolve(ctx: OperationContext, caller: Caller, request: ResolveRequest) {
    const now = ctx.now.getTime();
    const checked: { duel: Duel; outcome: number }[] = [];
    for (const [i, item] of request.duelIds.entries()) {
      const duel = await this.deps.duels.require(item.duelId);
      assertCreator(duel, caller, 'resolve it');
      assertTransition(duel, 'resolve', 'creator', now);
      this.assertOption(duel, item.winningOptionIndex, `body.duelIds.${i}.winningOptionIndex`);
      checked.push({ duel, outcome: item.winningOptionIndex });
    }
    const signer = await this.deps.signers.forUser(caller.userId);
    const results = [];
    for (const { duel, outcome } of checked) {
      const write = ctx.writeKey(`resolve:${duel.duelId}`);
      results.push(
        await this.send(duel.duelId, () =>
          this.deps.lifecycle.resolve(signer, duel.duelId as Bytes32, outcome, { write }),
        ),
      );
    }
    return { results };
  }

  /**
   * Resolves one ended market as the platform: an admin deciding a market of a pack (the pack's
   * result is its markets' own outcomes). Refusals as for the creator's resolve.
   */
  async resolveAsAdmin(duelId: string, winningOptionIndex: number, write?: WriteKey) {
    const duel = await this.deps.duels.require(duelId);
    assertTransition(duel, 'resolve', 'admin', this.deps.clock.now());
    this.assertOption(duel, winningOptionIndex, 'body.winningOptionIndex');
    const txHash = await this.deps.lifecycle.resolve(
      'platform',
      duel.duelId as Bytes32,
      winningOptionIndex,
      write ? { write } : {},
    );
    return { duelId: duel.duelId, txHash, chainState: 'pending' as const };
  }

  async submitContest(caller: Caller, body: SubmitContestRequest): Promise<ContestWithAddress> {
    const duel = await this.deps.duels.require(body.duelId);
    await this.deps.access.assertCanView(duel, caller.address);
    if (same(duel.creatorAddress, caller.address)) {
      throw new DomainError('FORBIDDEN', 'The creator cannot contest their own resolution', {
        details: { duelId: duel.duelId },
      });
    }
    if (!(await this.deps.contests.isParticipant(duel.duelId, caller.address))) {
      throw new DomainError(
        'NOT_PARTICIPANT',
        'Only participants (traders and holders) of this market may contest it',
        {
          details: { duelId: duel.duelId },
        },
      );
    }
    assertTransition(duel, 'contest', 'participant', this.deps.clock.now());
    if (body.proposedOptionIndex !== undefined) {
      this.assertOption(duel, body.proposedOptionIndex, 'body.proposedOptionIndex');
      if (body.proposedOptionIndex === duel.winningOptionIndex) {
        throw new DomainError('VALIDATION_FAILED', 'The proposed outcome is the resolved one', {
          fieldErrors: { 'body.proposedOptionIndex': ['must differ from the resolved outcome'] },
        });
      }
    }
    const contest = await this.deps.contests.insert(
      {
        duelId: duel.duelId,
        userAddress: caller.address,
        userId: caller.userId,
        reason: body.reason,
        proposedOptionIndex: body.proposedOptionIndex ?? null,
      },
      new Date(this.deps.clock.now()),
    );
    if (!contest) {
      throw new DomainError('CONTEST_EXISTS', 'You already contested this market; one contest per participant', {
        details: { duelId: duel.duelId },
      });
    }
    return contest;
  }

  /** Contests of a market, newest first, without addresses; private markets for members only. */
  async publicContests(duelId: string, page: Page, viewer: string | undefined) {
    const duel = await this.deps.duels.require(duelId);
    await this.deps.access.assertCanView(duel, viewer);
    const list = await this.contestPage(duel.duelId, page);
    return { data: list.data.map(withoutAddress), pagination: list.pagination };
  }

  /** Contests with addresses: the creator's view. */
  async creatorContests(caller: Caller, duelId: string, page: Page) {
    const duel = await this.deps.duels.require(duelId);
    assertCreator(duel, caller, 'list its contests with addresses');
    return this.contestPage(duel.duelId, page);
  }

  /** Contests with addresses: the admins' view. */
  async adminContests(duelId: string, page: Page) {
    const duel = await this.deps.duels.require(duelId);
    return this.contestPage(duel.duelId, page);
  }

  async myContest(caller: Caller, duelId: string) {
    const duel = await this.deps.duels.require(duelId);
    await this.deps.access.assertCanView(duel, caller.address);
    const contest = await this.deps.contests.byParticipant(duel.duelId, caller.address);
    const canContest =
      !contest &&
      !same(duel.creatorAddress, caller.address) &&
      canTransition(duel, 'contest', 'participant', this.deps.clock.now()) &&
      (await this.deps.contests.isParticipant(duel.duelId, caller.address));
    return {
      duelId: duel.duelId,
      contest,
      canContest,
      contestEndsAt: duel.contestEndsAt ? new Date(duel.contestEndsAt).toISOString() : null,
    };
  }

  /**
   * Settles a resolved market after its contest period. The resolved outcome stands unless a
   * corrected one is given: an admin may always correct, the creator only when at least one
   * contest was filed.
   */
  async finalize(
    ctx: OperationContext,
    body: FinalizeContestRequest,
    by: { actor: 'creator'; caller: Caller } | { actor: 'admin' } | { actor: 'system' },
  ) {
    const duel = await this.deps.duels.require(body.duelId);
    if (by.actor === 'creator') assertCreator(duel, by.caller, 'finalize it');
    assertTransition(duel, 'finalize', by.actor, ctx.now.getTime());
    const resolved = duel.winningOptionIndex ?? 0;
    const final = body.winningOptionIndex ?? resolved;
    this.assertOption(duel, final, 'body.winningOptionIndex');
    const contests = await this.deps.contests.count(duel.duelId);
    if (final !== resolved && by.actor === 'creator' && contests === 0) {
      throw new DomainError(
        'INVALID_STATE',
        'The outcome can only be corrected when at least one contest was filed; finalize without winningOptionIndex',
        { details: { duelId: duel.duelId, status: duel.status, contests, resolvedOptionIndex: resolved } },
      );
    }
    const signer: Signer = by.actor === 'creator' ? await this.deps.signers.forUser(by.caller.userId) : 'platform';
    const answer = (txHash: `0x${string}`) => ({
      duelId: duel.duelId,
      winningOptionIndex: final,
      resolvedOptionIndex: resolved,
      corrected: final !== resolved,
      contests,
      txHash,
      chainState: 'pending' as const,
    });
    return answer(
      await this.deps.lifecycle.finalize(signer, duel.duelId as Bytes32, final, {
        write: ctx.writeKey('finalize'),
        result: answer,
      }),
    );
  }

  /** System job: settles uncontested markets whose contest period is over, with the resolved outcome. */
  async finalizeUncontested(now: Date, limit = 50): Promise<number> {
    const due = await this.deps.contests.uncontestedDue(now, limit);
    let sent = 0;
    for (const duel_id of due) {
      try {
        await this.finalize(jobContext(this.deps.clock), { duelId: duel_id }, { actor: 'system' });
        sent++;
      } catch (err) {
        // Usually the chain settled it already and the indexer has not caught up: the next run sees it.
        this.deps.logger.debug({ duelId: duel_id, err: (err as Error).message }, 'auto-finalize skipped');
      }
    }
    return sent;
  }

  private async contestPage(duelId: string, page: Page) {
    const { rows, total } = await this.deps.contests.page(duelId, page.limit, (page.page - 1) * page.limit);
    return {
      data: rows,
      pagination: { page: page.page, limit: page.limit, total, hasMore: page.page * page.limit < total },
    };
  }

  private assertOption(duel: Duel, option: number, field: string): void {
    if (option >= duel.options.length) {
      throw new DomainError('VALIDATION_FAILED', `Duel ${duel.duelId} has ${duel.options.length} options`, {
        fieldErrors: { [field]: [`must be below ${duel.options.length}`] },
      });
    }
  }

  private async send(duelId: string, write: () => Promise<`0x${string}`>) {
    try {
      return { duelId, success: true as const, txHash: await write(), chainState: 'pending' as const };
    } catch (err) {
      if (isDomainError(err)) return { duelId, success: false as const, code: err.code, message: err.message };
      this.deps.logger.error({ duelId, err }, 'chain write failed');
      const code: ErrorCode = 'INTERNAL';
      return { duelId, success: false as const, code, message: 'The chain could not take the transaction; retry' };
    }
  }
}
