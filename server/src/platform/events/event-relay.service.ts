import type { EventBusPort } from '../../adapters/event-bus/event-bus.port.js';
import type { Logger } from '../../logger.js';
import type { EventLogRepository, NumberedHook } from './event-log.repository.js';
import type { EventBatch } from './event.types.js';

/**
 * Moves events from the outbox to their readers: numbers what committed since the last run
 * (creating webhook deliveries in the same transaction, through the hooks) and publishes the
 * batch on the bus. A batch published by nobody (the process died between commit and publish)
 * is read from the log by the streams, which notice the gap at the next batch or heartbeat. A
 * batch whose publish failed is published again by the next run that has nothing newer (a newer
 * batch tells the streams of the gap itself), so a quiet moment after a bus error does not leave
 * the streams waiting for their heartbeat.
 */
export class EventRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  /** The newest batch whose publish failed and that no later publish has covered. */
  private unpublished: EventBatch | undefined;

  constructor(
    private readonly log: EventLogRepository,
    private readonly bus: EventBusPort,
    private readonly hooks: readonly NumberedHook[],
    private readonly logger: Logger,
    private readonly batchSize = 500,
  ) {}

  /** Numbers and publishes one batch; how many events it carried. */
  async runOnce(): Promise<number> {
    const batch = await this.log.numberPending(this.batchSize, this.hooks);
    if (!batch.events.length) {
      if (this.unpublished) await this.publish(this.unpublished);
      return 0;
    }
    await this.publish(batch);
    return batch.events.length;
  }

  private async publish(batch: EventBatch): Promise<void> {
    try {
      await this.bus.publish(batch);
      this.unpublished = undefined;
    } catch (err) {
      this.unpublished = batch;
      this.logger.warn({ err }, 'event batch not published; sent again at the next run');
    }
  }

  /** Runs every `intervalMs` in this process (each run is one short transaction; processes take turns). */
  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.running = this.running.then(() =>
        this.runOnce().catch((err: unknown) => this.logger.warn({ err }, 'event relay run failed')),
      );
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
