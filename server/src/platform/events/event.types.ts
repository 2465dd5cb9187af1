/** An event as stored and as delivered (`DuelkitEventSchema` on the wire). */
export interface StoredEvent {
  readonly id: string;
  /** Null only on `webhook.test`, which is never numbered. */
  readonly seq: string | null;
  readonly type: string;
  readonly version: number;
  readonly builderAppId: string;
  readonly duelId: string | null;
  readonly isPrivate: boolean;
  readonly data: unknown;
  readonly createdAt: string;
}

/** What the relay publishes after numbering: the events of `(prev, last]`, in order. */
export interface EventBatch {
  /** The relay's high-water mark before this batch: a subscriber that saw less missed something. */
  readonly prev: string;
  readonly last: string;
  readonly events: readonly StoredEvent[];
}

/** The wire envelope of an event (the body of a webhook delivery, the data of a stream message). */
export function toWire(e: StoredEvent): Record<string, unknown> {
  return {
    id: e.id,
    seq: e.seq,
    type: e.type,
    version: e.version,
    createdAt: e.createdAt,
    builderAppId: e.builderAppId,
    data: e.data,
  };
}
