import type { EntityManager } from '@mikro-orm/postgresql';
import type { MarketEvent } from '../../adapters/chain/chain.port.js';
import type { Clock } from '../../platform/clock.js';
import { sqlIn, type SqlExec } from '../../platform/db/sql.js';
import type { RecordedTx, TxOutcome } from '../../platform/chain-tx/chain-tx.types.js';
import type { MarketEventSink } from './market-indexer.js';
import { BET_FAILED_SQL, duelEventSql } from './market-events.sql.js';

const DUEL_EVENT_OF = {
  created: 'duel.confirmed',
  resolved: 'duel.resolved',
  settled: 'duel.settled',
  cancelled: 'duel.cancelled',
} as const;

/**
 * Writes the markets flow's events (docs/events.md) into the event log, inside the transaction of
 * the change: as an indexer sink (confirmations, resolutions, settlements, cancellations, applied
 * just before the sink runs) and for the outcome of a trade the chain refused. A trade's
 * `bet.confirmed` is written by the indexer's statement for the trade itself (`applyTrade`). Each
 * event has a natural dedupe key — one resolution per market, one trade per (txHash, logIndex) —
 * so a replayed batch writes no second event.
 */
export class MarketEventLogRepository implements MarketEventSink {
  constructor(private readonly clock: Clock) {}

  async apply(em: EntityManager, event: MarketEvent): Promise<void> {
    if (!(event.kind in DUEL_EVENT_OF)) return;
    const sql = sqlIn(em);
    const at = new Date(this.clock.now());
    const duelId = event.duelId.toLowerCase();
    const type = DUEL_EVENT_OF[event.kind as keyof typeof DUEL_EVENT_OF];
    // A creation the API never recorded is ignored by the indexer, and so here.
    await sql(duelEventSql('duels d where d.duel_id = ?'), [type, `${type}:`, at, duelId]);
  }

  /** `bet.failed` for a buy or sale whose write reverted or could never be mined. */
  async betFailed(sql: SqlExec, tx: RecordedTx, outcome: TxOutcome & { status: 'reverted' | 'failed' }): Promise<void> {
    const duelId = tx.effect?.['duelId'];
    if (typeof duelId !== 'string') return;
    const option = tx.effect?.['option'];
    await sql(BET_FAILED_SQL, [
      tx.txHash,
      tx.txHash,
      tx.account,
      tx.kind === 'markets.sell' ? 'sell' : 'buy',
      typeof option === 'number' ? option : null,
      outcome.status,
      outcome.status === 'reverted' ? 'the transaction reverted on chain' : outcome.reason,
      new Date(this.clock.now()),
      duelId.toLowerCase(),
    ]);
  }
}
