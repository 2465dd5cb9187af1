import { CONNECTIONS, DURATION, measure, print, startTarget } from './harness.js';

/** A trivial authenticated route through the full stack vs bare node:http and bare Express. */
export async function kernelBench(): Promise<void> {
  const bare = await startTarget('./targets/bare.ts');
  const floor = await startTarget('./targets/bare-express.ts');
  const stack = await startTarget('./targets/stack.ts');
  try {
    const baseline = await measure('bare node:http', bare.info.url);
    const express = await measure('bare Express 4, no middleware', `${floor.info.url}/api/tournaments/health`);
    const full = await measure('full stack GET /api/tournaments/health', `${stack.info.url}/api/tournaments/health`, {
      'x-builder-api-key': stack.info.key ?? '',
    });
    console.log(`\nKernel: trivial authenticated route (${CONNECTIONS} connections, ${DURATION} s)`);
    print([baseline, express, full], baseline);
    console.log(
      `\nratio full/bare = ${(full.rps / baseline.rps).toFixed(2)} (target ≥ 0.35); full/Express floor = ${(full.rps / express.rps).toFixed(2)}`,
    );
  } finally {
    for (const t of [bare, floor, stack]) t.proc.kill();
  }
}
