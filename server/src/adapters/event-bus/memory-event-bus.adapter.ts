import type { EventBatch } from '../../platform/events/event.types.js';
import type { EventBusPort } from './event-bus.port.js';

/** One process: the relay and the streams share this object (nothing to lose, nothing to resume). */
export class MemoryEventBusAdapter implements EventBusPort {
  private readonly handlers = new Set<(batch: EventBatch) => void>();

  publish(batch: EventBatch): Promise<void> {
    for (const h of this.handlers) h(batch);
    return Promise.resolve();
  }

  subscribe(handler: (batch: EventBatch) => void): Promise<() => void> {
    this.handlers.add(handler);
    return Promise.resolve(() => void this.handlers.delete(handler));
  }

  close(): Promise<void> {
    this.handlers.clear();
    return Promise.resolve();
  }
}
