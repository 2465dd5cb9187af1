/**
 * `pnpm test`: the full gate. The package check runs first, since it builds the `dist` the tests
 * install. The test projects then run with the route-hit ledger on, while the read-only checks
 * (types, lint, format), started beside the package check, go on at a lower CPU priority: the
 * tests mostly wait on PostgreSQL, the chain and child processes, and the checks take the time
 * they leave idle. After a passing test run, `routes:check`. The exit code is non-zero when
 * anything failed; a failed package check skips the tests.
 *
 *   tsx scripts/test.ts
 */
import { spawn } from 'node:child_process';
import { PACKAGES, READ_ONLY, runCheck } from './checks.js';

function run(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('close', (code) => resolve(code === 0));
  });
}

const readOnly = Promise.all(READ_ONLY.map((check) => runCheck(check, { background: true })));
const failed: string[] = [];
if (await runCheck(PACKAGES)) {
  if (!(await run('tsx', ['scripts/run-with-route-ledger.ts', 'vitest', 'run']))) failed.push('tests');
  else if (!(await run('tsx', ['scripts/routes-check.ts']))) failed.push('routes:check');
} else {
  failed.push(PACKAGES.name, 'tests (not run)');
}
const results = await readOnly;
failed.unshift(...READ_ONLY.filter((_, i) => !results[i]).map((c) => c.name));
if (failed.length) {
  console.error(`\ntest: ${failed.join(', ')} failed`);
  process.exit(1);
}
console.log('\ntest: every check and test passed');
