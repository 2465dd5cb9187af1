import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViemChainAdapter } from '../adapters/chain/viem-chain.adapter.js';
import { fakeClassification, fakeSeason } from '../adapters/sports-provider/fake-motorsport.season.js';
import { CALENDAR_FIRST_ID, calendarResult } from '../adapters/sports-provider/fake-sportmonks.calendar.js';
import { confirmedMarket, fundedUser } from '../../test/support/market-fixtures.js';
import { runCli, startServerProcess } from '../../test/support/server-process.js';
import { startTestServer, type TestServer } from '../../test/support/test-server.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'duelkit-ops-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('operator commands against a running embedded server (README defaults)', () => {
  it('keys:create prints a key the running server accepts at once', async () => {
    // No DATABASE_URL, no DUELKIT_DATA_DIR: the embedded database in memory, as `pnpm start` runs;
    // started from a folder outside any npm project, which the embedded chain must not need.
    const server = await startServerProcess({ OPERATOR_PORT: '0' }, { cwd: tempDir() });
    const env = { OPERATOR_PORT: String(server.operatorPort) };
    try {
      const created = await runCli('keys-create', ['--name', 'first app', '--tier', 'team'], env);
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      const key = /key:\s+(dk_\S+)/.exec(created.stdout)?.[1] ?? '';
      const res = await fetch(`${server.tournamentsUrl}/api/tournaments/health`, {
        headers: { 'x-builder-api-key': key },
      });
      expect(res.status).toBe(200);
      const quiet = await runCli('keys-create', ['--name', 'second', '--tier', 'selfserve', '--quiet'], env);
      expect(quiet.stdout.trim()).toMatch(/^dk_\S+$/);
      expect(server.lines.filter((l) => l.includes('embedded mode: a development instance'))).toHaveLength(1);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // The credential goes with the server: a command now finds nothing and prints no key.
    const after = await runCli('keys-create', ['--name', 'late', '--tier', 'team'], env);
    expect(after.code).toBe(1);
    expect(after.stdout).toBe('');
    expect(after.stderr).toMatch(/No running Duelkit server/);
  }, 120_000);

  it('with a data directory: keeps generated secrets and the credential there, readable by the owner only', async () => {
    const dataDir = tempDir();
    const server = await startServerProcess({ DUELKIT_DATA_DIR: dataDir, OPERATOR_PORT: '0' });
    const env = { DUELKIT_DATA_DIR: dataDir, OPERATOR_PORT: String(server.operatorPort) };
    try {
      for (const file of ['secrets.json', `operator-${env.OPERATOR_PORT}.json`]) {
        expect(statSync(join(dataDir, file)).mode & 0o077).toBe(0);
      }
      const admin = await runCli(
        'admin-create',
        ['--email', 'ops@example.org', '--password', 'correct horse battery'],
        env,
      );
      expect(admin.code).toBe(0);
      expect(admin.stdout).toMatch(/admin ops@example.org created/);
      const again = await runCli(
        'admin-create',
        ['--email', 'ops@example.org', '--password', 'correct horse battery'],
        env,
      );
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/CONFLICT/);
      const off = await runCli('admin-deactivate', ['--email', 'ops@example.org'], env);
      expect(off.stdout).toMatch(/admin ops@example.org deactivated/);
      const none = await runCli('admin-deactivate', ['--email', 'ops@example.org'], env);
      expect(none.code).toBe(1);
      // A second server on the same directory would corrupt the database: it refuses to start.
      await expect(startServerProcess({ ...env, OPERATOR_PORT: 'off' })).rejects.toThrow(/in use by process/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);
});

describe('the operator surface', () => {
  let server: TestServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    const runtimeDir = tempDir();
    server = await startTestServer({
      OPERATOR_PORT: '0',
      DUELKIT_RUNTIME_DIR: runtimeDir,
      JOBS_ENABLED: 'true',
      DUEL_PUBLIC_LEAD_SECONDS: '0',
      INDEXER_INTERVAL_MS: '200',
    });
    // Any free port, so no other process can take it between choosing and binding.
    env = { OPERATOR_PORT: new URL(server.operator?.url ?? 'http://x:1').port, DUELKIT_RUNTIME_DIR: runtimeDir };
  });
  afterAll(() => server?.close());

  it('listens on loopback only and refuses a missing or wrong token', async () => {
    const url = server.operator?.url ?? '';
    expect(new URL(url).hostname).toBe('127.0.0.1');
    const body = JSON.stringify({ name: 'x', tier: 'team' });
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${'a'.repeat(43)}`]) {
      const res = await fetch(`${url}/operator/builder-keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body,
      });
      expect(res.status).toBe(401);
    }
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    if (external) {
      const port = new URL(url).port;
      await expect(fetch(`http://${external}:${port}/operator/builder-keys`, { method: 'POST' })).rejects.toThrow();
    }
  });

  it('credits:grant mints through the server’s chain port', async () => {
    const user = privateKeyToAccount(generatePrivateKey()).address;
    const { code, stdout } = await runCli('credits-grant', ['--address', user, '--units', '250'], env);
    expect(code).toBe(0);
    expect(stdout).toContain('minted 250000000000000000000 base units of credits');
    expect(await server.container.chain.collateralBalance('credits', user)).toBe(250n * 10n ** 18n);
  }, 60_000);

  it('credits:grant with the key of an earlier grant answers that grant and mints nothing more', async () => {
    const user = privateKeyToAccount(generatePrivateKey()).address;
    const key = `grant-${Date.now()}`;
    const first = await runCli('credits-grant', ['--address', user, '--units', '40', '--key', key], env);
    const again = await runCli('credits-grant', ['--address', user, '--units', '40', '--key', key], env);
    expect([first.code, again.code]).toEqual([0, 0]);
    const tx = (out: string) => /\(tx (0x[0-9a-f]{64})/.exec(out)?.[1];
    expect(tx(again.stdout)).toBe(tx(first.stdout));
    expect(await server.container.chain.collateralBalance('credits', user)).toBe(40n * 10n ** 18n);
  }, 60_000);

  it('duels:canonical pairs a credits duel with an external market, and says so when there is no such duel', async () => {
    const creator = await fundedUser(server.container, server.builderKey, 'canonical_creator');
    const duelId = await confirmedMarket(server.container, creator);
    const paired = await runCli('duels-canonical', ['--duel-id', duelId, '--ext-id', 'ext-1', '--volume', '1000'], env);
    expect(paired.code).toBe(0);
    const duel = await server.container.markets.repo.byDuelId(duelId);
    expect(duel?.extMarketId).toBe('ext-1');
    expect(duel?.extVolume24h).toBe('1000');
    const missing = await runCli('duels-canonical', ['--duel-id', `0x${'0'.repeat(64)}`, '--off'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/NOT_FOUND/);
  }, 60_000);

  it('time:advance moves the server’s clock and the embedded chain’s time forward together', async () => {
    const block = () => server.container.chain.blockNumber();
    const chainTime = async () =>
      Number(
        (
          await createPublicClient({
            transport: http((server.container.chain as ViemChainAdapter).embeddedRpcUrl),
          }).getBlock()
        ).timestamp,
      );
    const [clockBefore, chainBefore, headBefore] = [server.container.clock.now(), await chainTime(), await block()];
    const moved = await runCli('time-advance', ['--seconds', '86400'], env);
    expect(moved.code, moved.stderr).toBe(0);
    expect(server.container.clock.now() - clockBefore).toBeGreaterThanOrEqual(86_400_000);
    expect(await chainTime()).toBeGreaterThanOrEqual(chainBefore + 86_400);
    expect(await block()).toBe(headBefore + 1n);
    const refused = await runCli('time-advance', ['--seconds', '0'], env);
    expect(refused.code).toBe(2);
  }, 60_000);

  it('sports:script prints how the simulator ends a fixture and a race session; ids it never plays are refused', async () => {
    // A finished fixture and a cancelled one of the calendar, and the first session of a season.
    const ids = Array.from({ length: 200 }, (_, i) => CALENDAR_FIRST_ID + 245_000 + i);
    const finished = ids.find((id) => calendarResult(id).state === 'finished') as number;
    const cancelled = ids.find((id) => calendarResult(id).state === 'cancelled') as number;
    const event = fakeSeason(20_500).rounds[0]?.events[0];
    if (!event) throw new Error('the fake season has sessions');
    const args = ['--fixture', String(finished), '--fixture', String(cancelled), '--event', String(event.id)];
    const out = await runCli('sports-script', args, env);
    expect(out.code, out.stderr).toBe(0);
    const score = calendarResult(finished) as { homeGoals: number; awayGoals: number };
    expect(out.stdout).toMatch(
      new RegExp(`fixture ${finished} .*: ${score.homeGoals}–${score.awayGoals} \\((HOME|DRAW|AWAY)\\)`),
    );
    expect(out.stdout).toMatch(new RegExp(`fixture ${cancelled} .*: cancelled`));
    expect(out.stdout).toContain(
      `event ${event.id}  ${event.startsAt.toISOString()}  ${event.eventType}: ${fakeClassification(event).order.join(', ')}`,
    );

    const unknown = await runCli('sports-script', ['--fixture', '12', '--event', '5'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/NOT_FOUND: .*fixture 12, event 5/);
    expect((await runCli('sports-script', [], env)).code).toBe(2);
  }, 60_000);
});
