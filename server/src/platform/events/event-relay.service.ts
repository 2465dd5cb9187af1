import type { EventBusPort } from '../../adapters/event-bus/event-bus.port.js';
import type { Logger } from '../../logger.js';
import type { EventLogRepository, NumberedHook } from './event-log.repository.js';

/**
 * Moves events from the outbox to their readers: numbers what committed since the last run
 * (creating webhook deliveries in the same transaction, through the hooks) and publishes the
 * batch on the bus. A batch published by nobody (the process died between commit and publish)
 * is read from the log by the streams, which notice the gap at the next batch or heartbeat.
 */
export class EventRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

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
    if (!batch.events.length) return 0;
    await this.bus
      .publish(batch)
      .catch((err: unknown) => this.logger.warn({ err }, 'event batch not published; streams read it from the log'));
    return batch.events.length;
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
