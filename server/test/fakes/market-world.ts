import { randomUUID } from 'node:crypto';
import { getAddress, type LocalAccount } from 'viem';
import type { Bytes32 } from '../../src/adapters/chain/chain.types.js';
import type { Duel } from '../../src/areas/markets/duel.entity.js';
import { MarketAccess } from '../../src/areas/markets/market-access.js';
import { DomainError } from '../../src/errors.js';
import { ManualClock } from '../../src/platform/clock.js';
import type { IdempotentRun } from '../../src/platform/idempotency/idempotent-run.js';
import { operationContext, type OperationContext } from '../../src/platform/operation.context.js';
import { fakeChain, type FakeChain } from './chain.fake.js';
import { newDuelId, UNIT } from './chain-harness.js';

/** A user of the unit tests: an id and the managed account that signs for them. */
export interface FakeUser {
  readonly userId: string;
  readonly account: LocalAccount;
  readonly address: string;
}

/**
 * The markets side of a unit test, without I/O: a manual clock, the chain fakes over one
 * in-memory chain, the duel rows the indexer would keep (in a map), managed signers, and the real
 * `MarketAccess` rules over the fake chain's members.
 */
export class MarketWorld {
  readonly clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  readonly chain: FakeChain = fakeChain(this.clock);
  readonly rows = new Map<string, Duel>();
  private readonly accounts = new Map<string, LocalAccount>();
  readonly access = new MarketAccess({
    isMember: (duelId, address) => this.chain.membership.isMember(duelId as Bytes32, getAddress(address)),
  });
  /** `ManagedSigners` as the services see it: one account per user. */
  readonly signers = {
    forUser: (userId: string): Promise<LocalAccount> => {
      const account = this.accounts.get(userId);
      return account ? Promise.resolve(account) : Promise.reject(new Error(`no managed wallet for ${userId}`));
    },
  };
  /** `DuelService` as trading and settlement read it: the rows, a 404 otherwise. */
  readonly duels = {
    require: (duelId: string): Promise<Duel> => {
      const duel = this.rows.get(duelId.toLowerCase());
      if (!duel) return Promise.reject(new DomainError('NOT_FOUND', `No duel with duelId ${duelId}`));
      return Promise.resolve(duel);
    },
    requireForTrading: (duelId: string): Promise<Duel> => this.duels.require(duelId),
  };

  /** A user with a managed account holding `credits` whole units. */
  async user(name: string, credits = 0n): Promise<FakeUser> {
    const account = this.chain.newAccount();
    const userId = `user-${name}`;
    this.accounts.set(userId, account);
    if (credits > 0n) await this.chain.collateral.mint('credits', account.address, credits * UNIT);
    return { userId, account, address: account.address };
  }

  /**
   * A market opened on the fake chain by `creator` and its row as the indexer would write it
   * (confirmed, open). Times are relative to the clock's now, in seconds.
   */
  async market(
    creator: FakeUser,
    opts: {
      options?: string[];
      funding?: bigint;
      feeBps?: number;
      isPrivate?: boolean;
      startsIn?: number;
      endsIn?: number;
      contestPeriod?: number;
    } = {},
  ): Promise<Duel> {
    const options = opts.options ?? ['YES', 'NO'];
    const funding = opts.funding ?? 100n * UNIT;
    const feeBps = opts.feeBps ?? 100;
    const now = this.clock.now();
    const startTime = new Date(now + (opts.startsIn ?? 600) * 1000);
    const endTime = new Date(now + (opts.endsIn ?? 3_600) * 1000);
    const duelId = newDuelId();
    await this.chain.collateral.mint('credits', creator.account.address, funding);
    await this.chain.lifecycle.createMarket(creator.account, {
      duelId,
      collateral: 'credits',
      options: options.length,
      startTime: Math.floor(startTime.getTime() / 1000),
      endTime: Math.floor(endTime.getTime() / 1000),
      feeBps,
      isPrivate: opts.isPrivate ?? false,
      funding,
      minLeadSeconds: 0,
      contestPeriodSeconds: opts.contestPeriod ?? 0,
    });
    const row: Duel = {
      id: randomUUID(),
      duelId,
      builderAppId: 'app-1',
      creatorUserId: creator.userId,
      creatorAddress: creator.address,
      question: 'Will it rain?',
      description: null,
      category: 'weather',
      tags: [],
      options,
      duelType: 'PREDICTION',
      collateralStack: 'credits',
      isPrivate: opts.isPrivate ?? false,
      leagueId: null,
      parentMarketId: null,
      coverImageUrl: null,
      startTime,
      endTime,
      createdAt: new Date(now),
      status: 'open',
      chainState: 'confirmed',
      txHash: null,
      chainError: null,
      winningOptionIndex: null,
      poolBalances: options.map(() => funding.toString()),
      totalVolume: '0',
      uniqueParticipants: 0,
      yesBps: Math.floor(10_000 / options.length),
      extMarketId: null,
      extVolume24h: null,
      extLive: false,
      isCanonical: false,
      feeBps,
      initialLiquidity: funding.toString(),
      resolvedAt: null,
      contestEndsAt: null,
    };
    this.rows.set(duelId, row);
    return row;
  }

  /**
   * Moves a duel's row to what the chain says, as the indexer would once the writes are final:
   * resolved → pending_contest (with its contest end), settled, cancelled.
   */
  indexed(duel: Duel): Duel {
    const market = this.chain.state.markets.get(duel.duelId.toLowerCase() as Bytes32);
    if (!market) return duel;
    if (market.status === 'resolved' || market.status === 'settled') {
      duel.winningOptionIndex = market.outcome;
      duel.resolvedAt = new Date(market.resolvedAt * 1000);
      duel.contestEndsAt = new Date((market.resolvedAt + market.contestPeriod) * 1000);
    }
    if (market.status === 'resolved') duel.status = 'pending_contest';
    if (market.status === 'settled') duel.status = 'settled';
    if (market.status === 'cancelled') duel.status = 'cancelled';
    duel.poolBalances = market.balances.map(String);
    return duel;
  }

  /** A fresh context of one operation at the clock's now, optionally under an idempotent run. */
  context(run?: IdempotentRun): OperationContext {
    return operationContext({ requestId: `req-${randomUUID()}`, clock: this.clock, run });
  }
}

/** An idempotent run as the pipeline hands it over: a fresh execution, or one resuming a started effect. */
export function idempotentRun(recordId: string, resumed = false): IdempotentRun {
  return {
    recordId,
    successStatus: 201,
    shape: (body) => body,
    resumed,
    names: new Set(),
    scoped: new Map(),
    effectStarted: false,
    pending: undefined,
  };
}
