import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/test-server.js';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A Redis of the test's own on a free port: ready once it answers PING and has not exited (a port taken meanwhile). */
async function startRedis(): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100 && proc.exitCode === null; i++) {
    const pong = await new Promise<boolean>((resolve) => {
      const sock = connect(port, '127.0.0.1');
      sock.setEncoding('utf8');
      sock.once('connect', () => sock.write('PING\r\n'));
      sock.once('data', (data: string) => {
        sock.destroy();
        resolve(data.startsWith('+PONG'));
      });
      sock.once('error', () => resolve(false));
    });
    if (pong && proc.exitCode === null) return { url, proc };
    await new Promise((r) => setTimeout(r, 50));
  }
  proc.kill('SIGKILL');
  throw new Error(`redis-server did not start on port ${port} (exit ${proc.exitCode})`);
}

const get = (url: string, key: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers: { 'x-builder-api-key': key, ...headers } });

describe('per-key limits on the shared Redis', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ REDIS_URL: 'redis://127.0.0.1:6379' });
  });
  afterAll(() => server?.close());

  it('answers the 121st request in a minute on a team key with 429 and Retry-After while another key passes', async () => {
    const url = `${server.tournamentsUrl}/api/parlay/health`;
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 121; i++) {
      last = await get(url, server.builderKey);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
    const body = (await last?.json()) as { code: string };
    expect(body.code).toBe('RATE_LIMITED');
    const retryAfter = Number(last?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(last?.headers.get('ratelimit-remaining')).toBe('0');

    const other = await get(url, await server.createKey('team'));
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-limit')).toBe('120');
  });

  it('gives self-serve keys 300 requests a minute', async () => {
    const res = await get(`${server.tournamentsUrl}/api/parlay/health`, await server.createKey('selfserve'));
    expect(res.headers.get('ratelimit-limit')).toBe('300');
    expect(res.headers.get('ratelimit-remaining')).toBe('299');
  });
});

describe('two deployments on one Redis', () => {
  // Two databases, as staging and production: each is a namespace of its own (REDIS_PREFIX's default).
  const env = { REDIS_URL: 'redis://127.0.0.1:6379', SPORTS_HELPERS_IP_LIMIT_PER_MIN: '3' };
  let staging: TestServer;
  let production: TestServer;
  beforeAll(async () => {
    [staging, production] = await Promise.all([startTestServer(env), startTestServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([staging?.close(), production?.close()]);
  });

  const squad = (server: TestServer, team: number) =>
    get(`${server.tournamentsUrl}/svc/sports/football/team/${team}/squad`, server.builderKey);

  it('count a client against each deployment’s own limit, and cache each deployment’s own answers', async () => {
    const team = 200_000 + Math.floor(Math.random() * 1_000_000);
    const meta = async (res: Response) => {
      expect(res.status).toBe(200);
      return ((await res.json()) as { _meta: { fromCache: boolean } })._meta.fromCache;
    };
    // Staging spends the address's allowance and caches the team…
    expect(await meta(await squad(staging, team))).toBe(false);
    expect(await meta(await squad(staging, team))).toBe(true);
    expect((await squad(staging, team)).status).toBe(200);
    expect((await squad(staging, team)).status).toBe(429);
    // …and production still has both: its first request passes and fetches the team itself.
    expect(await meta(await squad(production, team))).toBe(false);
  });
});

describe('when Redis goes away mid-run', () => {
  let server: TestServer;
  let redis: { url: string; proc: ChildProcess };
  beforeAll(async () => {
    redis = await startRedis();
    server = await startTestServer({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    redis?.proc.kill('SIGKILL');
    await server?.close();
  });

  it('never answers with a 5xx and keeps limiting from memory', async () => {
    const url = `${server.tournamentsUrl}/api/tournaments/health`;
    const before = await Promise.all(Array.from({ length: 10 }, () => get(url, server.builderKey)));
    expect(before.every((r) => r.status === 200)).toBe(true);
    redis.proc.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    const statuses: number[] = [];
    for (let i = 0; i < 150; i++) statuses.push((await get(url, server.builderKey)).status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // The in-memory insurance limiter still enforces the budget.
    expect(statuses).toContain(429);
    // Degraded, not unready: the in-memory fallbacks serve, and pulling every instance would not help.
    const ready = await fetch(`${server.tournamentsUrl}/ready`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; checks: Record<string, { status: string }> };
    expect(body.status).toBe('degraded');
    expect(body.checks['redis']?.status).toBe('down');
  });
});

describe('per-IP limit on the tournaments host', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TOURNAMENTS_IP_LIMIT_PER_MIN: '5' });
  });
  afterAll(() => server?.close());

  it('limits one client IP across builder keys', async () => {
    const url = `${server.tournamentsUrl}/api/parlay/health`;
    const keys = await Promise.all([server.createKey(), server.createKey(), server.createKey()]);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(url, keys[i % 3] as string)).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
    // The markets host has no per-IP limit.
    expect((await get(`${server.marketsUrl}/svc/nope`, server.builderKey)).status).toBe(404);
  });
});
