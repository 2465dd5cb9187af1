/**
 * `pnpm verify`: the static checks, side by side (each is mostly one busy core, so on a machine
 * with two or more they finish in about the time of the longest). Each check's output is printed
 * in one piece when it ends; the exit code is non-zero when any check failed.
 *
 *   tsx scripts/verify.ts
 */
import { spawn } from 'node:child_process';

const checks: { name: string; command: string }[] = [
  { name: 'types', command: 'tsc --noEmit -p tsconfig.json' },
  { name: 'lint', command: 'pnpm run lint' },
  { name: 'format', command: 'prettier --check .' },
  { name: 'packages', command: 'pnpm run pack:check' },
];

function run(check: { name: string; command: string }): Promise<boolean> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(check.command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => output.push(c));
    child.stderr.on('data', (c: Buffer) => output.push(c));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const verdict = code === 0 ? 'passed' : `FAILED (exit ${code ?? 'signal'})`;
      process.stdout.write(`\n── ${check.name}: ${check.command} — ${verdict} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(checks.map(run));
const failed = checks.filter((_, i) => !results[i]).map((c) => c.name);
if (failed.length) {
  console.error(`\nverify: ${failed.join(', ')} failed`);
  process.exit(1);
}
console.log('\nverify: every check passed');
