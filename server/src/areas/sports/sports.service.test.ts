import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSportmonks, type FakeSportmonks } from '../../adapters/sports-provider/fake-sportmonks.server.js';
import { errorOf, settle, sportsHarness, until } from './sports.test-kit.js';

let fake: FakeSportmonks;
beforeAll(async () => {
  fake = await startFakeSportmonks();
});
afterAll(() => fake.close());
beforeEach(() => fake.setMode(null));

const calls = (path: string) => fake.callCount(`/v3/${path}`);

describe('SportsService cache', () => {
  it('serves a fresh entry without an upstream call', async () => {
    const { service, clock } = sportsHarness(fake);
    const before = calls('football/teams/11');
    const first = await service.proxy({ path: 'football/teams/11' });
    clock.advance(59_000);
    const second = await service.proxy({ path: 'football/teams/11' });
    expect(calls('football/teams/11') - before).toBe(1);
    expect(first._meta).toMatchObject({ fromCache: false, isStale: false });
    expect(second._meta).toMatchObject({ fromCache: true, isStale: false, fetchedAt: first._meta.fetchedAt });
    expect(second.data).toEqual(first.data);
    expect((first.data as { data: { id: number } }).data.id).toBe(11);
  });

  it('treats parameter order as the same request', async () => {
    const { service } = sportsHarness(fake);
    const a = await service.proxy({ path: 'football/fixtures', params: { page: 2, include: 'participants' } });
    const b = await service.proxy({ path: 'football/fixtures', params: { include: 'participants', page: '2' } });
    expect(b._meta).toMatchObject({ fromCache: true, cacheKey: a._meta.cacheKey });
    expect(a._meta.cacheKey).toBe('sports:v3:football/fixtures?include=participants&page=2');
  });

  it('sends only the server token, whatever token-like keys the caller sent, in any case', async () => {
    const { service } = sportsHarness(fake);
    const res = await service.proxy({
      path: 'football/fixtures/42',
      params: {
        API_TOKEN: 'callers-token',
        Api_Token: 'x',
        apikey: 'y',
        'X-Api-Key': 'k',
        authorization: 'z',
        clientSecret: 's',
        include: 'participants',
      },
    });
    const last = fake.lastRequests.at(-1);
    expect(last?.path).toBe('/v3/football/fixtures/42');
    expect(last?.query.getAll('api_token')).toEqual([fake.token]);
    expect([...(last?.query.keys() ?? [])].sort()).toEqual(['api_token', 'include']);
    expect(res._meta.cacheKey).toBe('sports:v3:football/fixtures/42?include=participants');
  });

  it('uses the default windows for ttl live off live paths and the live windows on them', async () => {
    const { service, clock } = sportsHarness(fake);
    await service.proxy({ path: 'football/teams/12', ttl: 'live' });
    await service.proxy({ path: 'football/livescores/inplay', ttl: 'live' });
    clock.advance(31_000);
    const offLive = await service.proxy({ path: 'football/teams/12', ttl: 'live' });
    const live = await service.proxy({ path: 'football/livescores/inplay', ttl: 'live' });
    expect(offLive._meta).toMatchObject({ fromCache: true, isStale: false });
    expect(live._meta).toMatchObject({ fromCache: true, isStale: true });
  });

  it('keeps a logo for a day', async () => {
    const { service, clock } = sportsHarness(fake);
    await service.proxy({ path: 'football/teams/20', ttl: 'logo' });
    clock.advance(23 * 3_600_000);
    expect((await service.proxy({ path: 'football/teams/20', ttl: 'logo' }))._meta.isStale).toBe(false);
  });

  it('serves stale at once and refreshes exactly once in the background', async () => {
    const { service, clock } = sportsHarness(fake);
    const first = await service.proxy({ path: 'football/teams/13' });
    clock.advance(61_000);
    fake.setMode({ delayMs: 100, pathPrefix: 'football/teams/13' });
    const before = calls('football/teams/13');
    const stale = await Promise.all([1, 2, 3, 4, 5].map(() => service.proxy({ path: 'football/teams/13' })));
    expect(stale.every((r) => r._meta.isStale && r._meta.fromCache)).toBe(true);
    expect(stale.every((r) => r._meta.fetchedAt === first._meta.fetchedAt)).toBe(true);
    await until(() => calls('football/teams/13') > before);
    await settle(200);
    expect(calls('football/teams/13') - before).toBe(1);
    const fresh = await service.proxy({ path: 'football/teams/13' });
    expect(fresh._meta).toMatchObject({ fromCache: true, isStale: false });
    expect(fresh._meta.fetchedAt).toBe(first._meta.fetchedAt + 61_000);
  });

  it('fetches again once the stale window has passed', async () => {
    const { service, clock } = sportsHarness(fake);
    await service.proxy({ path: 'football/teams/24' });
    clock.advance(30 * 60_000 + 1);
    const before = calls('football/teams/24');
    const res = await service.proxy({ path: 'football/teams/24' });
    expect(res._meta).toMatchObject({ fromCache: false, isStale: false });
    expect(calls('football/teams/24') - before).toBe(1);
  });

  it('collapses 100 concurrent identical misses into one upstream call', async () => {
    const { service } = sportsHarness(fake, { limits: { perKeyConcurrency: 100 } });
    fake.setMode({ delayMs: 150, pathPrefix: 'football/teams/14' });
    const before = calls('football/teams/14');
    const results = await Promise.all(Array.from({ length: 100 }, () => service.proxy({ path: 'football/teams/14' })));
    expect(calls('football/teams/14') - before).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
  });
});

describe('SportsService upstream errors', () => {
  it('turns an upstream 401 into 502 UPSTREAM_ERROR without details', async () => {
    const err = await errorOf(sportsHarness(fake, { token: 'wrong' }).service.proxy({ path: 'football/teams/16' }));
    expect(err).toMatchObject({ code: 'UPSTREAM_ERROR', details: undefined });
    expect(err.message).not.toMatch(/token|Unauthenticated/i);
  });

  it('turns an upstream 403 (feed not in plan) into 502 UPSTREAM_ERROR', async () => {
    fake.setMode({ status: 403, pathPrefix: 'football/teams/25' });
    const err = await errorOf(sportsHarness(fake).service.proxy({ path: 'football/teams/25' }));
    expect(err).toMatchObject({ code: 'UPSTREAM_ERROR', details: undefined });
  });

  it('turns a slow upstream into 504 UPSTREAM_TIMEOUT and a 5xx into 502 UPSTREAM_ERROR', async () => {
    fake.setMode({ delayMs: 400, pathPrefix: 'football/teams/17' });
    const slow = await errorOf(sportsHarness(fake, { timeoutMs: 100 }).service.proxy({ path: 'football/teams/17' }));
    expect(slow).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    fake.setMode({ status: 500, pathPrefix: 'football/teams/18' });
    const failed = await errorOf(sportsHarness(fake).service.proxy({ path: 'football/teams/18' }));
    expect(failed).toMatchObject({ code: 'UPSTREAM_ERROR' });
  });

  it('serves stale when the upstream is slow or failing', async () => {
    const { service, clock } = sportsHarness(fake, { timeoutMs: 100 });
    await service.proxy({ path: 'football/teams/19' });
    clock.advance(61_000);
    fake.setMode({ delayMs: 400, pathPrefix: 'football/teams/19' });
    const whileSlow = await service.proxy({ path: 'football/teams/19' });
    expect(whileSlow._meta.isStale).toBe(true);
    await settle(250);
    fake.setMode({ status: 500, pathPrefix: 'football/teams/19' });
    const whileFailing = await service.proxy({ path: 'football/teams/19' });
    expect(whileFailing._meta.isStale).toBe(true);
  });

  it('maps an upstream 404 to 404 NOT_FOUND', async () => {
    const err = await errorOf(sportsHarness(fake).service.proxy({ path: 'football/nothing/here' }));
    expect(err).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('SportsService routes', () => {
  it('forwards cricket v2 paths to the cricket host', async () => {
    const res = await sportsHarness(fake).service.cricketV2Proxy({ path: 'teams/3/squad/1689' });
    expect(fake.lastRequests.at(-1)?.path).toBe('/api/v2.0/teams/3/squad/1689');
    expect(res._meta.cacheKey).toBe('sports:cricket-v2:teams/3/squad/1689');
    expect((res.data as { data: { resource: string } }).data.resource).toBe('teams');
  });

  it('refuses a bad path or a POST before calling upstream', async () => {
    const { service } = sportsHarness(fake);
    const before = fake.callCount();
    expect((await errorOf(service.proxy({ path: 'football/../admin' }))).code).toBe('INVALID_PROXY_PATH');
    expect((await errorOf(service.cricketV2Proxy({ path: 'news/latest' }))).code).toBe('INVALID_PROXY_PATH');
    expect((await errorOf(service.proxy({ path: 'football/fixtures', method: 'POST' }))).code).toBe(
      'METHOD_NOT_ALLOWED',
    );
    expect(fake.callCount()).toBe(before);
  });

  it('builds the fixture snapshot from the fixture and its odds, with windows from its state', async () => {
    const { service, clock } = sportsHarness(fake);
    const live = await service.fixtureSnapshot('18535517'); // the fake: in play
    const data = live.data as { fixture: { id: number; participants: unknown[]; events: unknown[] }; odds: unknown[] };
    expect(data.fixture.id).toBe(18535517);
    expect(data.fixture.participants).toHaveLength(2);
    expect(data.fixture.events.length).toBeGreaterThan(0);
    expect(data.odds).toHaveLength(3);
    expect(live._meta.cacheKey).toBe('sports:snapshot:football/fixtures/18535517');
    const ended = await service.fixtureSnapshot('18535518'); // divisible by 3: finished
    clock.advance(31_000);
    expect((await service.fixtureSnapshot('18535517'))._meta.isStale).toBe(true);
    expect((await service.fixtureSnapshot('18535518'))._meta.isStale).toBe(false);
    clock.advance(2 * 3_600_000);
    const old = await service.fixtureSnapshot('18535518');
    expect(old._meta).toMatchObject({ isStale: true, fetchedAt: ended._meta.fetchedAt });
  });

  it('answers a snapshot without odds when the provider has none', async () => {
    fake.setMode({ status: 404, pathPrefix: 'football/odds/pre-match/fixtures/777' });
    const res = await sportsHarness(fake).service.fixtureSnapshot('777');
    expect((res.data as { odds: unknown[] }).odds).toEqual([]);
  });

  it('serves a team squad and season statistics', async () => {
    const { service } = sportsHarness(fake);
    const squad = await service.teamSquad('5');
    expect((squad.data as { data: unknown[] }).data).toHaveLength(18);
    expect(fake.lastRequests.at(-1)?.query.get('include')).toBe('player');
    const stats = await service.teamSeasonStats('5', '23614');
    expect(fake.lastRequests.at(-1)?.query.get('filters')).toBe('teamStatisticSeasons:23614');
    const seasons = (stats.data as { data: { statistics: { season_id: number }[] } }).data.statistics;
    expect(seasons.map((s) => s.season_id)).toEqual([23614]);
    expect(stats._meta.cacheKey).toBe(
      'sports:v3:football/teams/5?filters=teamStatisticSeasons%3A23614&include=statistics.details',
    );
  });
});
