/**
 * `pnpm bench embedded`: what `pnpm start` costs on the README's defaults (PGlite in memory, the
 * in-process EVM with its contracts deployed, in-memory limits and caches). Builds the server, then
 * starts `node dist/main.js` from an empty folder, as often as BENCH_EMBEDDED_RUNS says (3): the
 * time to the `duelkit listening` line, the resident memory then and after BENCH_EMBEDDED_IDLE_S
 * idle seconds (10), and the process's CPU time to ready. Targets: ready ≤ 5 s, RSS ≤ 450 MB.
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

async function startOnce(): Promise<EmbeddedStart> {
  const cwd = mkdtempSync(join(tmpdir(), 'duelkit-bench-embedded-'));
  const load = loadavg()[0] ?? 0;
  const started = performance.now();
  // Only what a fresh shell has: no DATABASE_URL, REDIS_URL or CHAIN_RPC_URL.
  const proc = spawn(process.execPath, [join(SERVER_DIR, 'dist', 'main.js')], {
    cwd,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? cwd,
      TMPDIR: tmpdir(),
      DUELKIT_DATA_DIR: ':memory:',
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
    rmSync(cwd, { recursive: true, force: true });
  }
}

export async function embeddedBench(): Promise<EmbeddedStart[]> {
  const build = spawnSync('pnpm', ['build'], { cwd: SERVER_DIR, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('pnpm build failed');
  const runs: EmbeddedStart[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await startOnce());
  console.log(`\nEmbedded start: node dist/main.js on the README's defaults, from an empty folder (${RUNS} runs)`);
  console.log(`\n| run | ready s | CPU to ready s | RSS at ready MB | RSS after ${IDLE_S} s idle MB | load avg |`);
  console.log('|---:|---:|---:|---:|---:|---:|');
  runs.forEach((r, i) =>
    console.log(
      `| ${i + 1} | ${(r.readyMs / 1000).toFixed(1)} | ${(r.cpuToReadyMs / 1000).toFixed(1)} | ${r.rssReadyMb} | ${r.rssIdleMb} | ${r.load.toFixed(1)} |`,
    ),
  );
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const ready = median(runs.map((r) => r.readyMs)) / 1000;
  const rss = median(runs.map((r) => Math.max(r.rssReadyMb, r.rssIdleMb)));
  console.log(
    `| **median** | **${ready.toFixed(1)}** (target ≤ 5) | | **${rss}** (target ≤ 450, the larger of the two) | | |`,
  );
  return runs;
}
