import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlIn } from '../../platform/db/sql.js';
import { betConfirmedSql } from './market-events.sql.js';
import { tradeSnapshotInsertSql, type TradeSnapshot } from './price-snapshot.repository.js';

/** A PostgreSQL array literal of decimal strings (the query builder would expand a JS array). */
function textArray(values: readonly string[]): string {
  return `{${values.join(',')}}`;
}

/** A trade event as the read model stores it. */
export interface IndexedTrade {
  readonly txHash: string;
  readonly logIndex: number;
  readonly blockNumber: bigint;
  readonly trader: string;
  readonly side: 'buy' | 'sell';
  readonly option: number;
  readonly collateral: bigint;
  readonly fee: bigint;
  readonly shares: bigint;
  /** Unix seconds. */
  readonly timestamp: number;
}

/**
 * A trade's change to its holder's position in one option, as an upsert whose row `source` yields
 * as (duel_id, holder, option_index, shares, cost_basis) followed by the parameters of
 * `positionChange` (the upsert holds the row's lock): a buy adds its shares and its collateral to
 * the cost basis; a sale removes its shares and the sold fraction of the cost basis (average
 * cost), rounded toward zero as bigint division is. A sale with no position row leaves negative
 * shares and no cost.
 */
function positionUpsertSql(source: string): string {
  return `insert into positions as p (duel_id, holder, option_index, shares, cost_basis) ${source}
    on conflict (duel_id, holder, option_index) do update set
      shares = p.shares + excluded.shares,
      cost_basis = case
        when ?::boolean then p.cost_basis + excluded.cost_basis
        when p.shares = 0 then 0
        else p.cost_basis - div(p.cost_basis * ?::numeric, p.shares)
      end`;
}

/** The position upsert's parameters after its row's duel, holder and option: shares, cost, is-buy, shares sold. */
function positionChange(trade: { side: 'buy' | 'sell'; shares: bigint; collateral: bigint }): unknown[] {
  const buy = trade.side === 'buy';
  return [
    (buy ? trade.shares : -trade.shares).toString(),
    (buy ? trade.collateral : 0n).toString(),
    buy,
    trade.shares.toString(),
  ];
}

/**
 * The statements of the market indexer (MarketIndexer holds the rules): its cursor, the duels'
 * chain state and pools, trades and positions. Every method runs on `em`'s transaction.
 */
export class MarketIndexRepository {
  /** The last block indexed under `cursor`, or null before the first run. */
  async lastBlock(em: EntityManager, cursor: string): Promise<bigint | null> {
    const [row] = await em
      .getConnection()
      .execute<{ last_block: string }[]>('select last_block from chain_cursors where name = ?', [cursor]);
    return row ? BigInt(row.last_block) : null;
  }

  async saveCursor(em: EntityManager, cursor: string, to: bigint): Promise<void> {
    await sqlIn(em)(
      'insert into chain_cursors (name, last_block) values (?, ?) on conflict (name) do update set last_block = excluded.last_block',
      [cursor, to.toString()],
    );
  }

  /** The chain confirms a creation the API recorded; false when there is no such duel record. */
  async confirmCreated(em: EntityManager, duelId: string, balances: readonly string[]): Promise<boolean> {
    const updated = await sqlIn(em)<{ id: string }>(
      `update duels set chain_state = 'confirmed', pool_balances = ?::text[], chain_error = null where duel_id = ? returning id`,
      [textArray(balances), duelId],
    );
    return updated.length > 0;
  }

  async markResolved(
    em: EntityManager,
    duelId: string,
    outcome: number,
    timestamp: number,
    contestEndsAt: number,
  ): Promise<void> {
    await sqlIn(em)(
      `update duels set status = 'pending_contest', winning_option_index = ?, resolved_at = to_timestamp(?),
         contest_ends_at = to_timestamp(?) where duel_id = ? and status in ('open', 'pending')`,
      [outcome, timestamp, contestEndsAt, duelId],
    );
  }

  async markSettled(em: EntityManager, duelId: string, outcome: number, timestamp: number): Promise<void> {
    await sqlIn(em)(
      `update duels set status = 'settled', winning_option_index = ?, resolved_at = coalesce(resolved_at, to_timestamp(?))
       where duel_id = ? and status <> 'cancelled'`,
      [outcome, timestamp, duelId],
    );
  }

  async markCancelled(em: EntityManager, duelId: string): Promise<void> {
    await sqlIn(em)(`update duels set status = 'cancelled' where duel_id = ?`, [duelId]);
  }

  /**
   * A trade applied to the read model in one statement, once (keyed by txHash, logIndex): the
   * trade row, its holder's position (`positionUpsertSql`), the duel's pools, price, volume and
   * participants, the price snapshot it leaves (none when `snapshot` is null) and its
   * `bet.confirmed` event, created at `eventAt`. A trade already applied (a replayed batch)
   * changes nothing. Returns the new trade's id, or undefined when it was already applied.
   *
   * The parts share the statement's snapshot, so none sees the trade row it inserts: "the trader
   * has another trade in this market" reads only the trades before this one, which is what counts
   * a new participant once.
   */
  async applyTrade(
    em: EntityManager,
    duelId: string,
    t: IndexedTrade,
    after: { balances: readonly bigint[]; yesBps: number; snapshot: TradeSnapshot | null },
    eventAt: Date,
  ): Promise<string | undefined> {
    const snapshot = after.snapshot
      ? `, snapshot as (${tradeSnapshotInsertSql('select t.duel_id, ?::text[], ?::int, to_timestamp(?) from trade t')})`
      : '';
    const pools = textArray(after.balances.map((b) => b.toString()));
    const rows = await sqlIn(em)<{ id: string }>(
      `with trade as (
         insert into trades (id, duel_id, tx_hash, log_index, block_number, trader, side, option_index, collateral, fee, shares, created_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, to_timestamp(?))
         on conflict (tx_hash, log_index) do nothing
         returning id, duel_id, tx_hash, log_index, trader, side, option_index, collateral, fee, shares
       ), position as (
         ${positionUpsertSql('select t.duel_id, t.trader, t.option_index, ?::numeric, ?::numeric from trade t')}
       ), duel as (
         update duels set pool_balances = ?::text[], yes_bps = ?, total_volume = total_volume + ?::numeric,
           unique_participants = unique_participants +
             case when exists (select 1 from trades where trader = ? and duel_id = ?) then 0 else 1 end
         where duel_id = ? and exists (select 1 from trade)
       )${snapshot}, event as (
         ${betConfirmedSql('trade t join duels d on d.duel_id = t.duel_id')}
       )
       select id from trade`,
      [
        randomUUID(),
        duelId,
        t.txHash,
        t.logIndex,
        t.blockNumber.toString(),
        t.trader,
        t.side,
        t.option,
        t.collateral.toString(),
        t.fee.toString(),
        t.shares.toString(),
        t.timestamp,
        ...positionChange(t),
        pools,
        after.yesBps,
        t.collateral.toString(),
        t.trader,
        duelId,
        duelId,
        ...(after.snapshot ? [after.snapshot.optionPrices, after.snapshot.yesBps, t.timestamp] : []),
        pools,
        after.yesBps,
        eventAt,
      ],
    );
    return rows[0]?.id;
  }

  /** A trade's change to its holder's position in one option, on its own (`positionUpsertSql`). */
  async applyTradeToPosition(
    em: EntityManager,
    duelId: string,
    holder: string,
    option: number,
    trade: { side: 'buy' | 'sell'; shares: bigint; collateral: bigint },
  ): Promise<void> {
    await sqlIn(em)(positionUpsertSql('values (?, ?, ?::smallint, ?::numeric, ?::numeric)'), [
      duelId,
      holder,
      option,
      ...positionChange(trade),
    ]);
  }
}
