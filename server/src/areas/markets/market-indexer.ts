import type { EntityManager } from '@mikro-orm/postgresql';
import { getAddress } from 'viem';
import type { ChainPort, MarketEvent } from '../../adapters/chain/chain.port.js';
import { ONE, prices } from './fpmm.math.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import type { Orm } from '../../platform/db/orm.js';
import type { Lease } from '../../platform/jobs/lease.js';
import type { Logger } from '../../logger.js';
import { MarketIndexRepository } from './market-index.repository.js';
import { tradeSnapshot } from './price-snapshot.repository.js';

const CURSOR = 'markets';

/**
 * Applies events of other areas (invitations, memberships, payouts) inside the indexer's
 * transaction, so they share its exactly-once guarantee and its cursor.
 */
export interface MarketEventSink {
  apply(em: EntityManager, event: MarketEvent): Promise<void>;
}

export interface IndexerRun {
  readonly skipped: boolean;
  readonly from?: bigint;
  readonly to?: bigint;
  readonly events: number;
  /** True when the run reached the safe head: nothing is left to read right now. */
  readonly caughtUp: boolean;
}

/**
 * Turns market events into the read model (duels, trades, positions). Each event applies once:
 * trades are keyed by (txHash, logIndex), and the cursor moves in the same transaction as the
 * rows, so a crash replays at most an uncommitted batch. Only the lease holder writes, so several
 * server instances can run it.
 */
export class MarketIndexer {
  constructor(
    private readonly orm: Orm,
    private readonly chain: ChainPort,
    private readonly lease: Lease,
    private readonly logger: Logger,
    private readonly batchBlocks = 2_000n,
    /** Called after a batch that changed the read model (list caches drop their entries). */
    private readonly onChange: () => void = () => undefined,
    private readonly sinks: readonly MarketEventSink[] = [],
    /** When the events the indexer writes are created (`bet.confirmed`). */
    private readonly clock: Clock = systemClock,
    private readonly repo = new MarketIndexRepository(),
  ) {}

  /** Indexes the next batch of final blocks; returns what it did. */
  async runOnce(): Promise<IndexerRun> {
    if (!(await this.lease.acquire())) return { skipped: true, events: 0, caughtUp: true };
    const em = this.orm.em.fork();
    const last = await this.repo.lastBlock(em, CURSOR);
    const from = last === null ? 0n : last + 1n;
    const head = await this.chain.safeHead();
    if (from > head) return { skipped: false, from, to: head, events: 0, caughtUp: true };
    const to = head < from + this.batchBlocks - 1n ? head : from + this.batchBlocks - 1n;
    const events = await this.chain.marketEvents(from, to);
    await em.transactional(async (tx) => {
      for (const event of events) await this.apply(tx, event);
      await this.repo.saveCursor(tx, CURSOR, to);
    });
    if (events.length) {
      this.logger.info({ from: from.toString(), to: to.toString(), events: events.length }, 'indexed market events');
      this.onChange();
    }
    return { skipped: false, from, to, events: events.length, caughtUp: to >= head };
  }

  private async apply(em: EntityManager, e: MarketEvent): Promise<void> {
    const duelId = e.duelId.toLowerCase();
    switch (e.kind) {
      case 'created': {
        // The API wrote the duel when it accepted the request; the chain now confirms it.
        const balances = Array.from({ length: e.options }, () => e.funding.toString());
        const updated = await this.repo.confirmCreated(em, duelId, balances);
        if (!updated) this.logger.warn({ duelId }, 'market created on chain without a duel record; ignored');
        break;
      }
      case 'bought':
      case 'sold':
        await this.applyTrade(em, duelId, e);
        break;
      case 'resolved':
        // Replays are harmless: a later Settled or Cancelled in the same batch moves it on again.
        await this.repo.markResolved(em, duelId, e.outcome, e.timestamp, e.contestEndsAt);
        break;
      case 'settled':
        await this.repo.markSettled(em, duelId, e.outcome, e.timestamp);
        break;
      case 'cancelled':
        await this.repo.markCancelled(em, duelId);
        break;
      default:
        break;
    }
    for (const sink of this.sinks) await sink.apply(em, e);
  }

  private async applyTrade(
    em: EntityManager,
    duelId: string,
    e: Extract<MarketEvent, { kind: 'bought' | 'sold' }>,
  ): Promise<void> {
    const yesBps = Number(((prices(e.balances)[0] ?? 0n) * 10_000n) / ONE);
    // One statement: the trade once (a replayed trade changes nothing), its position, the duel
    // after it (a new participant counted at their first trade in this market), its snapshot and
    // its bet.confirmed event.
    await this.repo.applyTrade(
      em,
      duelId,
      {
        txHash: e.txHash.toLowerCase(),
        logIndex: e.logIndex,
        blockNumber: e.blockNumber,
        trader: getAddress(e.trader),
        side: e.kind === 'bought' ? 'buy' : 'sell',
        option: e.option,
        collateral: e.collateral,
        fee: e.fee,
        shares: e.shares,
        timestamp: e.timestamp,
      },
      { balances: e.balances, yesBps, snapshot: tradeSnapshot(e.balances) },
      new Date(this.clock.now()),
    );
  }
}
