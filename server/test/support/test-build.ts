/**
 * The JavaScript the tests' child processes run: servers, operator commands and the helper
 * processes in this folder start from `.test-build/` at the repository root, a file-for-file
 * transpile of `server/src`, `server/test`, `server/scripts` and `contract/src` (see
 * server/scripts/transpile.ts).
 *
 * Node loads it without a TypeScript loader in the process: a server started through tsx spends
 * most of its start resolving every import through the loader's hooks (about 7 s of CPU against
 * under 3 s here), and fault tests start dozens. The folder sits beside `server/`, at the depth of
 * `server/src`, so the server's own relative lookups (`docs/openapi`, the guides) still find the
 * repository's files; `node_modules` links to the server's, and `@duelkit/contract` is rewritten to
 * the transpiled contract source, as the `duelkit-source` condition resolves it for tests.
 *
 * The global setup calls `ensureTestBuild()`; it rebuilds only when a source file changed (by
 * path, size and modification time), into a new folder that replaces the old one whole.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { relativeSpecifier, transpile, typescriptFiles } from '../../scripts/transpile.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const TEST_BUILD_DIR = join(ROOT, '.test-build');
const STAMP = '.stamp';

const trees = [
  { from: join(ROOT, 'server/src'), to: 'src' },
  { from: join(ROOT, 'server/test'), to: 'test' },
  // The support files' own imports reach the transpiler (test-build.ts itself).
  { from: join(ROOT, 'server/scripts'), to: 'scripts' },
  { from: join(ROOT, 'contract/src'), to: 'contract' },
] as const;

const isTest = (path: string): boolean => path.endsWith('.test.ts');

/** Path, size and modification time of every input, hashed: equal means nothing changed. */
function fingerprint(): string {
  const hash = createHash('sha256');
  for (const tree of trees) {
    for (const file of typescriptFiles(tree.from).filter((f) => !isTest(f))) {
      const stat = statSync(join(tree.from, file));
      hash.update(`${tree.to}/${file}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  }
  return hash.digest('hex');
}

/** Builds `.test-build/` unless it is current; returns whether it built. */
export async function ensureTestBuild(): Promise<boolean> {
  const wanted = fingerprint();
  const stampFile = join(TEST_BUILD_DIR, STAMP);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === wanted) return false;

  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  const fresh = `${TEST_BUILD_DIR}.new-${suffix}`;
  const contractEntry = join(fresh, 'contract/index.js');
  for (const tree of trees) {
    await transpile({
      from: tree.from,
      to: join(fresh, tree.to),
      skip: isTest,
      rewrite: (specifier, outFile) =>
        specifier === '@duelkit/contract' ? relativeSpecifier(outFile, contractEntry) : undefined,
    });
  }
  symlinkSync('../server/node_modules', join(fresh, 'node_modules'), 'dir');
  writeFileSync(join(fresh, 'package.json'), '{ "private": true, "type": "module" }\n');
  writeFileSync(join(fresh, STAMP), wanted);

  // Swap whole folders, so a reader never sees half of one.
  const old = `${TEST_BUILD_DIR}.old-${suffix}`;
  if (existsSync(TEST_BUILD_DIR)) renameSync(TEST_BUILD_DIR, old);
  renameSync(fresh, TEST_BUILD_DIR);
  rmSync(old, { recursive: true, force: true });
  return true;
}

/** The built counterpart of a server file: `src/main.ts` → `.test-build/src/main.js`. */
export function builtServerFile(serverRelative: string): string {
  const built = join(TEST_BUILD_DIR, serverRelative.replace(/\.ts$/, '.js'));
  if (!existsSync(built)) {
    throw new Error(`${built} is missing: the integration and e2e global setup builds it (ensureTestBuild)`);
  }
  return built;
}
