/**
 * Packs the package in the current directory the way `pnpm publish` would and checks the tarball:
 * no tests or scripts, LICENSE and README present, no workspace-only export condition, no
 * `workspace:` ranges; then runs publint and attw on exactly that tarball.
 *
 *   pnpm --filter @duelkit/sdk pack:check
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = (cmd: string, args: string[], cwd = process.cwd()) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

const dir = mkdtempSync(join(tmpdir(), 'duelkit-pack-'));
try {
  run('pnpm', ['pack', '--pack-destination', dir]);
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('pnpm pack wrote no tarball');
  const tgz = join(dir, tarball);
  const entries = run('tar', ['-tzf', tgz]).split('\n').filter(Boolean);
  run('tar', ['-xzf', tgz, '-C', dir]);
  const manifest = JSON.parse(readFileSync(join(dir, 'package', 'package.json'), 'utf8')) as {
    exports?: unknown;
    dependencies?: Record<string, string>;
  };

  const problems = [
    ...entries.filter((e) => /\.test\.ts$|^package\/(test|scripts|bench)\//.test(e)).map((e) => `ships ${e}`),
    ...['package/LICENSE', 'package/README.md', 'package/dist/index.js', 'package/dist/index.cjs']
      .filter((e) => !entries.includes(e))
      .map((e) => `misses ${e}`),
    ...(JSON.stringify(manifest.exports ?? {}).includes('duelkit-source')
      ? ['publishes the workspace-only `duelkit-source` export condition']
      : []),
    ...Object.entries(manifest.dependencies ?? {})
      .filter(([, range]) => range.startsWith('workspace:'))
      .map(([name, range]) => `depends on ${name}@${range}`),
  ];
  if (problems.length > 0) throw new Error(`${tarball}:\n  ${problems.join('\n  ')}`);
  console.log(`${tarball}: ${entries.length} files, no tests, no workspace condition`);

  console.log(run('publint', ['--pack', 'false', '--strict', join(dir, 'package')]).trim());
  console.log(run('attw', [tgz, '--profile', 'node16']));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
