import { eventInsertSql, isoSql } from '../../platform/events/event-insert.sql.js';

/** A market's snapshot (`DuelSnapshotSchema`) as a jsonb expression over the duels row `d`. */
export const DUEL_SNAPSHOT_SQL = `jsonb_build_object(
  'duelId', d.duel_id, 'status', d.status, 'chainState', d.chain_state, 'isPrivate', d.is_private,
  'question', d.question, 'options', to_jsonb(d.options), 'winningOptionIndex', d.winning_option_index,
  'poolBalances', to_jsonb(d.pool_balances), 'totalVolume', d.total_volume::text,
  'uniqueParticipants', d.unique_participants, 'yesBps', d.yes_bps, 'endTime', ${isoSql('d.end_time')},
  'resolvedAt', ${isoSql('d.resolved_at')}, 'contestEndsAt', ${isoSql('d.contest_ends_at')})`;

/**
 * One event per market row `d` of `from` (e.g. `duels d where d.duel_id = ?`), with the market's
 * snapshot as its data. Parameters: type, dedupe-key prefix (the duel id is appended), created_at,
 * then those of `from`.
 */
export function duelEventSql(from: string): string {
  return eventInsertSql(
    `select ?::text, d.builder_app_id, d.duel_id, d.is_private, ?::text || d.duel_id, ${DUEL_SNAPSHOT_SQL}, ?::timestamptz
     from ${from}`,
  );
}

/**
 * `bet.confirmed` for each trade row `t` of `from` joined to its market row `d`, with the market's
 * pools and price after the trade. Parameters: the pools (text[]), the price (yes bps), created_at,
 * then those of `from`. The indexer writes it in the trade's own statement (`applyTrade`).
 */
export function betConfirmedSql(from: string): string {
  return eventInsertSql(
    `select 'bet.confirmed', d.builder_app_id, d.duel_id, d.is_private, 'bet.confirmed:' || t.tx_hash || ':' || t.log_index,
       jsonb_build_object('duelId', d.duel_id, 'txHash', t.tx_hash, 'logIndex', t.log_index, 'trader', t.trader,
         'side', t.side, 'optionIndex', t.option_index, 'collateral', t.collateral::text, 'fee', t.fee::text,
         'shares', t.shares::text, 'poolBalances', to_jsonb(?::text[]), 'yesBps', ?::int),
       ?::timestamptz
     from ${from}`,
  );
}

/** `bet.failed` for an accepted trade whose write reverted or failed. Parameters in order of the select. */
export const BET_FAILED_SQL = eventInsertSql(
  `select 'bet.failed', d.builder_app_id, d.duel_id, d.is_private, 'bet.failed:' || ?::text,
     jsonb_build_object('duelId', d.duel_id, 'txHash', ?::text, 'trader', ?::text, 'side', ?::text,
       'optionIndex', ?::int, 'outcome', ?::text, 'reason', ?::text),
     ?::timestamptz
   from duels d where d.duel_id = ?`,
);

/** `duel.contest_opened` for the contest (by id), with the market's snapshot and its contest count. */
export const CONTEST_OPENED_SQL = eventInsertSql(
  `select 'duel.contest_opened', d.builder_app_id, d.duel_id, d.is_private, 'duel.contest_opened:' || c.id,
     jsonb_build_object('duel', ${DUEL_SNAPSHOT_SQL}, 'proposedOptionIndex', c.proposed_option_index,
       'contests', (select count(*) from duel_contests x where x.duel_id = c.duel_id)::int),
     ?::timestamptz
   from duel_contests c join duels d on d.duel_id = c.duel_id where c.id = ?`,
);
