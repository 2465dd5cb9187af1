import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryCacheAdapter } from '../adapters/cache/memory-cache.adapter.js';
import { startFakeSportmonks, type FakeSportmonks } from '../adapters/sports-provider/fake-sportmonks.server.js';
import { SportmonksHttpAdapter } from '../adapters/sports-provider/sportmonks-http.adapter.js';
import { AppError } from '../http/app-error.js';
import { createLogger } from '../logger.js';
import { DEFAULT_SPORTS_LIMITS, SportsService, type SportsLimits } from './sports.service.js';

let fake: FakeSportmonks;
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

beforeAll(async () => {
  fake = await startFakeSportmonks();
});
afterAll(() => fake.close());
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  fake.setMode(null);
});
afterEach(() => vi.useRealTimers());

function service(limits: Partial<SportsLimits> = {}, options: { token?: string; timeoutMs?: number } = {}) {
  const provider = new SportmonksHttpAdapter({
    token: options.token ?? fake.token,
    v3BaseUrl: fake.v3BaseUrl,
    cricketV2BaseUrl: fake.cricketV2BaseUrl,
    timeoutMs: options.timeoutMs ?? 2_000,
  });
  return new SportsService(provider, new MemoryCacheAdapter(10_000_000), createLogger('silent'), {
    ...DEFAULT_SPORTS_LIMITS,
    ...limits,
  });
}

const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('SportsService', () => {
  it('serves a fresh entry without an upstream call', async () => {
    const s = service();
    const before = fake.callCount('/v3/football/teams/11');
    const first = await s.proxy({ path: 'football/teams/11' });
    const second = await s.proxy({ path: 'football/teams/11' });
    expect(fake.callCount('/v3/football/teams/11') - before).toBe(1);
    expect(first._meta).toMatchObject({ fromCache: false, isStale: false });
    expect(second._meta).toMatchObject({ fromCache: true, isStale: false, fetchedAt: first._meta.fetchedAt });
    expect(second.data).toEqual(first.data);
    expect((first.data as { data: { id: number } }).data.id).toBe(11);
  });

  it('sends the server token only, whatever token-like keys the caller sent, and never returns it', async () => {
    const s = service();
    const res = await s.proxy({
      path: 'football/fixtures/42',
      params: { API_TOKEN: 'callers-token', Api_Token: 'x', apikey: 'y', authorization: 'z', include: 'participants' },
    });
    const last = fake.requests.at(-1);
    expect(last?.query.getAll('api_token')).toEqual([fake.token]);
    expect([...(last?.query.keys() ?? [])].sort()).toEqual(['api_token', 'include']);
    expect(JSON.stringify(res)).not.toContain(fake.token);
    expect(res._meta.cacheKey).toBe('sports:v3:football/fixtures/42?include=participants');
  });

  it('uses the default window for ttl live off live paths', async () => {
    const s = service();
    await s.proxy({ path: 'football/teams/12', ttl: 'live' });
    advance(31_000);
    const res = await s.proxy({ path: 'football/teams/12', ttl: 'live' });
    expect(res._meta).toMatchObject({ fromCache: true, isStale: false });
    await s.proxy({ path: 'football/livescores/inplay', ttl: 'live' });
    advance(31_000);
    const live = await s.proxy({ path: 'football/livescores/inplay', ttl: 'live' });
    expect(live._meta.isStale).toBe(true);
  });

  it('serves stale at once and refreshes exactly once in the background', async () => {
    const s = service();
    const first = await s.proxy({ path: 'football/teams/13' });
    advance(61_000);
    const before = fake.callCount('/v3/football/teams/13');
    const stale = await Promise.all([1, 2, 3].map(() => s.proxy({ path: 'football/teams/13' })));
    expect(stale.every((r) => r._meta.isStale && r._meta.fromCache)).toBe(true);
    await until(() => fake.callCount('/v3/football/teams/13') > before);
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.callCount('/v3/football/teams/13') - before).toBe(1);
    const fresh = await s.proxy({ path: 'football/teams/13' });
    expect(fresh._meta.isStale).toBe(false);
    expect(fresh._meta.fetchedAt).toBeGreaterThan(first._meta.fetchedAt);
  });

  it('collapses 100 concurrent identical misses into one upstream call', async () => {
    const s = service({ perKeyConcurrency: 100 });
    fake.setMode({ delayMs: 150, pathPrefix: 'football/teams/14' });
    const before = fake.callCount('/v3/football/teams/14');
    const results = await Promise.all(Array.from({ length: 100 }, () => s.proxy({ path: 'football/teams/14' })));
    expect(fake.callCount('/v3/football/teams/14') - before).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r.data))).size).toBe(1);
  });

  it('refuses requests past 8 concurrent on one key with 503 and Retry-After while one call runs', async () => {
    const s = service();
    fake.setMode({ delayMs: 150, pathPrefix: 'football/teams/15' });
    const before = fake.callCount('/v3/football/teams/15');
    const settled = await Promise.allSettled(Array.from({ length: 20 }, () => s.proxy({ path: 'football/teams/15' })));
    expect(fake.callCount('/v3/football/teams/15') - before).toBe(1);
    const ok = settled.filter((r) => r.status === 'fulfilled');
    const refused = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as AppError] : []));
    expect(ok).toHaveLength(8);
    expect(refused).toHaveLength(12);
    expect(refused.every((e) => e.code === 'UPSTREAM_UNAVAILABLE' && e.headers?.['Retry-After'] === '1')).toBe(true);
  });

  it('opens the breaker on the fifth 429 within 30 s and closes it after 60 s', async () => {
    const s = service();
    fake.setMode({ status: 429, pathPrefix: 'football/fixtures/latest' });
    const path = '/v3/football/fixtures/latest';
    const before = fake.callCount(path);
    for (let i = 0; i < 5; i++) {
      const err = await errorOf(s.proxy({ path: 'football/fixtures/latest' }));
      expect(err.code).toBe('UPSTREAM_UNAVAILABLE');
      advance(1_000);
    }
    expect(fake.callCount(path) - before).toBe(5);
    const open = await errorOf(s.proxy({ path: 'football/fixtures/latest' }));
    expect(open.details).toEqual({ reason: 'circuit_open' });
    expect(Number(open.headers?.['Retry-After'])).toBeGreaterThan(50);
    expect(fake.callCount(path) - before).toBe(5); // nothing went upstream
    fake.setMode(null);
    advance(61_000);
    const recovered = await s.proxy({ path: 'football/fixtures/latest' });
    expect(recovered._meta.fromCache).toBe(false);
    expect(fake.callCount(path) - before).toBe(6);
  });

  it('does not open the breaker for 429s spread over more than 30 s', async () => {
    const s = service();
    fake.setMode({ status: 429, pathPrefix: 'football/seasons' });
    const before = fake.callCount('/v3/football/seasons');
    for (let i = 0; i < 6; i++) {
      await errorOf(s.proxy({ path: 'football/seasons' }));
      advance(8_000);
    }
    expect(fake.callCount('/v3/football/seasons') - before).toBe(6);
  });

  it('turns an upstream 401 into 502 UPSTREAM_ERROR without details', async () => {
    const err = await errorOf(service({}, { token: 'wrong' }).proxy({ path: 'football/teams/16' }));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.status).toBe(502);
    expect(err.details).toBeUndefined();
    expect(err.message).not.toMatch(/token|Unauthenticated/i);
  });

  it('turns a slow upstream into 504 and an upstream 5xx into 502', async () => {
    fake.setMode({ delayMs: 400, pathPrefix: 'football/teams/17' });
    expect((await errorOf(service({}, { timeoutMs: 100 }).proxy({ path: 'football/teams/17' }))).code).toBe(
      'UPSTREAM_TIMEOUT',
    );
    fake.setMode({ status: 500, pathPrefix: 'football/teams/18' });
    expect((await errorOf(service().proxy({ path: 'football/teams/18' }))).code).toBe('UPSTREAM_ERROR');
  });

  it('keeps serving stale when the refresh fails', async () => {
    const s = service();
    await s.proxy({ path: 'football/teams/19' });
    advance(61_000);
    fake.setMode({ status: 500, pathPrefix: 'football/teams/19' });
    const res = await s.proxy({ path: 'football/teams/19' });
    expect(res._meta.isStale).toBe(true);
  });

  it('maps an upstream 404 to 404 NOT_FOUND', async () => {
    expect((await errorOf(service().proxy({ path: 'football/nothing/here' }))).code).toBe('NOT_FOUND');
  });

  it('forwards cricket v2 paths to the cricket host', async () => {
    const res = await service().cricketV2Proxy({ path: 'teams/3/squad/1689' });
    expect(fake.requests.at(-1)?.path).toBe('/api/v2.0/teams/3/squad/1689');
    expect((res.data as { data: { resource: string } }).data.resource).toBe('teams');
  });

  it('builds the fixture snapshot from the fixture and its odds', async () => {
    const res = await service().fixtureSnapshot('18535517');
    const data = res.data as { fixture: { id: number; participants: unknown[] }; odds: unknown[] };
    expect(data.fixture.id).toBe(18535517);
    expect(data.fixture.participants).toHaveLength(2);
    expect(data.odds).toHaveLength(3);
    expect(res._meta.cacheKey).toBe('sports:snapshot:football:fixture:18535517');
  });
});
