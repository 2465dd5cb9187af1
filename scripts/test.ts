/**
 * `pnpm test`: everything CI runs, with the static checks beside the tests rather than before them.
 *
 * The tests (`vitest run`, with the route-hit ledger on) start at once. Beside them, one after
 * another: the published packages' builds (contract and SDK side by side), then type-check and
 * lint, then, at a lower priority, the format check and the package check of the builds. The two
 * tests that pack or run a package's `dist` wait for its build (`packagesBuilt` in e2e/support.ts,
 * through the file named in `DUELKIT_PACKAGES_READY`). `routes:check` compares the ledger with the
 * contract once the tests passed.
 *
 * Each check's verdict is printed when it ends and its output in one piece after the tests, so no
 * line of it lands inside the test report. The exit code is non-zero when anything failed.
 *
 *   tsx scripts/test.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PACKAGE_BUILDS,
  printCheck,
  runCheck,
  staticChecks,
  TYPES_AND_LINT,
  type Check,
  type CheckResult,
} from './checks.js';
import { LEDGER_DIR } from './route-ledger.js';

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
    child.on('close', (code) => resolve(code === 0));
  });
}

function announce(result: CheckResult): CheckResult {
  process.stdout.write(
    `── ${result.check.name}: ${result.passed ? 'passed' : 'FAILED'} in ${result.seconds.toFixed(0)} s\n`,
  );
  return result;
}

/**
 * The short static checks yield the CPU to the tests (nice 10): some tests wait on real deadlines
 * (a broadcast timeout, a child's start), and such a check loses nothing by finishing later. The
 * builds keep the normal priority, as two tests wait for them, and so do type-check and lint: on
 * one core and about 160 s of CPU, at nice 10 they finished a minute after the tests, with the
 * other core idle (15 min 32 s from a clean clone on a 2-core machine; 13 min 50 s at the normal
 * priority, the tests no slower).
 */
function withPriority(check: Check): Check {
  if (check.name === TYPES_AND_LINT || process.platform === 'win32') return check;
  return { ...check, command: `nice -n 10 ${check.command}` };
}

const signalDir = mkdtempSync(join(tmpdir(), 'duelkit-test-'));
const packagesReady = join(signalDir, 'packages-ready');

const checks = (async () => {
  const builds = (await Promise.all(PACKAGE_BUILDS.map((b) => runCheck(b)))).map(announce);
  const built = builds.every((b) => b.passed);
  writeFileSync(packagesReady, built ? 'ok' : 'failed');
  const results = [...builds];
  // Without builds there is nothing to inspect; the failed builds are reported instead.
  for (const check of staticChecks(built ? 'inspect' : 'skip')) {
    results.push(announce(await runCheck(withPriority(check))));
  }
  return results;
})();

rmSync(LEDGER_DIR, { recursive: true, force: true });
const testsPassed = await run('vitest', ['run'], {
  ...process.env,
  DUELKIT_ROUTE_LEDGER: LEDGER_DIR,
  DUELKIT_PACKAGES_READY: packagesReady,
});
const results = await checks;
rmSync(signalDir, { recursive: true, force: true });
results.forEach(printCheck);
const routesPassed = testsPassed && (await run('tsx', ['scripts/routes-check.ts']));

const failed = [
  ...results.filter((r) => !r.passed).map((r) => r.check.name),
  ...(testsPassed ? [] : ['tests']),
  ...(testsPassed && !routesPassed ? ['routes:check'] : []),
];
if (failed.length > 0) {
  console.error(`\ntest: ${failed.join(', ')} failed`);
  process.exit(1);
}
console.log('\ntest: every check and test passed');
