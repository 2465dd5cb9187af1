import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSportmonks, startFakeSportsProvider, type FakeSportmonks } from './fake-sportmonks.server.js';

let fake: FakeSportmonks;
beforeAll(async () => {
  fake = await startFakeSportmonks();
});
afterAll(() => fake.close());
beforeEach(() => fake.setMode(null));

const get = async (url: string, withToken = true, token = fake.token) => {
  const sep = url.includes('?') ? '&' : '?';
  const res = await fetch(withToken ? `${url}${sep}api_token=${token}` : url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('fake Sportmonks', () => {
  it('requires its token', async () => {
    expect((await get(`${fake.v3BaseUrl}/football/livescores`, false)).status).toBe(401);
    const res = await fetch(`${fake.v3BaseUrl}/football/livescores`, { headers: { authorization: fake.token } });
    expect(res.status).toBe(200);
  });

  it('answers the v3 envelope with per-entity hourly counters', async () => {
    const { status, body } = await get(`${fake.v3BaseUrl}/football/fixtures?per_page=10&page=2`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      pagination: { count: 10, per_page: 10, current_page: 2, has_more: true },
      rate_limit: { requested_entity: 'fixtures', remaining: 2_999 },
      timezone: 'UTC',
    });
    expect(body['subscription']).toEqual([expect.objectContaining({ plans: expect.any(Array) as unknown })]);
    expect((body['data'] as { id: number }[])[0]?.id).toBe(18_000_011);
  });

  it('pages motorsport lists with a cursor', async () => {
    const first = await get(`${fake.v3BaseUrl}/motorsport/races?per_page=20`);
    const cursor = (first.body['pagination'] as { next_cursor: string }).next_cursor;
    const second = await get(`${fake.v3BaseUrl}/motorsport/races?per_page=20&cursor=${cursor}`);
    expect((second.body['data'] as unknown[]).length).toBe(4);
    expect(second.body['pagination']).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('answers the cricket v2 envelope with resource names, links and meta', async () => {
    const { body } = await get(`${fake.cricketV2BaseUrl}/fixtures?page=2`);
    expect((body['data'] as { resource: string }[]).every((f) => f.resource === 'fixtures')).toBe(true);
    expect(body['meta']).toMatchObject({ current_page: 2, last_page: 2, per_page: 25, total: 40, from: 26, to: 40 });
    expect(body['links']).toMatchObject({ next: null, prev: expect.stringContaining('page=1') as unknown });
  });

  it('answers 429 for an entity past its hourly limit while other entities keep working', async () => {
    const small = await startFakeSportmonks({ hourlyLimit: 3 });
    try {
      const call = (path: string) => get(`${small.v3BaseUrl}/${path}`, true, small.token);
      const statuses = [];
      for (let i = 1; i <= 4; i++) statuses.push((await call(`football/squads/teams/${i}`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await call('football/squads/teams/9');
      expect(limited.body['rate_limit']).toMatchObject({ remaining: 0, requested_entity: 'squads' });
      expect((await call('motorsport/drivers')).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('answers 429, 5xx or slowly when told, for a number of calls', async () => {
    fake.setMode({ status: 503, times: 1, pathPrefix: 'football/teams' });
    expect((await get(`${fake.v3BaseUrl}/football/teams/1`)).status).toBe(503);
    expect((await get(`${fake.v3BaseUrl}/football/teams/1`)).status).toBe(200);
    fake.setMode({ delayMs: 150, times: 1 });
    const started = performance.now();
    await get(`${fake.v3BaseUrl}/football/teams/2`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('counts calls per path and keeps the last requests', async () => {
    const before = fake.callCount('/v3/football/teams/3');
    await get(`${fake.v3BaseUrl}/football/teams/3`);
    expect(fake.callCount('/v3/football/teams/3')).toBe(before + 1);
    expect(fake.lastRequests.at(-1)).toMatchObject({ method: 'GET', path: '/v3/football/teams/3' });
    expect((await get(`${fake.v3BaseUrl}/football/unknown`)).status).toBe(404);
  });
});

describe('startFakeSportsProvider', () => {
  it('gives a provider reaching the fake through the real HTTP adapter', async () => {
    const { provider, fake: own, close } = await startFakeSportsProvider({ timeoutMs: 1_000 });
    try {
      const res = await provider.fetch(
        { api: 'v3', path: 'football/livescores/inplay', params: [] },
        new AbortController().signal,
      );
      expect(res.status).toBe(200);
      expect(own.callCount('/v3/football/livescores/inplay')).toBe(1);
    } finally {
      await close();
    }
  });
});
