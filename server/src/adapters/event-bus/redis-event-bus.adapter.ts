import type { Redis } from 'ioredis';
import type { EventBatch } from '../../platform/events/event.types.js';
import type { EventBusPort } from './event-bus.port.js';

const CHANNEL = 'duelkit:events';

/**
 * Redis pub/sub: the relay of whichever instance numbered a batch publishes it, every instance's
 * streams receive it. A subscriber connection is dedicated (a subscribed ioredis client can do
 * nothing else), duplicated from the shared one.
 */
export class RedisEventBusAdapter implements EventBusPort {
  private readonly handlers = new Set<(batch: EventBatch) => void>();
  private subscriber: Redis | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly onError: (err: unknown) => void,
  ) {}

  async publish(batch: EventBatch): Promise<void> {
    await this.redis.publish(CHANNEL, JSON.stringify(batch));
  }

  subscribe(handler: (batch: EventBatch) => void): () => void {
    this.handlers.add(handler);
    if (!this.subscriber) {
      const sub = this.redis.duplicate();
      this.subscriber = sub;
      sub.on('message', (_channel: string, message: string) => {
        let batch: EventBatch;
        try {
          batch = JSON.parse(message) as EventBatch;
        } catch (err) {
          this.onError(err);
          return;
        }
        for (const h of this.handlers) h(batch);
      });
      sub.on('error', (err: unknown) => this.onError(err));
      sub.subscribe(CHANNEL).catch((err: unknown) => this.onError(err));
    }
    return () => this.handlers.delete(handler);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    const sub = this.subscriber;
    this.subscriber = undefined;
    if (sub) await sub.quit().catch(() => sub.disconnect());
  }
}
