/**
 * The static checks `pnpm verify` and `pnpm test` run, and how one is run: its output is kept and
 * printed in one piece when it ends, so checks that run beside each other (or beside the tests)
 * never interleave their lines.
 */
import { spawn } from 'node:child_process';

export interface Check {
  readonly name: string;
  readonly command: string;
}

/** The published packages' builds (`dist/`), which the package check and the install tests use. */
export const PACKAGE_BUILDS: readonly Check[] = [
  { name: 'contract build', command: 'pnpm --filter @duelkit/contract build' },
  { name: 'sdk build', command: 'pnpm --filter @duelkit/sdk build' },
];

/** The check that type-checks and lints the workspace: the longest of them. */
export const TYPES_AND_LINT = 'types and lint';

/**
 * Type-check and lint share one TypeScript program (scripts/types-and-lint.ts). The package check
 * builds both packages first (`build`), inspects the builds just made (`inspect`), or is left out
 * when there are no builds to inspect (`skip`).
 */
export function staticChecks(packages: 'build' | 'inspect' | 'skip'): Check[] {
  return [
    { name: TYPES_AND_LINT, command: 'pnpm run types-and-lint' },
    { name: 'format', command: 'prettier --check .' },
    ...(packages === 'skip'
      ? []
      : [
          {
            name: 'packages',
            command: `pnpm --filter @duelkit/contract --filter @duelkit/sdk ${packages === 'build' ? 'pack:check' : 'pack:inspect'}`,
          },
        ]),
  ];
}

export interface CheckResult {
  readonly check: Check;
  readonly passed: boolean;
  readonly seconds: number;
  readonly output: Buffer;
}

export function runCheck(check: Check, env: NodeJS.ProcessEnv = process.env): Promise<CheckResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(check.command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'], env });
    const output: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => output.push(c));
    child.stderr.on('data', (c: Buffer) => output.push(c));
    child.on('close', (code) =>
      resolve({ check, passed: code === 0, seconds: (Date.now() - started) / 1000, output: Buffer.concat(output) }),
    );
  });
}

export function printCheck(result: CheckResult): void {
  const verdict = result.passed ? 'passed' : 'FAILED';
  process.stdout.write(
    `\n── ${result.check.name}: ${result.check.command} — ${verdict} in ${result.seconds.toFixed(0)} s\n`,
  );
  process.stdout.write(result.output);
}
