import { buildServer, CONNECTIONS, DURATION, measure, print, startTarget, type Measured } from './harness.js';

/** A trivial authenticated route through the full stack vs bare node:http and bare Express. */
export interface KernelRows {
  bare: Measured;
  express: Measured;
  full: Measured;
}

export async function kernelBench(): Promise<KernelRows> {
  buildServer();
  const bare = await startTarget('./targets/bare.ts');
  const floor = await startTarget('./targets/bare-express.ts');
  const stack = await startTarget('./targets/stack.ts');
  try {
    const baseline = await measure('bare node:http', bare.info.url, {}, { target: bare });
    const express = await measure(
      'bare Express 4, no middleware',
      `${floor.info.url}/api/tournaments/health`,
      {},
      { target: floor },
    );
    const full = await measure(
      'full stack GET /api/tournaments/health',
      `${stack.info.url}/api/tournaments/health`,
      { 'x-builder-api-key': stack.info.key ?? '' },
      { target: stack },
    );
    console.log(`\nKernel: trivial authenticated route (${CONNECTIONS} connections, ${DURATION} s)`);
    print([baseline, express, full], baseline);
    console.log(
      `\nratio full/Express floor = ${(full.rps / express.rps).toFixed(2)} (target ≥ 0.6); full/bare = ${(full.rps / baseline.rps).toFixed(2)}`,
    );
    return { bare: baseline, express, full };
  } finally {
    for (const t of [bare, floor, stack]) t.proc.kill();
  }
}
