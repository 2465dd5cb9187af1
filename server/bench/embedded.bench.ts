/**
 * `pnpm bench embedded`: what `pnpm start` costs with nothing configured (PGlite, the in-process
 * EVM with its contracts deployed, in-memory limits and caches). Builds the contract and the server, then starts
 * `node dist/main.js` BENCH_EMBEDDED_RUNS times (3) in each of three ways: the README's default
 * (a `.data` folder in the working directory) in an empty folder, the same again on the folder
 * the first start left (a restart), and `DUELKIT_DATA_DIR=:memory:`. For each: the time to the
 * `duelkit listening` line, the process's CPU time to it, and the resident memory then and after
 * BENCH_EMBEDDED_IDLE_S idle seconds (10). Targets: ready ≤ 5 s, RSS ≤ 450 MB.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cpuMs } from './harness.js';

const SERVER_DIR = fileURLToPath(new URL('../', import.meta.url));
const RUNS = Number(process.env['BENCH_EMBEDDED_RUNS'] ?? 3);
const IDLE_S = Number(process.env['BENCH_EMBEDDED_IDLE_S'] ?? 10);

export interface EmbeddedStart {
  readyMs: number;
  rssReadyMb: number;
  rssIdleMb: number;
  cpuToReadyMs: number;
  load: number;
}

/** Resident memory of a process, MB (Linux /proc; 0 elsewhere). */
function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Math.round(Number(kb) / 1024);
  } catch {
    return 0;
  }
}

/** How a start finds its database: the README's default in a new folder or an old one, or none kept. */
const MODES = ['first start', 'restart', ':memory:'] as const;
type Mode = (typeof MODES)[number];

async function startOnce(cwd: string, mode: Mode): Promise<EmbeddedStart> {
  const load = loadavg()[0] ?? 0;
  const started = performance.now();
  // Only what a fresh shell has: no DATABASE_URL, REDIS_URL or CHAIN_RPC_URL.
  const proc = spawn(process.execPath, [join(SERVER_DIR, 'dist', 'main.js')], {
    cwd,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? cwd,
      TMPDIR: tmpdir(),
      ...(mode === ':memory:' ? { DUELKIT_DATA_DIR: ':memory:' } : {}),
      PORT: '0',
      TOURNAMENTS_PORT: '0',
      OPERATOR_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pid = proc.pid as number;
  try {
    for await (const line of createInterface({ input: proc.stdout as NodeJS.ReadableStream })) {
      if (!line.includes('"duelkit listening"')) continue;
      const readyMs = performance.now() - started;
      const cpuToReadyMs = cpuMs(pid);
      const rssReadyMb = rssMb(pid);
      await new Promise((r) => setTimeout(r, IDLE_S * 1000));
      return { readyMs, rssReadyMb, rssIdleMb: rssMb(pid), cpuToReadyMs, load };
    }
    throw new Error('the server exited before it listened');
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => (proc.exitCode === null ? proc.once('exit', r) : r(null)));
  }
}

export interface EmbeddedRun extends EmbeddedStart {
  readonly mode: Mode;
}

export async function embeddedBench(): Promise<EmbeddedRun[]> {
  // The built server imports the contract's built `dist`.
  const build = spawnSync('pnpm', ['--filter', '@duelkit/contract', '--filter', '@duelkit/server', 'build'], {
    cwd: SERVER_DIR,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('pnpm build failed');
  const runs: EmbeddedRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    const cwd = mkdtempSync(join(tmpdir(), 'duelkit-bench-embedded-'));
    try {
      for (const mode of MODES) {
        runs.push({ mode, ...(await startOnce(cwd, mode)) });
      }
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }
  console.log(`\nEmbedded start: node dist/main.js with nothing configured (${RUNS} rounds)`);
  console.log(`\n| start | ready s | CPU to ready s | RSS at ready MB | RSS after ${IDLE_S} s idle MB | load avg |`);
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of runs) {
    console.log(
      `| ${r.mode} | ${(r.readyMs / 1000).toFixed(1)} | ${(r.cpuToReadyMs / 1000).toFixed(1)} | ${r.rssReadyMb} | ${r.rssIdleMb} | ${r.load.toFixed(1)} |`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  for (const mode of MODES) {
    const of = runs.filter((r) => r.mode === mode);
    const ready = median(of.map((r) => r.readyMs)) / 1000;
    const rss = median(of.map((r) => Math.max(r.rssReadyMb, r.rssIdleMb)));
    console.log(
      `| **${mode}, median** | **${ready.toFixed(1)}** (≤ 5) | | **${rss}** (≤ 450, the larger of the two) | | |`,
    );
  }
  return runs;
}
