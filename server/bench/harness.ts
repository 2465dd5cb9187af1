import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const DURATION = Number(process.env['BENCH_SECONDS'] ?? 10);
export const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);

export interface Target {
  proc: ChildProcess;
  info: { url: string; key?: string; marketsUrl?: string };
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

export interface Measured {
  name: string;
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function measure(
  name: string,
  url: string,
  headers: Record<string, string> = {},
  request: { method?: string; body?: string; overallRate?: number } = {},
): Promise<Measured> {
  const options = { url, connections: CONNECTIONS, headers, ...request };
  await autocannon({ ...options, duration: 2 }); // warm-up
  const r = await autocannon({ ...options, duration: DURATION });
  return { name, rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}

export function print(rows: Measured[], baseline: Measured): void {
  console.log('\n| target | requests/s | p99 ms | non-2xx | errors | × baseline |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p99} | ${r.non2xx} | ${r.errors} | ${(r.rps / baseline.rps).toFixed(2)} |`,
    );
  }
}
