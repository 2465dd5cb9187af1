import { execFile, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuelkitClient } from '@duelkit/sdk';
import { builtAfter, packagesBuilt, SERVER_DIR, startServer, until, type ServerProcess } from './support.js';

const run = promisify(execFile);
const DIST = join(SERVER_DIR, 'dist');
const CONTRACT_DIR = join(SERVER_DIR, '../contract');

/** The built server loads the contract's built `dist`; it is built again only when older than its inputs. */
const contractDistIsFresh = () =>
  builtAfter(
    join(CONTRACT_DIR, 'dist'),
    ['src', 'package.json', 'tsup.config.ts'].map((p) => join(CONTRACT_DIR, p)),
  );

function builtFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? builtFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

/** `pnpm build` then `pnpm start`'s command: the built server on Node alone, no TypeScript loader. */
describe('the production build', () => {
  let server: ServerProcess;
  const key = `dk_built_${Date.now().toString(36)}_smoke`;
  beforeAll(async () => {
    await packagesBuilt();
    const packages = contractDistIsFresh() ? ['@duelkit/server'] : ['@duelkit/contract', '@duelkit/server'];
    await run('pnpm', [...packages.flatMap((p) => ['--filter', p]), 'build'], { cwd: join(SERVER_DIR, '..') });
    server = await startServer({ DUELKIT_DEV_BUILDER_KEY: key }, { entry: ['dist/main.js'], database: 'embedded' });
  }, 240_000);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it('needs no compiler at run time and carries its OpenAPI documents', async () => {
    const offenders = builtFiles(DIST).filter((f) =>
      /from ['"]solc['"]|require\(['"]solc['"]\)/.test(readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
    const doc = (await (await fetch(`${server.marketsUrl}/openapi.json`)).json()) as { openapi: string };
    expect(doc.openapi).toMatch(/^3\./);
    expect(server.lines.join('\n')).not.toMatch(/tsx|ERR_/);
  });

  it('passes the smoke: health, then a signed-in call through the SDK', async () => {
    expect((await fetch(`${server.marketsUrl}/health`)).status).toBe(200);
    const client = new DuelkitClient({
      marketsUrl: server.marketsUrl,
      tournamentsUrl: server.tournamentsUrl,
      builderApiKey: key,
      signer: privateKeyToAccount(generatePrivateKey()),
      maxRetries: 0,
    });
    const session = await client.auth.signIn({ username: 'built_smoke' });
    const signed = await client.wallet.sign({ body: { message: 'built' } });
    expect(signed.address).toBe(session.user?.address);
  });

  it('stops quietly with exit code 0 on Ctrl-C under pnpm start', async () => {
    // `pnpm start` as a person runs it: its own process group, which Ctrl-C signals as a whole.
    const child = spawn('pnpm', ['start'], {
      cwd: join(SERVER_DIR, '..'),
      detached: true,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        PORT: '0',
        TOURNAMENTS_PORT: '0',
        HOST: '127.0.0.1',
        OPERATOR_PORT: 'off',
        CHAIN_EMBEDDED_RPC_PORT: '0',
        DUELKIT_DATA_DIR: ':memory:',
      },
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await until(
      () => Promise.resolve(output),
      (text) => text.includes('duelkit listening'),
      90_000,
    );
    process.kill(-(child.pid ?? 0), 'SIGINT');
    expect(await exited).toBe(0);
    expect(output).not.toMatch(/ERR_PNPM|ELIFECYCLE|Command failed/);
  }, 120_000);
});
