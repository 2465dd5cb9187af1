/**
 * Packs the package in the current directory the way `pnpm publish` would and checks the tarball:
 * no tests or scripts, LICENSE and README present, no workspace-only export condition, no
 * `workspace:` ranges, no import in `dist/` of a package the manifest does not declare; then runs
 * publint and attw on exactly that tarball.
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
    peerDependencies?: Record<string, string>;
  };
  // Every package the shipped code or declarations import must be one the manifest installs.
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const undeclared = entries
    .filter((e) => /^package\/dist\/.*\.(d\.c?ts|c?js)$/.test(e))
    .flatMap((e) => {
      const text = readFileSync(join(dir, e), 'utf8');
      const specifiers = [...text.matchAll(/(?:from\s*|import\(\s*|require\(\s*)["']([^"'.][^"']*)["']/g)].map(
        (m) => m[1]!,
      );
      return specifiers
        .filter((spec) => /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(\/.*)?$/.test(spec))
        .map((spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!))
        .filter((name) => !name.startsWith('node:') && !declared.has(name))
        .map((name) => `${e} imports ${name}, which the manifest does not declare`);
    });

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
    ...new Set(undeclared),
  ];
  if (problems.length > 0) throw new Error(`${tarball}:\n  ${problems.join('\n  ')}`);
  console.log(`${tarball}: ${entries.length} files, no tests, no workspace condition`);

  console.log(run('publint', ['--pack', 'false', '--strict', join(dir, 'package')]).trim());
  console.log(run('attw', [tgz, '--profile', 'node16']));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
