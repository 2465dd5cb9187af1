/**
 * `pnpm test`: everything CI runs, in the order that keeps a two-core machine busy.
 *
 *   1. The published packages are built (contract and SDK, side by side): the package check
 *      inspects these `dist/` folders and the install tests pack them.
 *   2. The tests (`vitest run`, with the route-hit ledger on) and the static checks run at the same
 *      time. The checks run one after another, so the tests keep at least a core; the test run is
 *      mostly waiting on child processes, PostgreSQL and the chain at its start and its end, which
 *      is where the checks' CPU goes instead of before the tests.
 *   3. `routes:check` compares the ledger with the contract once the tests passed.
 *
 * Each check's output is printed in one piece at the end; its verdict line as soon as it ends.
 * The exit code is non-zero when anything failed.
 *
 *   tsx scripts/test.ts
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { PACKAGE_BUILDS, printCheck, runCheck, staticChecks, type CheckResult } from './checks.js';
import { LEDGER_DIR } from './route-ledger.js';

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
    child.on('close', (code) => resolve(code === 0));
  });
}

const builds = await Promise.all(PACKAGE_BUILDS.map((b) => runCheck(b)));
for (const build of builds) if (!build.passed) printCheck(build);
if (builds.some((b) => !b.passed)) {
  console.error('\ntest: the package builds failed');
  process.exit(1);
}
console.log(`packages built in ${Math.max(...builds.map((b) => b.seconds)).toFixed(0)} s`);

rmSync(LEDGER_DIR, { recursive: true, force: true });
const checks = (async () => {
  const results: CheckResult[] = [];
  for (const check of staticChecks(true)) {
    const result = await runCheck(check);
    process.stdout.write(
      `── ${check.name}: ${result.passed ? 'passed' : 'FAILED'} in ${result.seconds.toFixed(0)} s\n`,
    );
    results.push(result);
  }
  return results;
})();
const testsPassed = await run('vitest', ['run'], { ...process.env, DUELKIT_ROUTE_LEDGER: LEDGER_DIR });
const results = await checks;
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
