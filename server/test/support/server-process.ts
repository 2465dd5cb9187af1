import { spawn, type ChildProcess } from 'node:child_process';

import { fileURLToPath } from 'node:url';
import { builtServerFile } from './test-build.js';

/** The server package directory, where `pnpm start` runs. */
export const SERVER_DIR = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly marketsUrl: string;
  readonly tournamentsUrl: string;
  /** Every log line (stdout and stderr) so far. */
  readonly lines: string[];
  /** The port its operator surface bound (OPERATOR_PORT=0 takes any), or undefined when it has none. */
  readonly operatorPort: number | undefined;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The variables a child needs to run, without the test runner's own (NODE_ENV, VITEST, …). */
function baseEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'XDG_RUNTIME_DIR', 'LANG', 'DUELKIT_ROUTE_LEDGER'];
  return Object.fromEntries(keep.flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])));
}

/** Runs `args` with node in the server package and collects its output line by line. */
export function spawnNode(
  args: string[],
  env: Record<string, string>,
  cwd = SERVER_DIR,
): { child: ChildProcess; lines: string[] } {
  // In memory unless a test names a data directory: `.data` in the server package is for people.
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...baseEnv(), DUELKIT_DATA_DIR: ':memory:', ...env },
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts.filter(Boolean));
    });
  }
  return { child, lines };
}

/**
 * Starts a real server process (from source, or `entry` such as the built `dist/main.js`) and
 * waits until it listens. Ports default to 0 (any free port); the URLs come from its log line.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { entry?: string[]; timeoutMs?: number; cwd?: string } = {},
): Promise<ServerProcess> {
  const entry = options.entry ?? [builtServerFile('src/main.ts')];
  const { child, lines } = spawnNode(
    entry,
    {
      PORT: '0',
      TOURNAMENTS_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      CHAIN_EMBEDDED_RPC_PORT: '0',
      OPERATOR_PORT: 'off',
      ...env,
    },
    options.cwd,
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (;;) {
    const logged = lines.map((l) => {
      try {
        return JSON.parse(l) as { msg?: string; marketsUrl?: string; tournamentsUrl?: string; port?: number };
      } catch {
        return null;
      }
    });
    const listening = logged.find((l) => l?.msg === 'duelkit listening');
    if (listening) {
      return {
        child,
        marketsUrl: listening.marketsUrl ?? '',
        tournamentsUrl: listening.tournamentsUrl ?? '',
        lines,
        // Logged before `duelkit listening`, so it is known by now.
        operatorPort: logged.find((l) => l?.msg === 'operator surface on loopback')?.port,
        exited,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server process did not start (exit ${child.exitCode}):\n${lines.slice(-30).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A loopback port that was free a moment ago (for settings that need a known port, like OPERATOR_PORT). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs one operator command (`src/cli/<name>.ts`) to completion. */
export async function runCli(
  name: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [builtServerFile(`src/cli/${name}.ts`), ...args], {
    cwd: SERVER_DIR,
    env: { ...baseEnv(), LOG_LEVEL: 'silent', DUELKIT_DATA_DIR: ':memory:', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { code, stdout, stderr };
}
