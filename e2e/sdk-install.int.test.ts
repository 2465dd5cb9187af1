/**
 * The SDK as a builder gets it: packed like `pnpm publish` packs it, installed with npm into a new
 * project that already uses zod 4 and viem, type-checked strictly (no skipLibCheck) and run
 * against a real server.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DuelkitClient } from '@duelkit/sdk';
import {
  builtAfter,
  confirmedDuel,
  packagesBuilt,
  type ServerProcess,
  signedInClient,
  startServer,
  UNIT,
} from './support.js';

const SDK_DIR = fileURLToPath(new URL('../sdk/', import.meta.url));
/** What the SDK's bundle is built from: its own source and configuration, and the contract it bundles. */
const SDK_INPUTS = ['../sdk/src', '../sdk/package.json', '../sdk/tsup.config.ts', '../contract/src'].map((p) =>
  fileURLToPath(new URL(p, import.meta.url)),
);

/** `sdk/dist` is packed as it is when it was built after its inputs last changed (right after `pnpm test` or `pnpm verify` built it). */
const sdkDistIsFresh = () => builtAfter(join(SDK_DIR, 'dist'), SDK_INPUTS);
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The environment of a shell outside the workspace: without the settings pnpm passes its children. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}, timeout = 120_000) {
  return new Promise<{ code: number; stdout: string; stderr: string; ms: number }>((resolve) => {
    const started = Date.now();
    const options = { cwd, env: { ...cleanEnv(), ...env }, timeout, maxBuffer: 16 << 20 };
    execFile(cmd, args, options, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

async function ok(cmd: string, args: string[], cwd: string, env?: Record<string, string>, timeout?: number) {
  const r = await run(cmd, args, cwd, env, timeout);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** What a builder writes first: sign in with a new wallet, read who they are, branch on a typed error. */
const PROGRAM = `
import { DuelkitClient, NotFoundError, type User } from '@duelkit/sdk';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';

const Env = z.object({ DUELKIT_BUILDER_KEY: z.string(), DUELKIT_MARKETS_URL: z.url() });
Env.parse(process.env);

const signer = privateKeyToAccount(generatePrivateKey());
const client = new DuelkitClient({ signer });
const session = await client.auth.signIn({ username: \`u_\${signer.address.slice(2, 12).toLowerCase()}\` });
const user: User | undefined = session.user;
const limit = await client.bets.userBetLimit({ params: { address: user?.address ?? '' } });
let missing = '';
try {
  await client.duels.getById({ params: { duelId: '0x' + '0'.repeat(64) }, query: {} });
} catch (err) {
  if (err instanceof NotFoundError) missing = \`\${err.status} \${err.code}\`;
}
console.log(JSON.stringify({ signer: signer.address, user, limit, missing }));
`;

/** The README's quickstart and trade snippets, as one program: what a builder copies first. */
function readmeProgram(): string {
  const readme = readFileSync(join(SDK_DIR, 'README.md'), 'utf8');
  const block = (heading: string) => {
    const section = readme.slice(readme.indexOf(`\n## ${heading}\n`));
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    if (!code) throw new Error(`README.md has no TypeScript block under "## ${heading}"`);
    return code;
  };
  return `${block('Quickstart')}\n${block('Trade')}`;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    outDir: 'out',
    types: ['node'],
  },
  files: ['main.ts', 'readme.ts'],
};

/** Three lines against the SDK alone: what its declarations cost the compiler. */
const SDK_ONLY = `import { DuelkitClient } from '@duelkit/sdk';
const client = new DuelkitClient({ builderApiKey: 'dk_example' });
export const duel = client.duels.getById({ params: { duelId: '0x01' }, query: {} });
`;

let dir: string;
let server: ServerProcess;
let install: { ms: number; stderr: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'duelkit-sdk-install-'));
  const packed = join(dir, 'packed');
  mkdirSync(packed);
  const serverStarted = startServer({
    DUEL_PUBLIC_LEAD_SECONDS: '0',
    INDEXER_INTERVAL_MS: '200',
    JOBS_ENABLED: 'true',
  });
  await packagesBuilt();
  if (!sdkDistIsFresh()) await ok('pnpm', ['run', 'build'], SDK_DIR, {}, 180_000);
  await ok('pnpm', ['pack', '--pack-destination', packed], SDK_DIR);
  const tarball = join(
    packed,
    readdirSync(packed).find((f) => f.endsWith('.tgz'))!,
  );

  const app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'new-app',
      private: true,
      type: 'module',
      dependencies: { zod: '^4.0.0', viem: '2.57.20' },
    }),
  );
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  writeFileSync(join(app, 'main.ts'), PROGRAM);
  writeFileSync(join(app, 'readme.ts'), readmeProgram());
  writeFileSync(join(app, 'sdk-only.ts'), SDK_ONLY);
  writeFileSync(join(app, 'baseline.ts'), 'export const nothing = 0;\n');
  const { outDir: _, ...noEmit } = TSCONFIG.compilerOptions;
  for (const file of ['sdk-only', 'baseline']) {
    writeFileSync(
      join(app, `tsconfig.${file}.json`),
      JSON.stringify({ compilerOptions: { ...noEmit, noEmit: true }, files: [`${file}.ts`] }),
    );
  }
  // The project's own dependencies first, then the SDK alone: the second install is what a builder runs.
  await ok('npm', ['install', '--no-audit', '--no-fund', '@types/node@20'], app, {}, 240_000);
  install = await ok('npm', ['install', '--no-audit', '--no-fund', tarball], app, {}, 120_000);
  server = await serverStarted;
}, 600_000);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed SDK in a new npm project on zod 4', () => {
  it('installs as one package: no dependencies, no peer conflict, no warnings', () => {
    const app = join(dir, 'app');
    expect(install.stderr).not.toMatch(/ERESOLVE|npm warn|npm WARN/);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/@duelkit/sdk/package.json'), 'utf8')) as {
      dependencies?: object;
      peerDependencies?: object;
    };
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    const zod = JSON.parse(readFileSync(join(app, 'node_modules/zod/package.json'), 'utf8')) as { version: string };
    expect(zod.version).toMatch(/^4\./);
    expect(readdirSync(join(app, 'node_modules/@duelkit'))).toEqual(['sdk']);
  });

  it('declares plain types: a file importing it type-checks without instantiating zod or ts-rest generics', async () => {
    const app = join(dir, 'app');
    const instantiations = async (project: string): Promise<number> => {
      const check = await run(process.execPath, [TSC, '-p', project, '--extendedDiagnostics'], app);
      expect(check.code, check.stdout + check.stderr).toBe(0);
      return Number(/Instantiations:\s+(\d+)/.exec(check.stdout)?.[1]);
    };
    // Speed is measured (docs/sdk.md), not asserted; the instantiation count is the machine-independent
    // part of it. Without skipLibCheck the DOM and Node declarations alone cost about 48,000 (more as
    // @types/node grows), so the SDK's share is the difference from a file that imports nothing:
    // about 2,200 for 354 routes, 550,000 when the declarations were inferred ts-rest generics.
    const sdkShare =
      (await instantiations('tsconfig.sdk-only.json')) - (await instantiations('tsconfig.baseline.json'));
    expect(sdkShare).toBeGreaterThan(0);
    expect(sdkShare).toBeLessThan(20_000);
  }, 60_000);

  it('type-checks strictly without skipLibCheck, and runs against a real server', async () => {
    const app = join(dir, 'app');
    // One compile both checks (it fails on any error) and emits what runs below.
    await ok(process.execPath, [TSC, '-p', '.'], app);

    const { stdout } = await ok(process.execPath, ['out/main.js'], app, {
      DUELKIT_BUILDER_KEY: server.builderKey,
      DUELKIT_MARKETS_URL: server.marketsUrl,
      DUELKIT_TOURNAMENTS_URL: server.tournamentsUrl,
    });
    const result = JSON.parse(stdout) as {
      signer: string;
      user: { address: string; eoaAddress: string; username: string };
      limit: { address: string };
      missing: string;
    };
    // The account's own (managed) wallet is not the wallet that signed in.
    expect(result.user.eoaAddress.toLowerCase()).toBe(result.signer.toLowerCase());
    expect(result.user.address.toLowerCase()).not.toBe(result.signer.toLowerCase());
    expect(result.limit.address.toLowerCase()).toBe(result.user.address.toLowerCase());
    expect(result.missing).toBe('404 NOT_FOUND');
  }, 240_000);

  it("runs the README's quickstart and trade verbatim: a funded wallet buys into an open market", async () => {
    const app = join(dir, 'app');
    // What the README asks of the builder beforehand: a wallet whose managed wallet holds credits,
    // and an open market (created by someone else).
    const privateKey = generatePrivateKey();
    const signer = privateKeyToAccount(privateKey);
    const builder = new DuelkitClient({
      marketsUrl: server.marketsUrl,
      tournamentsUrl: server.tournamentsUrl,
      builderApiKey: server.builderKey,
      signer,
    });
    const { user } = await builder.auth.signIn({ username: `u_${signer.address.slice(2, 12).toLowerCase()}` });
    await server.grantCredits(user!.address as `0x${string}`, 500n * UNIT);
    const { client: creator } = await signedInClient(server, 'readme_creator');
    const duelId = await confirmedDuel(server, creator, 'Does the README work verbatim?');

    const { stdout } = await ok(process.execPath, ['out/readme.js'], app, {
      PRIVATE_KEY: privateKey,
      DUELKIT_BUILDER_KEY: server.builderKey,
      DUELKIT_MARKETS_URL: server.marketsUrl,
      DUELKIT_TOURNAMENTS_URL: server.tournamentsUrl,
    });
    expect(stdout).toContain(`managedWallet: '${user!.address}'`);
    expect(stdout).toMatch(/accepted 0x[0-9a-f]{64} expecting at least \d+ shares for 12500000000000000000/);
    const shares = /holding (\d+) YES shares/.exec(stdout)?.[1];
    expect(BigInt(shares ?? 0)).toBe(await server.sharesOf(duelId, user!.address as `0x${string}`, 0));
    expect(BigInt(shares ?? 0)).toBeGreaterThan(0n);
  }, 120_000);
});
