import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startDuelkit, type RunningServer } from './server.js';

describe('embedded defaults', () => {
  let running: RunningServer;
  const devKey = 'dk_embedded_smoke_test_key';

  beforeAll(async () => {
    // No DATABASE_URL and no REDIS_URL: embedded PostgreSQL and in-memory limits.
    running = await startDuelkit(
      loadConfig({
        PORT: '0',
        TOURNAMENTS_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DUELKIT_DEV_BUILDER_KEY: devKey,
        CHAIN_EMBEDDED_RPC_PORT: '0',
      }),
      { logger: createLogger('silent') },
    );
  }, 60_000);
  afterAll(() => running?.stop());

  it('starts both hosts, creates the development key and serves spec routes with it', async () => {
    expect(running.devKey).toBe(devKey);
    for (const url of [running.marketsUrl, running.tournamentsUrl]) {
      expect((await fetch(`${url}/health`)).status).toBe(200);
    }
    const ready = await fetch(`${running.tournamentsUrl}/api/parlay/health/ready`, {
      headers: { 'x-builder-api-key': devKey },
    });
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { checks: Record<string, { status: string }> };
    expect(body.checks['postgres']?.status).toBe('up');
    expect(body.checks['redis']?.status).toBe('not_configured');
    expect(body.checks['chain']?.status).toBe('up');
  });
});
