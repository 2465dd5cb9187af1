import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSportmonks, type FakeSportmonks } from './fake-sportmonks.server.js';
import { SportmonksHttpAdapter } from './sportmonks-http.adapter.js';
import { UpstreamTransportError } from './sports-provider.port.js';

let fake: FakeSportmonks;
beforeAll(async () => {
  fake = await startFakeSportmonks();
});
afterAll(() => fake.close());
beforeEach(() => fake.setMode(null));

const adapter = (overrides: { token?: string; timeoutMs?: number; v3BaseUrl?: string } = {}) =>
  new SportmonksHttpAdapter({
    token: overrides.token ?? fake.token,
    v3BaseUrl: overrides.v3BaseUrl ?? `${fake.v3BaseUrl}/`,
    cricketV2BaseUrl: fake.cricketV2BaseUrl,
    timeoutMs: overrides.timeoutMs ?? 2_000,
  });
const never = new AbortController().signal;

describe('SportmonksHttpAdapter', () => {
  it('calls the v3 host with the parameters and its token as api_token', async () => {
    const res = await adapter().fetch(
      { api: 'v3', path: 'football/teams/8', params: [['include', 'players;venue']] },
      never,
    );
    expect(res.status).toBe(200);
    expect((res.body as { data: { id: number }; timezone: string }).data.id).toBe(8);
    const last = fake.lastRequests.at(-1);
    expect(last?.path).toBe('/v3/football/teams/8');
    expect(last?.query.get('include')).toBe('players;venue');
    expect(last?.query.get('api_token')).toBe(fake.token);
  });

  it('calls the cricket v2 host for cricket-v2 requests', async () => {
    const res = await adapter().fetch({ api: 'cricket-v2', path: 'fixtures/5', params: [] }, never);
    expect(res.status).toBe(200);
    expect(fake.lastRequests.at(-1)?.path).toBe('/api/v2.0/fixtures/5');
  });

  it('removes its token from answers that repeat the request URL', async () => {
    const raw = await fetch(`${fake.cricketV2BaseUrl}/fixtures?api_token=${fake.token}`).then((r) => r.text());
    expect(raw).toContain(fake.token);
    const res = await adapter().fetch({ api: 'cricket-v2', path: 'fixtures', params: [] }, never);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(fake.token);
    expect((res.body as { links: { next: string } }).links.next).toContain('api_token=[redacted]');
  });

  it('passes error statuses through with the reset time of a 429', async () => {
    fake.setMode({ status: 429, times: 1 });
    const limited = await adapter().fetch({ api: 'v3', path: 'football/teams/1', params: [] }, never);
    expect(limited).toMatchObject({ status: 429, retryAfterSeconds: 1_800 });
    const refused = await adapter({ token: 'wrong' }).fetch({ api: 'v3', path: 'football/teams/1', params: [] }, never);
    expect(refused.status).toBe(401);
  });

  it('throws a timeout transport error when the provider is slow', async () => {
    fake.setMode({ delayMs: 300, times: 1 });
    const err = await adapter({ timeoutMs: 50 })
      .fetch({ api: 'v3', path: 'football/teams/1', params: [] }, never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamTransportError);
    expect(err).toMatchObject({ timeout: true });
    expect(String((err as Error).message)).not.toContain(fake.token);
  });

  it('throws a transport error without the URL when the provider is unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const err = await adapter({ v3BaseUrl: `http://127.0.0.1:${port}/v3` })
      .fetch({ api: 'v3', path: 'football/teams/1', params: [] }, never)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ timeout: false });
    expect(String((err as Error).message)).not.toContain(fake.token);
    expect(String((err as Error).message)).not.toContain('127.0.0.1');
  });

  it('reads a non-JSON body as null', async () => {
    const html = createServer((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>502</h1>'));
    await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
      const res = await adapter({ v3BaseUrl: url }).fetch({ api: 'v3', path: 'football/x', params: [] }, never);
      expect(res).toEqual({ status: 502, body: null });
    } finally {
      await new Promise<void>((r) => html.close(() => r()));
    }
  });

  it('refuses to start without a token', () => {
    expect(() => adapter({ token: '' })).toThrow(/token/);
  });
});
