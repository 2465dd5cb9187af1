import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { getAddress } from 'viem';
import type { ChainPort, MarketEvent } from '../../adapters/chain/chain.port.js';
import { ONE, prices } from './fpmm.math.js';
import type { Orm } from '../../platform/db/orm.js';
import type { Lease } from '../../platform/jobs/lease.js';
import type { Logger } from '../../logger.js';
import { sqlIn } from '../../platform/db/sql.js';
import { recordTradeSnapshot } from './price-snapshot.repository.js';

const CURSOR = 'markets';

/** A PostgreSQL array literal of decimal strings (the query builder would expand a JS array). */
function textArray(values: readonly string[]): string {
  return `{${values.join(',')}}`;
}

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
  ) {}

  /** Indexes the next batch of final blocks; returns what it did. */
  async runOnce(): Promise<IndexerRun> {
    if (!(await this.lease.acquire())) return { skipped: true, events: 0, caughtUp: true };
    const em = this.orm.em.fork();
    const [row] = await em
      .getConnection()
      .execute<{ last_block: string }[]>('select last_block from chain_cursors where name = ?', [CURSOR]);
    const from = row ? BigInt(row.last_block) + 1n : 0n;
    const head = await this.chain.safeHead();
    if (from > head) return { skipped: false, from, to: head, events: 0, caughtUp: true };
    const to = head < from + this.batchBlocks - 1n ? head : from + this.batchBlocks - 1n;
    const events = await this.chain.marketEvents(from, to);
    await em.transactional(async (tx) => {
      for (const event of events) await this.apply(tx, event);
      await sqlIn(tx)(
        'insert into chain_cursors (name, last_block) values (?, ?) on conflict (name) do update set last_block = excluded.last_block',
        [CURSOR, to.toString()],
      );
    });
    if (events.length) {
      this.logger.info({ from: from.toString(), to: to.toString(), events: events.length }, 'indexed market events');
      this.onChange();
    }
    return { skipped: false, from, to, events: events.length, caughtUp: to >= head };
  }

  private async apply(em: EntityManager, e: MarketEvent): Promise<void> {
    const conn = { execute: sqlIn(em) };
    const duelId = e.duelId.toLowerCase();
    switch (e.kind) {
      case 'created': {
        // The API wrote the duel when it accepted the request; the chain now confirms it.
        const balances = Array.from({ length: e.options }, () => e.funding.toString());
        const updated = await conn.execute<{ id: string }>(
          `update duels set chain_state = 'confirmed', pool_balances = ?::text[], chain_error = null where duel_id = ? returning id`,
          [textArray(balances), duelId],
        );
        if (!updated.length) this.logger.warn({ duelId }, 'market created on chain without a duel record; ignored');
        break;
      }
      case 'bought':
      case 'sold':
        await this.applyTrade(em, duelId, e);
        break;
      case 'resolved':
        // Replays are harmless: a later Settled or Cancelled in the same batch moves it on again.
        await conn.execute(
          `update duels set status = 'pending_contest', winning_option_index = ?, resolved_at = to_timestamp(?),
             contest_ends_at = to_timestamp(?) where duel_id = ? and status in ('open', 'pending')`,
          [e.outcome, e.timestamp, e.contestEndsAt, duelId],
        );
        break;
      case 'settled':
        await conn.execute(
          `update duels set status = 'settled', winning_option_index = ?, resolved_at = coalesce(resolved_at, to_timestamp(?))
           where duel_id = ? and status <> 'cancelled'`,
          [e.outcome, e.timestamp, duelId],
        );
        break;
      case 'cancelled':
        await conn.execute(`update duels set status = 'cancelled' where duel_id = ?`, [duelId]);
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
    const conn = { execute: sqlIn(em) };
    const inserted = await conn.execute<{ id: string }>(
      `insert into trades (id, duel_id, tx_hash, log_index, block_number, trader, side, option_index, collateral, fee, shares, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, to_timestamp(?))
       on conflict (tx_hash, log_index) do nothing returning id`,
      [
        randomUUID(),
        duelId,
        e.txHash.toLowerCase(),
        e.logIndex,
        e.blockNumber.toString(),
        getAddress(e.trader),
        e.kind === 'bought' ? 'buy' : 'sell',
        e.option,
        e.collateral.toString(),
        e.fee.toString(),
        e.shares.toString(),
        e.timestamp,
      ],
    );
    if (!inserted.length) return; // already applied
    await this.applyPosition(em, duelId, e);
    const yesBps = Number(((prices(e.balances)[0] ?? 0n) * 10_000n) / ONE);
    // A new participant is a trader with no other trade in this market: counted once, when their
    // first trade is applied (a replayed trade returned above), without recounting the market's trades.
    await conn.execute(
      `update duels set pool_balances = ?::text[], yes_bps = ?, total_volume = total_volume + ?,
         unique_participants = unique_participants +
           case when exists (select 1 from trades where trader = ? and duel_id = ? and id <> ?) then 0 else 1 end
       where duel_id = ?`,
      [
        textArray(e.balances.map((b) => b.toString())),
        yesBps,
        e.collateral.toString(),
        getAddress(e.trader),
        duelId,
        inserted[0]?.id,
        duelId,
      ],
    );
    await recordTradeSnapshot(em.getConnection(), duelId, e.balances, e.timestamp, em.getTransactionContext());
  }

  private async applyPosition(
    em: EntityManager,
    duelId: string,
    e: Extract<MarketEvent, { kind: 'bought' | 'sold' }>,
  ): Promise<void> {
    const conn = { execute: sqlIn(em) };
    const holder = getAddress(e.trader);
    const [current] = await conn.execute<{ shares: string; cost_basis: string }>(
      'select shares::text, cost_basis::text from positions where duel_id = ? and holder = ? and option_index = ? for update',
      [duelId, holder, e.option],
    );
    const shares = BigInt(current?.shares ?? '0');
    const cost = BigInt(current?.cost_basis ?? '0');
    // Average cost: a sale removes the sold fraction of the cost basis.
    const next =
      e.kind === 'bought'
        ? { shares: shares + e.shares, cost: cost + e.collateral }
        : { shares: shares - e.shares, cost: shares === 0n ? 0n : cost - (cost * e.shares) / shares };
    await conn.execute(
      `insert into positions (duel_id, holder, option_index, shares, cost_basis) values (?, ?, ?, ?, ?)
       on conflict (duel_id, holder, option_index) do update set shares = excluded.shares, cost_basis = excluded.cost_basis`,
      [duelId, holder, e.option, next.shares.toString(), next.cost.toString()],
    );
  }
}
