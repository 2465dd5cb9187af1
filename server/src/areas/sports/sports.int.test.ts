import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema, SportsResponseSchema } from '@duelkit/contract';
import { startFakeSportmonks, type FakeSportmonks } from '../../adapters/sports-provider/fake-sportmonks.server.js';
import { SportmonksHttpAdapter } from '../../adapters/sports-provider/sportmonks-http.adapter.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';

let fake: FakeSportmonks;
beforeAll(async () => {
  fake = await startFakeSportmonks();
});
afterAll(() => fake?.close());

function provider() {
  return new SportmonksHttpAdapter({
    token: fake.token,
    v3BaseUrl: fake.v3BaseUrl,
    cricketV2BaseUrl: fake.cricketV2BaseUrl,
    timeoutMs: 2_000,
  });
}

describe('sports routes over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      { SPORTS_PROXY_IP_LIMIT_PER_MIN: '6', SPORTS_HELPERS_IP_LIMIT_PER_MIN: '1000' },
      { sportsProvider: provider() },
    );
  });
  afterAll(() => server?.close());

  const post = (path: string, body: unknown) =>
    fetch(`${server.tournamentsUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-builder-api-key': server.builderKey },
      body: JSON.stringify(body),
    });

  it('proxies with the builder key alone and never returns the provider token', async () => {
    const res = await post('/svc/sports/proxy', { path: 'football/fixtures/7', params: { api_token: 'mine' } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(fake.token);
    const body = SportsResponseSchema.parse(JSON.parse(text));
    expect(body._meta.cacheKey).toBe('sports:v3:football/fixtures/7');
  });

  it('refuses a POST method with 400 METHOD_NOT_ALLOWED and a bad path with 400 INVALID_PROXY_PATH', async () => {
    const method = await post('/svc/sports/proxy', { path: 'football/fixtures', method: 'POST' });
    expect(method.status).toBe(400);
    expect(ApiErrorSchema.parse(await method.json()).code).toBe('METHOD_NOT_ALLOWED');
    const path = await post('/svc/sports/cricket-v2/proxy', { path: '../admin' });
    expect(path.status).toBe(400);
    expect(ApiErrorSchema.parse(await path.json()).code).toBe('INVALID_PROXY_PATH');
  });

  it('serves the football helpers', async () => {
    for (const url of [
      '/svc/sports/football/fixture/99/snapshot',
      '/svc/sports/football/team/5/squad',
      '/svc/sports/football/team/5/season-stats?seasonId=23614',
    ]) {
      const res = await fetch(`${server.tournamentsUrl}${url}`, {
        headers: { 'x-builder-api-key': server.builderKey },
      });
      expect(res.status, url).toBe(200);
      SportsResponseSchema.parse(await res.json());
    }
    const bad = await fetch(`${server.tournamentsUrl}/svc/sports/football/team/abc/squad`, {
      headers: { 'x-builder-api-key': server.builderKey },
    });
    expect(bad.status).toBe(400);
  });

  it('limits the POST proxies per client IP with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 8; i++) {
      last = await post('/svc/sports/proxy', { path: 'football/teams/1' });
      statuses.push(last.status);
    }
    expect(statuses).toContain(429);
    expect(statuses.indexOf(429)).toBeLessThanOrEqual(6);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The helpers have their own budget.
    const helper = await fetch(`${server.tournamentsUrl}/svc/sports/football/team/5/squad`, {
      headers: { 'x-builder-api-key': server.builderKey },
    });
    expect(helper.status).toBe(200);
  });

  it('requires a builder key', async () => {
    const res = await fetch(`${server.tournamentsUrl}/svc/sports/proxy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"path":"football/teams/1"}',
    });
    expect(res.status).toBe(401);
  });
});
