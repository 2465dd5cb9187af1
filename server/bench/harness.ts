import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { wrk } from './wrk.js';

export const DURATION = Number(process.env['BENCH_SECONDS'] ?? 10);
export const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
/**
 * Load run before every measured row and not counted: a route's code runs unoptimised until V8 has
 * seen it often enough, and a server that has been up for minutes has long compiled it.
 */
export const WARMUP_SECONDS = Number(process.env['BENCH_WARMUP_SECONDS'] ?? 2);

export interface Target {
  proc: ChildProcess;
  info: { url: string; key?: string; marketsUrl?: string };
}

/**
 * Builds the server's `dist/` (a transpile, about a second): the full-stack targets of every
 * bench run the JavaScript production runs, not the source through tsx, whose transform adds work
 * to every function it creates (`__name`).
 */
export function buildServer(): void {
  const build = spawnSync('pnpm', ['--filter', '@duelkit/server', 'build'], {
    cwd: fileURLToPath(new URL('../', import.meta.url)),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('pnpm --filter @duelkit/server build failed');
}

/** Starts a bench target in its own process; it prints one JSON line when ready. */
export async function startTarget(file: string, env: Record<string, string> = {}): Promise<Target> {
  const proc = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF_DIR: each target writes a V8 CPU profile there when it exits.
      ...(process.env['BENCH_CPU_PROF_DIR']
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_CPU_PROF_DIR']}`]
        : []),
      '--import',
      'tsx',
      '--conditions=duelkit-source',
      fileURLToPath(new URL(file, import.meta.url)),
    ],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    if (line.startsWith('{')) return { proc, info: JSON.parse(line) as Target['info'] };
  }
  throw new Error(`${file} exited before it was ready`);
}

/** CPU time (user + system) a process has used so far, ms; Linux /proc (0 elsewhere). */
export function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

export interface Measured {
  name: string;
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
  /**
   * The target's CPU time per answered request, µs (0 when unknown): on a machine shared with
   * other work this moves far less than requests/s, so it is the steadier cost figure.
   */
  cpuUsPerRequest: number;
}

export interface MeasureOptions {
  method?: string;
  body?: string;
  overallRate?: number;
  /** Several paths of `url`'s origin, cycled through by every connection. */
  paths?: readonly string[];
  /** The process whose CPU time is counted per request. */
  target?: Target;
  /** Concurrent connections (default CONNECTIONS). */
  connections?: number;
  /** `wrk` (C, Debian's package) instead of autocannon; not with `overallRate`. */
  loadGenerator?: 'autocannon' | 'wrk';
}

export async function measure(
  name: string,
  url: string,
  headers: Record<string, string> = {},
  request: MeasureOptions = {},
): Promise<Measured> {
  const { paths, target, connections, loadGenerator, ...rest } = request;
  if (loadGenerator === 'wrk') {
    if (rest.overallRate !== undefined) throw new Error('wrk runs closed-loop: no overallRate');
    const options = {
      connections: connections ?? CONNECTIONS,
      headers,
      ...(rest.method ? { method: rest.method } : {}),
      ...(rest.body !== undefined ? { body: rest.body } : {}),
      ...(paths ? { paths } : {}),
    };
    await wrk(url, { ...options, seconds: WARMUP_SECONDS });
    const cpuBefore = cpuMs(target?.proc.pid);
    const r = await wrk(url, { ...options, seconds: DURATION });
    const cpu = cpuMs(target?.proc.pid) - cpuBefore;
    return {
      name,
      rps: r.requests / r.seconds,
      p99: Math.round(r.p99 / 100) / 10,
      non2xx: r.non2xx,
      errors: r.errors,
      cpuUsPerRequest: target && r.requests > 0 ? (cpu * 1000) / r.requests : 0,
    };
  }
  const options = {
    url,
    connections: connections ?? CONNECTIONS,
    headers,
    ...rest,
    ...(paths ? { requests: paths.map((path) => ({ path })) } : {}),
  };
  await autocannon({ ...options, duration: WARMUP_SECONDS });
  const cpuBefore = cpuMs(target?.proc.pid);
  const r = await autocannon({ ...options, duration: DURATION });
  const cpu = cpuMs(target?.proc.pid) - cpuBefore;
  return {
    name,
    rps: r.requests.average,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    cpuUsPerRequest: target && r.requests.total > 0 ? (cpu * 1000) / r.requests.total : 0,
  };
}

export function print(rows: Measured[], baseline: Measured): void {
  console.log('\n| target | requests/s | p99 ms | non-2xx | errors | × baseline | server CPU µs/request |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const cpu = r.cpuUsPerRequest > 0 ? r.cpuUsPerRequest.toFixed(0) : '–';
    console.log(
      `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p99} | ${r.non2xx} | ${r.errors} | ${(r.rps / baseline.rps).toFixed(2)} | ${cpu} |`,
    );
  }
}
