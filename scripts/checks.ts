/**
 * The static checks `pnpm verify` and `pnpm test` run, and how one is run: its output is kept and
 * printed in one piece when it ends, so checks running side by side do not interleave.
 */
import { spawn } from 'node:child_process';

export interface Check {
  readonly name: string;
  readonly command: string;
}

/** Builds the contract's and the SDK's `dist` and checks the packed tarballs (the tests install them). */
export const PACKAGES: Check = { name: 'packages', command: 'pnpm run pack:check' };

/** The checks that only read the sources. */
export const READ_ONLY: readonly Check[] = [
  { name: 'types', command: 'tsc --noEmit -p tsconfig.json' },
  { name: 'lint', command: 'pnpm run lint' },
  { name: 'format', command: 'prettier --check .' },
];

/**
 * Runs `check` and resolves whether it passed. `background` runs it at a lower CPU priority (nice
 * 10 where `nice` exists), so that it takes the time other work leaves idle.
 */
export function runCheck(check: Check, options: { background?: boolean } = {}): Promise<boolean> {
  const started = Date.now();
  const command = options.background && process.platform !== 'win32' ? `nice -n 10 ${check.command}` : check.command;
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
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
