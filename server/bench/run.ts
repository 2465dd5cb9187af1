/**
 * `pnpm bench`: each target runs in its own process; autocannon drives it from this one.
 * Prints requests/s and p99 latency next to a bare baseline measured in the same run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const DURATION = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);

interface Target {
  proc: ChildProcess;
  info: { url: string; key?: string; marketsUrl?: string };
}

export async function startTarget(file: string, env: Record<string, string> = {}): Promise<Target> {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--conditions=duelkit-source', fileURLToPath(new URL(file, import.meta.url))], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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

export async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<Measured> {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers }); // warm-up
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
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

async function kernelBench(): Promise<void> {
  const bare = await startTarget('./targets/bare.ts');
  const floor = await startTarget('./targets/bare-express.ts');
  const stack = await startTarget('./targets/stack.ts');
  try {
    const baseline = await measure('bare node:http', bare.info.url);
    const express = await measure('bare Express 4, no middleware', `${floor.info.url}/api/tournaments/health`);
    const full = await measure('full stack GET /api/tournaments/health', `${stack.info.url}/api/tournaments/health`, {
      'x-builder-api-key': stack.info.key ?? '',
    });
    console.log(`\nKernel: trivial authenticated route vs bare node:http (${CONNECTIONS} connections, ${DURATION} s)`);
    print([baseline, express, full], baseline);
    console.log(`\nratio full/bare = ${(full.rps / baseline.rps).toFixed(2)} (target ≥ 0.35); full/Express floor = ${(full.rps / express.rps).toFixed(2)}`);
  } finally {
    for (const t of [bare, floor, stack]) t.proc.kill();
  }
}

await kernelBench();
