/**
 * An insert into the event log from a `select` that yields, in order: type, builder_app_id,
 * duel_id, is_private, dedupe_key, data (jsonb), created_at. The id is random and the version is
 * the catalogue's; an event whose dedupe key exists is not written again, so a state change that
 * is applied twice (an indexer replay, a retried job) still has exactly one event. Returns the ids
 * written.
 */
export function eventInsertSql(select: string): string {
  return `insert into events (id, version, type, builder_app_id, duel_id, is_private, dedupe_key, data, created_at)
    select gen_random_uuid(), 1, s.* from (${select}) s
    on conflict (dedupe_key) do nothing returning id`;
}

/** ISO-8601 (UTC, milliseconds) text of a timestamptz expression, as on the wire. */
export function isoSql(expr: string): string {
  return `to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
