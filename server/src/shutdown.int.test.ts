import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import pg from 'pg';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/support/database.js';
import { startServerProcess } from '../test/support/server-process.js';
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

describe('SIGTERM under keep-alive load (a real process)', () => {
  it('cuts no request, leaves no idempotency key in flight and exits cleanly within the grace', async () => {
    const database = await createTestDatabase();
    const key = `dk_shutdown_${randomBytes(12).toString('hex')}`;
    const server = await startServerProcess({
      DATABASE_URL: database.url,
      DUELKIT_DEV_BUILDER_KEY: key,
      SHUTDOWN_GRACE_MS: '8000',
      RATE_LIMIT_TEAM_PER_MIN: '1000000',
      JOBS_ENABLED: 'true',
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const target = new URL(`${server.marketsUrl}/svc/user/bulk-register/register-simple`);
    type Outcome =
      { kind: 'answered'; status: number; address: string } | { kind: 'refused' } | { kind: 'cut'; error: string };
    /** One POST with its own Idempotency-Key, on a pooled keep-alive connection. */
    const post = (address: string) =>
      new Promise<Outcome>((resolve) => {
        const body = JSON.stringify({ address });
        const req = request(
          target,
          {
            method: 'POST',
            agent,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'x-builder-api-key': key,
              'idempotency-key': `load-${address}`,
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ kind: 'answered', status: res.statusCode ?? 0, address }));
            res.on('error', (err) => resolve({ kind: 'cut', error: err.message }));
          },
        );
        // A refused connection reached no server; anything else lost a request the server had.
        req.on('error', (err: NodeJS.ErrnoException) =>
          resolve(
            err.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'cut', error: `${err.code} ${err.message}` },
          ),
        );
        req.end(body);
      });
    const outcomes: Outcome[] = [];
    let signalled = false;
    const loop = async () => {
      for (;;) {
        const outcome = await post(privateKeyToAccount(generatePrivateKey()).address);
        outcomes.push(outcome);
        if (outcome.kind !== 'answered' && signalled) return;
        if (outcome.kind === 'cut') return;
      }
    };
    const loops = Array.from({ length: 16 }, loop);
    // Under load, whatever the machine's speed: every connection has been used and reused.
    // (A request lost before the signal ends the wait: the assertions below name it.)
    while (outcomes.filter((o) => o.kind === 'answered').length < 48 && outcomes.every((o) => o.kind === 'answered')) {
      await new Promise((r) => setTimeout(r, 20));
    }
    signalled = true;
    server.child.kill('SIGTERM');
    await Promise.all(loops);
    const code = await server.exited;
    agent.destroy();

    const answered = outcomes.filter((o) => o.kind === 'answered');
    expect(outcomes.filter((o) => o.kind === 'cut')).toEqual([]);
    expect(answered.length).toBeGreaterThanOrEqual(48);
    expect(answered.filter((o) => o.status !== 201)).toEqual([]);
    // Exit code 0: the process finished before its own SHUTDOWN_GRACE_MS deadline (that exits 1).
    expect(code).toBe(0);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const inFlight = await db.query(`select count(*)::int as n from idempotency_keys where state = 'in_flight'`);
      expect(inFlight.rows[0].n).toBe(0);
      const stored = await db.query(`select count(*)::int as n from idempotency_keys where state = 'completed'`);
      expect(stored.rows[0].n).toBe(answered.length);
    } finally {
      await db.end();
      await database.drop();
    }
  }, 120_000);
});
