import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ChainAddresses } from '../../src/adapters/chain/chain.port.js';
import { builtServerFile } from './test-build.js';

/** What `chain-node.process.ts` announces: a dev chain node in its own process. */
export interface ChainNodeInfo {
  readonly rpcUrl: string;
  /** `POST /advance-time?seconds=N` moves the node's time forward (see chain-node.process.ts). */
  readonly controlUrl: string;
  readonly chainId: number;
  readonly addresses: ChainAddresses;
  readonly operatorKey: `0x${string}`;
}

/** What `server.process.ts` announces: a server in its own process and a builder key for it. */
export interface ServerProcessInfo {
  readonly marketsUrl: string;
  readonly tournamentsUrl: string | null;
  readonly builderKey: string;
  readonly embeddedRpcUrl: string | null;
  /** The port its operator surface bound, or null when it has none. */
  readonly operatorPort: number | null;
}

/** A helper process that printed one JSON line when it was ready. */
export interface Spawned<T> {
  readonly info: T;
  readonly proc: ChildProcess;
  /** What the process wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

/** `env` over this process's environment; a key set to undefined is removed. */
function launch(serverRelative: string, env: Record<string, string | undefined>): ChildProcess {
  const merged: Record<string, string> = {};
  // In memory unless a test names a data directory: `.data` in the server package is for people.
  for (const [k, v] of Object.entries({ ...process.env, DUELKIT_DATA_DIR: ':memory:', ...env })) {
    if (v !== undefined) merged[k] = v;
  }
  return spawn(process.execPath, [builtServerFile(serverRelative)], {
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function exited(proc: ChildProcess): Promise<number | null> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(proc.exitCode);
  return new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
}

/** Starts `file` (relative to test/support) and waits for its first JSON line on stdout. */
export async function spawnReady<T>(file: string, env: Record<string, string | undefined> = {}): Promise<Spawned<T>> {
  const proc = launch(`test/support/${file}`, env);
  let err = '';
  proc.stderr?.on('data', (c: Buffer) => {
    err += c.toString('utf8');
  });
  const lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
  let info: T | undefined;
  for await (const line of lines) {
    if (line.startsWith('{"ready":')) {
      info = (JSON.parse(line) as { ready: T }).ready;
      break;
    }
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  proc.stdout?.resume();
  if (info === undefined) throw new Error(`${file} exited before it was ready:\n${err}`);
  return {
    info,
    proc,
    stderr: () => err,
    async stop(graceMs = 10_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited(proc);
      clearTimeout(timer);
    },
  };
}

/** Runs `path` (relative to this repository's server/) to its exit; its code and output. */
export async function runToExit(
  path: string,
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = launch(path, env);
  let stdout = '';
  let stderr = '';
  proc.stdout?.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  proc.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  const code = await exited(proc);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Prints the ready line a parent waits for. */
/** Moves a chain node process's time forward by `seconds` and mines a block at it. */
export async function advanceNodeTime(node: ChainNodeInfo, seconds: number): Promise<void> {
  const res = await fetch(`${node.controlUrl}/advance-time?seconds=${seconds}`, { method: 'POST' });
  if (res.status !== 204) throw new Error(`advance-time answered ${res.status}: ${await res.text()}`);
}

export function announceReady(info: unknown): void {
  process.stdout.write(`${JSON.stringify({ ready: info })}\n`);
}
