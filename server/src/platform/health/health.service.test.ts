import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../clock.js';
import type { Orm } from '../db/orm.js';
import { HealthService } from './health.service.js';

const T0 = Date.UTC(2026, 5, 1, 12);

/** PostgreSQL and Redis as far as the probes reach them: a query and a ping that answer as told. */
function setup(options: { redis?: boolean } = {}) {
  const clock = new ManualClock(T0);
  const state = { postgres: 'up' as 'up' | 'down' | 'hang', redis: 'up' as 'up' | 'down' | 'hang' };
  const answer = (s: 'up' | 'down' | 'hang', error: string) =>
    s === 'up' ? Promise.resolve() : s === 'down' ? Promise.reject(new Error(error)) : new Promise<void>(() => {});
  const orm = {
    em: { fork: () => ({ getConnection: () => ({ execute: () => answer(state.postgres, 'connection refused') }) }) },
  } as unknown as Orm;
  const redis = { ping: () => answer(state.redis, 'ECONNRESET') } as unknown as Redis;
  const health = new HealthService(orm, options.redis === false ? undefined : redis, 2_000, clock);
  return { clock, state, health };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('HealthService', () => {
  it('is ready when every dependency answers', async () => {
    const { health } = setup();

    const r = await health.readiness();

    expect(r.status).toBe('ready');
    expect(r.time).toBe(new Date(T0).toISOString());
    expect(r.checks).toMatchObject({
      postgres: { status: 'up', critical: true },
      redis: { status: 'up', critical: false },
    });
    expect(r.checks['postgres']?.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('is degraded, not unready, when only Redis is down: the in-memory fallbacks serve', async () => {
    const { health, state } = setup();
    state.redis = 'down';

    const r = await health.readiness();

    expect(r.status).toBe('degraded');
    expect(r.checks['redis']).toEqual({ status: 'down', critical: false, error: 'ECONNRESET' });
  });

  it('is not ready when PostgreSQL, a critical dependency, is down', async () => {
    const { health, state } = setup();
    state.postgres = 'down';
    state.redis = 'down';

    const r = await health.readiness();

    expect(r.status).toBe('not_ready');
    expect(r.checks['postgres']).toEqual({ status: 'down', critical: true, error: 'connection refused' });
  });

  it('counts a probe that does not answer within the timeout as down', async () => {
    vi.useFakeTimers();
    const { health, state } = setup();
    state.postgres = 'hang';

    const pending = health.readiness();
    await vi.advanceTimersByTimeAsync(2_000);
    const r = await pending;

    expect(r.status).toBe('not_ready');
    expect(r.checks['postgres']).toEqual({ status: 'down', critical: true, error: 'timed out after 2000 ms' });
  });

  it('reports Redis as not configured, and stays ready, on a deployment without it', async () => {
    const { health } = setup({ redis: false });

    const r = await health.readiness();

    expect(r.status).toBe('ready');
    expect(r.checks['redis']).toEqual({ status: 'not_configured', critical: false });
  });

  it('judges added probes by their criticality and shortens long errors', async () => {
    const { health } = setup();
    health.addProbe('chain', () => Promise.reject(new Error('x'.repeat(500))), { critical: false });
    health.addProbe('bridge', null, { critical: true });

    const degraded = await health.readiness();
    expect(degraded.status).toBe('degraded');
    expect(degraded.checks['chain']?.error).toHaveLength(200);
    expect(degraded.checks['bridge']).toEqual({ status: 'not_configured', critical: true });

    health.addProbe('chain', () => Promise.reject(new Error('node unreachable')), { critical: true });
    expect((await health.readiness()).status).toBe('not_ready');
  });

  it('reports the whole seconds this process has been up, from the clock', () => {
    const { health, clock } = setup();
    clock.advance(61_999);

    expect(health.liveness('markets')).toEqual({
      status: 'ok',
      service: 'markets',
      uptimeSeconds: 61,
      time: new Date(T0 + 61_999).toISOString(),
    });
  });
});
