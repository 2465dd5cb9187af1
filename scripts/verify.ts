/**
 * `pnpm verify`: the static checks, side by side (each is mostly one busy core, so on a machine
 * with two or more they finish in about the time of the longest). Each check's output is printed
 * in one piece when it ends; the exit code is non-zero when any check failed.
 *
 *   tsx scripts/verify.ts
 */
import { PACKAGES, READ_ONLY, runCheck } from './checks.js';

const checks = [...READ_ONLY, PACKAGES];
const results = await Promise.all(checks.map((check) => runCheck(check)));
const failed = checks.filter((_, i) => !results[i]).map((c) => c.name);
if (failed.length) {
  console.error(`\nverify: ${failed.join(', ')} failed`);
  process.exit(1);
}
console.log('\nverify: every check passed');
