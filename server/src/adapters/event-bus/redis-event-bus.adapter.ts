import type { Redis } from 'ioredis';
import type { EventBatch } from '../../platform/events/event.types.js';
import type { EventBusPort } from './event-bus.port.js';

/** How long a publish waits for a connection being made (`connecting`). */
const CONNECTING_WAIT_MS = 1_000;

/**
 * Redis pub/sub: the relay of whichever instance numbered a batch publishes it, every instance's
 * streams receive it. A subscriber connection is dedicated (a subscribed ioredis client can do
 * nothing else), duplicated from the shared one. The channel is named after the deployment's
 * database (`channelOf`), so deployments or test databases sharing one Redis never hear each other.
 */
export class RedisEventBusAdapter implements EventBusPort {
  private readonly handlers = new Set<(batch: EventBatch) => void>();
  private readonly resumed = new Set<() => void>();
  private subscriber: Redis | undefined;
  private subscribed: Promise<unknown> | undefined;
  private channel: Promise<string> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly channelOf: () => Promise<string>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** The channel's name, looked up once; a lookup that failed (the database away) is made again next time. */
  private name(): Promise<string> {
    if (!this.channel) {
      const named = this.channelOf().then((n) => `duelkit:events:${n}`);
      this.channel = named;
      named.catch(() => {
        if (this.channel === named) this.channel = undefined;
      });
    }
    return this.channel;
  }

  async publish(batch: EventBatch): Promise<void> {
    const channel = await this.name();
    await this.connecting();
    await this.redis.publish(channel, JSON.stringify(batch));
  }

  /**
   * Waits, up to `CONNECTING_WAIT_MS`, for a connection of the shared client that is being made
   * (a starting instance's first one, or a reconnection attempt under way): that client fails
   * fast while it is not up, and a batch published then would reach the streams only at their
   * next heartbeat. A client waiting to retry after a failure is not waited for.
   */
  private async connecting(): Promise<void> {
    const { redis } = this;
    if (redis.status !== 'connecting' && redis.status !== 'connect') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, CONNECTING_WAIT_MS);
      redis.once('ready', done);
      redis.once('close', done);
    });
  }

  async subscribe(handler: (batch: EventBatch) => void, onResumed?: () => void): Promise<() => void> {
    this.handlers.add(handler);
    if (onResumed) this.resumed.add(onResumed);
    if (!this.subscriber) {
      // The shared client fails fast while disconnected; the subscriber waits for its connection
      // instead, and subscribes again itself after a reconnect (below), so it knows when that is done.
      const sub = this.redis.duplicate({
        enableOfflineQueue: true,
        maxRetriesPerRequest: null,
        autoResubscribe: false,
      });
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
      this.subscribed = this.listen(sub, this.name());
    }
    const { subscriber, subscribed } = this;
    try {
      await subscribed;
    } catch (err) {
      // Not subscribed (the channel's name could not be looked up): the next subscriber starts over.
      this.handlers.delete(handler);
      if (onResumed) this.resumed.delete(onResumed);
      if (this.subscriber === subscriber) {
        this.subscriber = undefined;
        this.subscribed = undefined;
        subscriber?.disconnect();
      }
      throw err;
    }
    return () => {
      this.handlers.delete(handler);
      if (onResumed) this.resumed.delete(onResumed);
    };
  }

  /**
   * Subscribes `sub` to the channel on each of its connections once that connection is ready, and
   * resolves when the first subscription is acknowledged; each later one calls the `resumed`
   * callbacks (what was published while the connection was down never came).
   *
   * Only once ready: ioredis writes a SUBSCRIBE made while a connection's handshake is under way
   * ahead of its ready check, whose INFO then fails in subscriber mode and drops the connection
   * (redis/ioredis#2037); the next connection would come up unsubscribed.
   */
  private listen(sub: Redis, channel: Promise<string>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let acknowledged = false;
      const onReady = () => {
        channel
          .then(async (name) => {
            // Lost again before the name was known: that connection's own 'ready' subscribes.
            if (sub.status !== 'ready') return;
            await sub.subscribe(name);
            if (!acknowledged) {
              acknowledged = true;
              resolve();
              return;
            }
            for (const resume of this.resumed) resume();
          })
          .catch((err: Error) => {
            if (acknowledged) this.onError(err);
            else reject(err);
          });
      };
      sub.on('ready', onReady);
      // A name that cannot be looked up fails the subscription now, ready connection or not.
      channel.catch(reject);
    });
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.resumed.clear();
    const sub = this.subscriber;
    this.subscriber = undefined;
    this.subscribed = undefined;
    if (sub) await sub.quit().catch(() => sub.disconnect());
  }
}
