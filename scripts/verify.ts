/**
 * `pnpm verify`: the static checks, side by side (each is mostly one busy core, so on a machine
 * with two or more they finish in about the time of the longest). Each check's output is printed
 * in one piece when it ends; the exit code is non-zero when any check failed.
 *
 *   tsx scripts/verify.ts
 */
import { printCheck, runCheck, staticChecks } from './checks.js';

const results = await Promise.all(
  staticChecks('build').map(async (check) => {
    const result = await runCheck(check);
    printCheck(result);
    return result;
  }),
);
const failed = results.filter((r) => !r.passed).map((r) => r.check.name);
if (failed.length) {
  console.error(`\nverify: ${failed.join(', ')} failed`);
  process.exit(1);
}
console.log('\nverify: every check passed');
