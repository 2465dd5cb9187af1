import { EntitySchema } from '@mikro-orm/core';

/**
 * The event log and outbox (docs/events.md): one row per event, written in the transaction of the
 * state change it describes. `seq` — the event's place in the stream — is null until the relay
 * numbers it; the relay numbers events one transaction at a time, so every event numbered below
 * a visible one is visible too, and a reader that resumes after `seq` misses nothing.
 */
export interface EventRow {
  id: string;
  seq: string | null;
  type: string;
  version: number;
  builderAppId: string;
  duelId: string | null;
  isPrivate: boolean;
  /** One event per subject: a replayed state change finds its event and writes none. */
  dedupeKey: string;
  data: unknown;
  createdAt: Date;
}

export const EventEntity = new EntitySchema<EventRow>({
  name: 'Event',
  tableName: 'events',
  indexes: [
    {
      name: 'events_unnumbered_idx',
      expression: 'create index "events_unnumbered_idx" on "events" ("created_at", "id") where "seq" is null',
    },
    { name: 'events_builder_seq_idx', properties: ['builderAppId', 'seq'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    seq: { type: 'bigint', nullable: true, unique: true },
    type: { type: 'string', length: 40 },
    version: { type: 'smallint' },
    builderAppId: { type: 'uuid' },
    duelId: { type: 'string', length: 66, nullable: true },
    isPrivate: { type: 'boolean' },
    dedupeKey: { type: 'string', length: 200, unique: true },
    data: { type: 'json', columnType: 'jsonb' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** The relay's high-water mark: the last `seq` it gave out (one row, locked while it numbers). */
export interface EventRelayRow {
  name: string;
  lastSeq: string;
}

export const EventRelayEntity = new EntitySchema<EventRelayRow>({
  name: 'EventRelay',
  tableName: 'event_relay',
  properties: {
    name: { type: 'string', length: 32, primary: true },
    lastSeq: { type: 'bigint' },
  },
});
