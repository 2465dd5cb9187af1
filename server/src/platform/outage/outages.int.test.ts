import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { call, outageHarness, readyState } from '../../../test/support/outage-harness.js';

const { close, onClose, proxyTo, serverProcess, testDatabaseUrl } = outageHarness();
afterAll(close);

describe('outages', () => {
  it('PostgreSQL down: 503 DATABASE_UNAVAILABLE with Retry-After, recovery without restart, nothing lost', async () => {
    const proxy = await proxyTo(5432);
    const { server, key } = await serverProcess({
      DATABASE_URL: proxy.urlFor(await testDatabaseUrl()),
      DATABASE_POOL_SIZE: '3',
    });
    const base = server.marketsUrl;
    const before = privateKeyToAccount(generatePrivateKey()).address;
    const during = privateKeyToAccount(generatePrivateKey()).address;
    const register = (address: string, idempotencyKey: string) =>
      call(base, key, '/svc/user/bulk-register/register-simple', { body: { address }, idempotencyKey });
    expect((await register(before, 'before-1')).status).toBe(201);

    await proxy.cut();
    const read = await call(base, key, '/svc/user/auth/check-username?username=outage_user');
    expect(read.status).toBe(503);
    expect(read.body['code']).toBe('DATABASE_UNAVAILABLE');
    expect(Number(read.retryAfter)).toBeGreaterThan(0);
    const write = await register(during, 'during-1');
    expect(write.status).toBe(503);
    expect(write.body['code']).toBe('DATABASE_UNAVAILABLE');
    const notReady = await readyState(base, 'not_ready');
    expect(notReady.httpStatus).toBe(503);
    expect(notReady.body.checks['postgres']?.status).toBe('down');

    await proxy.restore();
    expect((await readyState(base, 'ready')).httpStatus).toBe(200);
    expect((await call(base, key, '/svc/user/auth/check-username?username=outage_user')).status).toBe(200);
    // The refused write runs when retried with its key; the one acknowledged before replays.
    const retried = await register(during, 'during-1');
    expect(retried.status).toBe(201);
    const replay = await register(before, 'before-1');
    expect(replay.status).toBe(201);
    for (const address of [before, during]) {
      const found = await call(base, key, `/svc/user/bulk-register/check-user?address=${address}`);
      expect(found.body['exists']).toBe(true);
    }
    expect(await server.stop()).toBe(0);
  }, 120_000);

  it('Redis down: readiness degraded (200) and requests still served from the in-memory fallbacks', async () => {
    const proxy = await proxyTo(6379);
    const { server, key } = await serverProcess({
      DATABASE_URL: await testDatabaseUrl(),
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
    });
    expect((await readyState(server.marketsUrl, 'ready')).body.checks['redis']?.status).toBe('up');
    await proxy.cut();
    const degraded = await readyState(server.tournamentsUrl, 'degraded');
    expect(degraded.httpStatus).toBe(200);
    expect(degraded.body.checks['redis']?.status).toBe('down');
    const username = await call(server.marketsUrl, key, '/svc/user/auth/check-username?username=redis_down');
    expect(username.status).toBe(200);
    const sports = await call(server.tournamentsUrl, key, '/svc/sports/proxy', {
      body: { path: 'football/fixtures/7' },
    });
    expect(sports.status).toBe(200);
    await proxy.restore();
    await readyState(server.marketsUrl, 'ready');
  }, 120_000);

  it('Redis down at start: the instance comes up degraded and serves, and its background jobs start once Redis answers', async () => {
    const proxy = await proxyTo(6379);
    await proxy.cut();
    const prefix = `{dk-outage-${randomBytes(6).toString('hex')}}`;
    const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    onClose(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    });
    // The jobs on Redis (the backend a deployment with REDIS_URL and DATABASE_URL gets).
    const { server, key } = await serverProcess({
      DATABASE_URL: await testDatabaseUrl(),
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      JOBS_ENABLED: 'true',
      JOBS_REDIS_PREFIX: prefix,
    });
    expect(server.lines.some((l) => l.includes('background jobs wait for Redis'))).toBe(true);
    const degraded = await readyState(server.marketsUrl, 'degraded');
    expect(degraded.body.checks['redis']?.status).toBe('down');
    const username = await call(server.marketsUrl, key, '/svc/user/auth/check-username?username=redis_away_at_start');
    expect(username.status).toBe(200);
    expect(await redis.zcard(`${prefix}:markets:completed`)).toBe(0);

    await proxy.restore();
    await readyState(server.marketsUrl, 'ready');
    // The jobs start, once, and the scheduled tasks run: the indexer's runs complete on the markets queue.
    const started = () => server.lines.filter((l) => l.includes('"background jobs started"')).length;
    const completed = () => redis.zcard(`${prefix}:markets:completed`);
    for (let i = 0; i < 150 && (started() === 0 || (await completed()) === 0); i++) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await completed()).toBeGreaterThan(0);
    expect(started()).toBe(1);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);
});
