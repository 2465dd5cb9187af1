import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChainNode, type ChainNode } from '../test/support/chain-node.js';
import { createTestDatabase, type TestDatabase } from '../test/support/database.js';
import { marketsApi, signUpWallet, type Body } from '../test/support/http.js';
import { runCli, spawnNode, startServerProcess, type ServerProcess } from '../test/support/server-process.js';
import { startTestServer, type TestServer } from '../test/support/test-server.js';
import { builtServerFile } from '../test/support/test-build.js';
import { startFakeSportmonks, type FakeSportmonks } from './adapters/sports-provider/fake-sportmonks.server.js';

/** The development JWT secret earlier versions fell back to: it must never verify again. */
const OLD_DEV_JWT_SECRET = 'duelkit-development-jwt-secret-not-for-production';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Every string literal of the shipped source (not tests): any of them would be a public secret. */
function sourceConstants(): string[] {
  const found = new Set<string>([OLD_DEV_JWT_SECRET]);
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !/\.(int\.|e2e\.)?test\.ts$/.test(entry.name)) {
        for (const m of readFileSync(path, 'utf8').matchAll(/'([^'\\\n]{8,})'|"([^"\\\n]{8,})"|`([^`$\\\n]{8,})`/g)) {
          found.add(m[1] ?? m[2] ?? m[3] ?? '');
        }
      }
    }
  };
  for (const root of ['server/src', 'contract/src', 'sdk/src']) walk(join(REPO, root));
  return [...found];
}

/**
 * The genuine token's claims, signed with `secret` (HS256, as the server signs): a forgery that
 * fails only on the key. Signed with node:crypto's HMAC at once: the check signs about 16,000.
 */
function forge(genuine: string, secret: string, kid: string): string {
  const { iat: _iat, exp: _exp, ...claims } = decodeJwt(genuine);
  const iat = Math.floor(Date.now() / 1000);
  const part = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url');
  const input = `${part({ alg: 'HS256', kid, typ: 'JWT' })}.${part({ ...claims, iat, exp: iat + 3600 })}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}
const kidOf = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 12);

describe('embedded mode', () => {
  let server: TestServer;
  let genuine: string;
  beforeAll(async () => {
    server = await startTestServer();
    const signedUp = await signUpWallet(
      marketsApi(() => server),
      'constant_check',
    );
    genuine = signedUp.body['token'] as string;
  });
  afterAll(() => server?.close());

  it('refuses a token signed with any constant of the source, whatever key id it names', async () => {
    const tokens = server.container.identity.tokens;
    expect((await tokens.verifyUser(genuine)).sub).toBeTruthy();
    const realKid = decodeProtectedHeader(genuine).kid as string;
    // The forgery is refused for its key alone: signed with the server's own secret, it is accepted.
    const own = await tokens.verifyUser(forge(genuine, server.container.config.auth.jwtSecret, realKid));
    expect(own.sub).toBe((await tokens.verifyUser(genuine)).sub);
    const constants = sourceConstants();
    expect(constants.length).toBeGreaterThan(500);
    const accepted: string[] = [];
    for (const secret of constants) {
      for (const kid of [realKid, kidOf(secret)]) {
        const verdict = await tokens.verifyUser(forge(genuine, secret, kid)).then(
          () => 'accepted',
          (err: { code?: string }) => err.code,
        );
        if (verdict !== 'TOKEN_INVALID') accepted.push(`${secret} (${verdict})`);
      }
    }
    expect(accepted).toEqual([]);
    const res = await fetch(`${server.marketsUrl}/svc/user/wallet/sign`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-builder-api-key': server.builderKey,
        authorization: `Bearer ${forge(genuine, OLD_DEV_JWT_SECRET, realKid)}`,
      },
      body: JSON.stringify({ message: 'hello' }),
    });
    expect(res.status).toBe(401);
  }, 60_000);

  it('says in every sports answer that the data comes from the local fake', async () => {
    const res = await fetch(`${server.tournamentsUrl}/svc/sports/proxy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-builder-api-key': server.builderKey },
      body: JSON.stringify({ path: 'football/fixtures/7' }),
    });
    expect(((await res.json()) as Body)['_meta']['source']).toBe('fake');
  });
});

describe('production mode (a real process)', () => {
  it('refuses to start with required pieces missing, listing all of them at once', async () => {
    const { child, lines } = spawnNode([builtServerFile('src/main.ts')], {
      DUELKIT_ENV: 'production',
      DUELKIT_DEV_BUILDER_KEY: 'dk_not_in_production_please',
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    const output = lines.join('\n');
    for (const name of [
      'DATABASE_URL',
      'REDIS_URL',
      'CHAIN_RPC_URL',
      'CHAIN_OPERATOR_KEY',
      'JWT_SECRET',
      'WALLET_MASTER_KEY',
      'SPORTS_PROVIDER',
      'DUELKIT_DEV_BUILDER_KEY',
    ]) {
      expect(output).toContain(`${name}:`);
    }
    expect(output).not.toContain('listening');
  }, 60_000);

  describe('with everything configured', () => {
    let node: ChainNode;
    let sports: FakeSportmonks;
    let database: TestDatabase;
    let server: ServerProcess;
    let env: Record<string, string>;
    const runtimeDir = mkdtempSync(join(tmpdir(), 'duelkit-prod-'));
    beforeAll(async () => {
      [node, sports, database] = await Promise.all([startChainNode(), startFakeSportmonks(), createTestDatabase()]);
      env = {
        DUELKIT_ENV: 'production',
        DATABASE_URL: database.url,
        REDIS_URL: 'redis://127.0.0.1:6379',
        CHAIN_RPC_URL: node.rpcUrl,
        CHAIN_CONTRACTS: node.contracts,
        CHAIN_OPERATOR_KEY: node.operatorKey,
        CHAIN_CONFIRMATIONS: '0',
        JWT_SECRET: randomBytes(32).toString('base64url'),
        WALLET_MASTER_KEY: `0x${randomBytes(32).toString('hex')}`,
        SPORTS_PROVIDER: 'sportmonks',
        SPORTMONKS_API_TOKEN: sports.token,
        SPORTMONKS_V3_BASE_URL: sports.v3BaseUrl,
        SPORTMONKS_CRICKET_V2_BASE_URL: sports.cricketV2BaseUrl,
        OPERATOR_PORT: '0',
        DUELKIT_RUNTIME_DIR: runtimeDir,
        JOBS_ENABLED: 'false',
      };
      server = await startServerProcess(env);
      env['OPERATOR_PORT'] = String(server.operatorPort);
    }, 120_000);
    afterAll(async () => {
      await server?.stop('SIGKILL');
      await Promise.all([node?.stop(), sports?.close(), database?.drop()]);
      rmSync(runtimeDir, { recursive: true, force: true });
    });

    it('starts, creates no development key, and serves with a key made by keys:create', async () => {
      expect(server.lines.join('\n')).not.toMatch(/development builder key|embedded mode/);
      const ready = (await (await fetch(`${server.marketsUrl}/ready`)).json()) as Body;
      expect(ready['status']).toBe('ready');
      expect(ready['checks']['redis']['status']).toBe('up');
      const created = await runCli('keys-create', ['--name', 'prod', '--tier', 'team', '--quiet'], env);
      expect(created.code).toBe(0);
      const key = created.stdout.trim();
      const proxied = await fetch(`${server.tournamentsUrl}/svc/sports/proxy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-builder-api-key': key },
        body: JSON.stringify({ path: 'football/fixtures/7' }),
      });
      expect(((await proxied.json()) as Body)['_meta']['source']).toBe('provider');

      const api = marketsApi(() => ({ marketsUrl: server.marketsUrl, builderKey: key }) as TestServer);
      const genuine = (await signUpWallet(api, 'prod_user')).body['token'] as string;
      const realKid = decodeProtectedHeader(genuine).kid as string;
      const sign = (token: string) => api('/svc/user/wallet/sign', { body: { message: 'hello' }, token });
      expect((await sign(genuine)).status).toBe(200);
      const forged = await sign(forge(genuine, OLD_DEV_JWT_SECRET, realKid));
      expect(forged.status).toBe(401);
      expect(forged.body['code']).toBe('TOKEN_INVALID');
    }, 60_000);
  });
});
