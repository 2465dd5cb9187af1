import { describe, expect, it } from 'vitest';
import type { SportsProviderPort } from './adapters/sports-provider/sports-provider.port.js';
import { startTestServer } from '../test/support/test-server.js';

/** An upstream that answers after `ms`, so a request is in flight when shutdown starts. */
const slowProvider = (ms: number): SportsProviderPort => ({
  fetch: async () => {
    await new Promise((r) => setTimeout(r, ms));
    return { status: 200, body: { data: { id: 1 } } };
  },
});

describe('graceful shutdown', () => {
  it('finishes in-flight requests, then refuses new connections', async () => {
    const server = await startTestServer({ SHUTDOWN_GRACE_MS: '5000' }, { sportsProvider: slowProvider(400) });
    const inFlight = fetch(`${server.tournamentsUrl}/svc/sports/proxy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-builder-api-key': server.builderKey },
      body: JSON.stringify({ path: 'football/teams/1' }),
    });
    await new Promise((r) => setTimeout(r, 100));
    const stopping = server.stop();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toEqual({ data: { id: 1 } });
    await stopping;
    await expect(fetch(`${server.tournamentsUrl}/health`)).rejects.toThrow();
    await server.database.drop();
  });
});
