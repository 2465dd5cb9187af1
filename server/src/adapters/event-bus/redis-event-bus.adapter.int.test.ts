import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventBatch } from '../../platform/events/event.types.js';
import { RedisEventBusAdapter } from './redis-event-bus.adapter.js';

/** The run's Redis (started by `.ci/run`, as the server tests use it). */
const REDIS_URL = 'redis://127.0.0.1:6379';

const opened: { bus: RedisEventBusAdapter; redis: Redis }[] = [];

/**
 * One instance's bus on the real Redis, for the deployment whose database `name` returns, once its
 * connection is up (the server's shared client fails fast while it is not, as this one does).
 */
async function busFor(name: () => Promise<string>, up = true, connectionName?: string): Promise<RedisEventBusAdapter> {
  const redis = new Redis(REDIS_URL, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    ...(connectionName ? { connectionName } : {}),
  });
  const bus = new RedisEventBusAdapter(redis, name, () => undefined);
  opened.push({ bus, redis });
  if (up && redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  return bus;
}

const batch = (last: number): EventBatch => ({ prev: String(last - 1), last: String(last), events: [] });

/** Resolves with the batches `bus` hears once it has heard `count` of them. */
async function hear(bus: RedisEventBusAdapter, count: number) {
  const heard: EventBatch[] = [];
  let done: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (done = resolve));
  await bus.subscribe((b) => {
    heard.push(b);
    if (heard.length === count) done();
  });
  return { heard, all };
}

afterEach(async () => {
  for (const { bus, redis } of opened.splice(0)) {
    await bus.close();
    redis.disconnect();
  }
});

describe('the event bus on Redis', () => {
  it('carries a batch from one instance to another of the same deployment, and to no other deployment', async () => {
    const database = `dk_bus_${randomBytes(4).toString('hex')}`;
    const other = `${database}_other`;
    const publisher = await busFor(() => Promise.resolve(database));
    const listener = await hear(await busFor(() => Promise.resolve(database)), 1);
    const elsewhere = await hear(await busFor(() => Promise.resolve(other)), 1);

    await publisher.publish(batch(1));
    // A marker on the other deployment's channel, published once the batch's PUBLISH has been
    // answered: Redis queues a message to its subscribers before it answers, so a batch that
    // crossed over would be heard there before the marker.
    await (await busFor(() => Promise.resolve(other))).publish(batch(99));
    await Promise.all([listener.all, elsewhere.all]);
    expect(listener.heard).toEqual([batch(1)]);
    expect(elsewhere.heard).toEqual([batch(99)]);
  });

  it('publishes a batch of an instance that is starting, whose connection is not up yet', async () => {
    const database = `dk_bus_${randomBytes(4).toString('hex')}`;
    const listener = await hear(await busFor(() => Promise.resolve(database)), 1);
    // Published at once: the shared client, which fails fast while disconnected, is still connecting.
    const starting = await busFor(() => Promise.resolve(database), false);
    await starting.publish(batch(1));
    await listener.all;
    expect(listener.heard).toEqual([batch(1)]);
  });

  it('subscribes once its connection is ready when asked while the connection is being made, and stays subscribed', async () => {
    const database = `dk_bus_${randomBytes(4).toString('hex')}`;
    const redis = new Redis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    // The channel's name arrives the moment the subscriber's connection is made, before that
    // connection's handshake and ready check have run.
    let made: () => void = () => undefined;
    const connected = new Promise<void>((resolve) => (made = resolve));
    const duplicate = redis.duplicate.bind(redis);
    redis.duplicate = (options) => {
      const sub = duplicate(options);
      sub.once('connect', () => made());
      return sub;
    };
    // An error of the subscriber's connection (the dropped connection of redis/ioredis#2037) fails the test.
    let fail: (err: Error) => void = () => undefined;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    const bus = new RedisEventBusAdapter(
      redis,
      () => connected.then(() => database),
      (err) => fail(err as Error),
    );
    opened.push({ bus, redis });

    const listener = await hear(bus, 1);
    await (await busFor(() => Promise.resolve(database))).publish(batch(3));
    await Promise.race([listener.all, failed]);
    expect(listener.heard).toEqual([batch(3)]);
  });

  it('subscribes again after its connection was cut, then says so: what was published meanwhile never came', async () => {
    const database = `dk_bus_${randomBytes(4).toString('hex')}`;
    const name = `dk-bus-test-${randomBytes(4).toString('hex')}`;
    const bus = await busFor(() => Promise.resolve(database), true, name);
    let resumed = 0;
    let onResumed: () => void = () => undefined;
    const back = new Promise<void>((resolve) => (onResumed = resolve));
    const heard: EventBatch[] = [];
    await bus.subscribe(
      (b) => heard.push(b),
      () => {
        resumed++;
        onResumed();
      },
    );

    // Cut this bus's subscriber connection only (the run's other tests share this Redis).
    const admin = new Redis(REDIS_URL);
    try {
      const clients = (await admin.client('LIST')) as string;
      const ids = clients
        .split('\n')
        .filter((line) => line.includes(` name=${name} `) && / flags=P /.test(line))
        .map((line) => /^id=(\d+) /.exec(line)?.[1]);
      expect(ids).toHaveLength(1);
      await admin.client('KILL', 'ID', String(ids[0]));
    } finally {
      admin.disconnect();
    }
    await back;
    expect(resumed).toBe(1);

    const listener = await hear(bus, 1);
    await (await busFor(() => Promise.resolve(database))).publish(batch(7));
    await listener.all;
    expect(listener.heard).toEqual([batch(7)]);
    expect(heard).toEqual([batch(7)]);
  });

  it('looks the channel up again after a lookup failed (the database away), instead of failing for good', async () => {
    const database = `dk_bus_${randomBytes(4).toString('hex')}`;
    let away = true;
    const lookup = () => (away ? Promise.reject(new Error('database unavailable')) : Promise.resolve(database));
    const bus = await busFor(lookup);
    const heardFirst: EventBatch[] = [];
    const handler = (b: EventBatch) => void heardFirst.push(b);

    await expect(bus.subscribe(handler)).rejects.toThrow('database unavailable');
    await expect(bus.publish(batch(1))).rejects.toThrow('database unavailable');

    away = false;
    const listener = await hear(bus, 1);
    await bus.publish(batch(2));
    await listener.all;
    expect(listener.heard).toEqual([batch(2)]);
    // The handler of the subscription that failed is not called: it would deliver twice.
    expect(heardFirst).toEqual([]);
  });
});
