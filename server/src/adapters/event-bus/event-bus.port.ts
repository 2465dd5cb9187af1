import type { EventBatch } from '../../platform/events/event.types.js';

/**
 * Fans numbered events out to every instance (their streams): in process on the embedded
 * defaults, Redis pub/sub when REDIS_URL is set. Delivery is best effort — a subscriber that sees
 * a batch whose `prev` is past what it has reads the gap from the event log.
 */
export interface EventBusPort {
  publish(batch: EventBatch): Promise<void>;
  /**
   * Calls `handler` with every batch published, by any instance, once the returned promise has
   * resolved (the subscription is in place); resolves with the unsubscribe. `onResumed` is called
   * when the subscription is in place again after its connection was lost: batches published
   * meanwhile never arrive, so a subscriber reads the log then.
   */
  subscribe(handler: (batch: EventBatch) => void, onResumed?: () => void): Promise<() => void>;
  close(): Promise<void>;
}
