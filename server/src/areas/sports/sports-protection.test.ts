import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSportmonks, type FakeSportmonks } from '../../adapters/sports-provider/fake-sportmonks.server.js';
import type { DomainError } from '../../errors.js';
import { errorOf, settle, sportsHarness, until } from './sports.test-kit.js';

let fake: FakeSportmonks;
beforeAll(async () => {
  fake = await startFakeSportmonks();
});
afterAll(() => fake.close());
beforeEach(() => fake.setMode(null));

const calls = (path: string) => fake.callCount(`/v3/${path}`);

describe('per-key concurrency', () => {
  it('lets 8 requests wait on one key and refuses the rest with 503 and Retry-After, one upstream call', async () => {
    const { service } = sportsHarness(fake);
    fake.setMode({ delayMs: 200, pathPrefix: 'football/teams/15' });
    const before = calls('football/teams/15');
    const settled = await Promise.allSettled(
      Array.from({ length: 20 }, () => service.proxy({ path: 'football/teams/15' })),
    );
    expect(calls('football/teams/15') - before).toBe(1);
    const refused = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as DomainError] : []));
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(8);
    expect(refused).toHaveLength(12);
    for (const err of refused) {
      expect(err).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryAfterMs: 1_000 });
      expect(err.details).toMatchObject({ reason: 'per_key_concurrency' });
    }
  });

  it('serves the overflow stale when the key has a stale entry', async () => {
    const { service, clock } = sportsHarness(fake);
    await service.proxy({ path: 'football/teams/26' });
    clock.advance(61_000);
    fake.setMode({ delayMs: 200, pathPrefix: 'football/teams/26' });
    const before = calls('football/teams/26');
    const results = await Promise.all(Array.from({ length: 20 }, () => service.proxy({ path: 'football/teams/26' })));
    expect(results.every((r) => r._meta.isStale)).toBe(true);
    await until(() => calls('football/teams/26') > before);
    await settle(250);
    expect(calls('football/teams/26') - before).toBe(1);
  });
});

describe('upstream bulkhead', () => {
  it('refuses calls past the running and queued slots with 503 and Retry-After', async () => {
    const { service } = sportsHarness(fake, { limits: { upstreamConcurrency: 1, upstreamQueue: 1 } });
    fake.setMode({ delayMs: 200, pathPrefix: 'football/teams/4' });
    const settled = await Promise.allSettled(
      ['41', '42', '43'].map((id) => service.proxy({ path: `football/teams/${id}` })),
    );
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const [refused] = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as DomainError] : []));
    expect(refused).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      retryAfterMs: 1_000,
      details: { reason: 'upstream_concurrency' },
    });
  });
});

describe('429 circuit breaker per path', () => {
  it('opens on the fifth 429 within 30 s and closes after 60 s', async () => {
    const { service, clock } = sportsHarness(fake);
    fake.setMode({ status: 429, pathPrefix: 'football/fixtures/latest' });
    const before = calls('football/fixtures/latest');
    for (let i = 0; i < 5; i++) {
      const err = await errorOf(service.proxy({ path: 'football/fixtures/latest' }));
      expect(err).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', details: { reason: 'upstream_rate_limited' } });
      expect(err.retryAfterMs).toBeLessThanOrEqual(60_000);
      clock.advance(5_000);
    }
    expect(calls('football/fixtures/latest') - before).toBe(5);
    // Open: no upstream call, whatever the parameters (the breaker is per path).
    const open = await errorOf(service.proxy({ path: 'football/fixtures/latest', params: { include: 'scores' } }));
    expect(open).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', details: { reason: 'circuit_open' } });
    expect(open.retryAfterMs).toBe(55_000);
    expect(calls('football/fixtures/latest') - before).toBe(5);

    fake.setMode(null);
    clock.advance(54_000); // one second before it half-opens
    expect((await errorOf(service.proxy({ path: 'football/fixtures/latest' }))).details).toEqual({
      reason: 'circuit_open',
    });
    clock.advance(1_000);
    const recovered = await service.proxy({ path: 'football/fixtures/latest' });
    expect(recovered._meta.fromCache).toBe(false);
    expect(calls('football/fixtures/latest') - before).toBe(6);
  });

  it('does not open for 429s spread over more than 30 s, nor for other paths', async () => {
    const { service, clock } = sportsHarness(fake);
    fake.setMode({ status: 429, pathPrefix: 'football/seasons' });
    const before = calls('football/seasons');
    for (let i = 0; i < 6; i++) {
      expect((await errorOf(service.proxy({ path: 'football/seasons' }))).details).toEqual({
        reason: 'upstream_rate_limited',
      });
      clock.advance(8_000);
    }
    expect(calls('football/seasons') - before).toBe(6);
  });

  it('serves only stale data while open, and opens again when the trial call gets a 429', async () => {
    const { service, clock } = sportsHarness(fake);
    const path = 'football/standings/seasons/23614';
    await service.proxy({ path });
    clock.advance(61_000);
    fake.setMode({ status: 429, pathPrefix: path });
    // Five stale reads, each starting one background refresh that gets a 429.
    for (let i = 1; i <= 5; i++) {
      const before = calls(path);
      expect((await service.proxy({ path }))._meta.isStale).toBe(true);
      await until(() => calls(path) > before);
      await settle();
    }
    const upstream = calls(path);
    expect((await service.proxy({ path }))._meta.isStale).toBe(true);
    await settle();
    expect(calls(path)).toBe(upstream); // the refresh was held back by the open breaker
    const miss = await errorOf(service.proxy({ path, params: { page: 2 } }));
    expect(miss.details).toEqual({ reason: 'circuit_open' });

    clock.advance(60_000);
    expect((await errorOf(service.proxy({ path, params: { page: 3 } }))).details).toEqual({
      reason: 'upstream_rate_limited',
    });
    expect(calls(path)).toBe(upstream + 1);
    expect((await errorOf(service.proxy({ path, params: { page: 4 } }))).details).toEqual({ reason: 'circuit_open' });
  });
});
