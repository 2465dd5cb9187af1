import type { ChainReadsPort } from '../../adapters/chain/chain-reads.port.js';
import type { ParlayBookEvent, ParlayBookPort } from '../../adapters/chain/parlay-book.port.js';
import type { Logger } from '../../logger.js';
import type { Orm } from '../../platform/db/orm.js';
import type { Lease } from '../../platform/jobs/lease.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParlayTicketsRepository } from './parlay-tickets.repository.js';

const CURSOR = 'parlay';

/**
 * Turns ParlayBook's events into rows: tickets (open → won | lost | void → claimed), condition
 * results, and the pool's ledger (deposits, withdrawals, realised ticket results). The cursor
 * moves in the transaction that writes the rows, and movements are keyed by (tx, log), so each
 * event applies once; only the lease holder writes.
 */
export class ParlayIndexer {
  constructor(
    private readonly orm: Orm,
    private readonly book: Pick<ParlayBookPort, 'events'>,
    private readonly chain: Pick<ChainReadsPort, 'safeHead'>,
    private readonly lease: Pick<Lease, 'acquire'>,
    private readonly repo: ParlayTicketsRepository,
    private readonly logger: Logger,
    private readonly batchBlocks = 2_000n,
  ) {}

  async runOnce(): Promise<{ events: number; caughtUp: boolean }> {
    if (!(await this.lease.acquire())) return { events: 0, caughtUp: true };
    const em = this.orm.em.fork();
    const last = await this.repo.lastBlock(em, CURSOR);
    const from = last === null ? 0n : last + 1n;
    const head = await this.chain.safeHead();
    if (from > head) return { events: 0, caughtUp: true };
    const to = head < from + this.batchBlocks - 1n ? head : from + this.batchBlocks - 1n;
    const events = await this.book.events(from, to);
    await em.transactional(async (tx) => {
      for (const e of events) await this.apply(tx, e);
      await this.repo.saveCursor(tx, CURSOR, to);
    });
    if (events.length)
      this.logger.info({ from: String(from), to: String(to), events: events.length }, 'indexed parlay events');
    return { events: events.length, caughtUp: to >= head };
  }

  private async apply(em: EntityManager, e: ParlayBookEvent): Promise<void> {
    const at = new Date(e.timestamp * 1000);
    switch (e.kind) {
      case 'placed':
        return this.repo.placed(em, {
          ticketId: e.ticketId,
          bettor: e.bettor,
          nonce: e.nonce,
          stake: e.stake,
          fee: e.fee,
          payout: e.payout,
          liability: e.liability,
          legs: e.legs.map((l) => ({
            conditionId: l.conditionId.toLowerCase(),
            outcomeId: l.outcomeId,
            odds: l.odds.toString(),
          })),
          placedTx: e.txHash,
          placedAt: at,
        });
      case 'result':
        return this.repo.result(em, {
          conditionId: e.conditionId,
          isVoid: e.isVoid,
          winningOutcome: e.winningOutcome,
          at,
        });
      case 'settled':
        return this.repo.settled(em, {
          ticketId: e.ticketId,
          status: e.status,
          owed: e.owed,
          poolResult: e.poolResult,
          at,
          txHash: e.txHash,
          logIndex: e.logIndex,
        });
      case 'claimed':
        return this.repo.claimed(em, { ticketId: e.ticketId, at, txHash: e.txHash });
      case 'deposit':
      case 'withdraw':
        return this.repo.movement(em, {
          account: e.owner,
          kind: e.kind,
          assets: e.assets,
          shares: e.shares,
          at,
          txHash: e.txHash,
          logIndex: e.logIndex,
        });
    }
  }
}
