/**
 * `pnpm bench [suite…]`: each target runs in its own process and autocannon drives it from this
 * one; every figure is printed next to a baseline measured in the same run. With no suite: every
 * suite a target is set for (kernel, lists, trading, topology, embedded start), the kernel and
 * list rows summarised side by side, then each target judged on this run's figures.
 */
import { embeddedBench } from './embedded.bench.js';
import { CONNECTIONS, DURATION, type Measured } from './harness.js';
import { kernelBench } from './kernel.bench.js';
import { listBench, marketsBench, tradingBench } from './markets.bench.js';
import { sportsBench } from './sports.bench.js';
import { judge, printTargets } from './targets.js';
import { topologyBench, topologyMissing } from './topology.bench.js';

const suites: Record<string, () => Promise<unknown>> = {
  kernel: kernelBench,
  lists: listBench,
  sports: sportsBench,
  markets: marketsBench,
  trading: tradingBench,
  topology: topologyBench,
  embedded: embeddedBench,
};

const ratio = (a: Measured, b: Measured) => (a.rps / b.rps).toFixed(2);
const rps = (m: Measured) => m.rps.toFixed(0);

async function summary(): Promise<void> {
  const kernel = await kernelBench();
  const lists = await listBench();
  const trading = await tradingBench();
  const missing = topologyMissing();
  const topology = missing ?? (await topologyBench());
  const embedded = await embeddedBench();
  console.log(
    `\n## Summary (${DURATION} s per row; kernel ${CONNECTIONS} connections, lists ${process.env['BENCH_LIST_CONNECTIONS'] ?? 32})`,
  );
  console.log('\n| kernel: trivial authenticated route | req/s | p99 ms | CPU µs/req |');
  console.log('|---|---:|---:|---:|');
  for (const [name, m] of [
    ['bare node:http', kernel.bare],
    ['bare Express 4', kernel.express],
    ['full stack', kernel.full],
  ] as const) {
    console.log(`| ${name} | ${rps(m)} | ${m.p99} | ${m.cpuUsPerRequest.toFixed(0)} |`);
  }
  console.log(
    `| **full stack / Express floor** | **${ratio(kernel.full, kernel.express)}×** (target ≥ 0.6) | | CPU ${(kernel.express.cpuUsPerRequest / kernel.full.cpuUsPerRequest).toFixed(2)}× |`,
  );
  console.log(
    '\n| list: GET /svc/public/duels/all | naive req/s | Duelkit req/s | ratio | Duelkit p99 ms | naive p99 ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  console.log(
    `| one URL (page 3) | ${rps(lists.oneUrl.naive)} | ${rps(lists.oneUrl.duelkit)} | **${ratio(lists.oneUrl.duelkit, lists.oneUrl.naive)}×** (target ≥ 5) | ${lists.oneUrl.duelkit.p99} | ${lists.oneUrl.naive.p99} |`,
  );
  console.log(
    `| 240-URL mix | ${rps(lists.mix.naive)} | ${rps(lists.mix.duelkit)} | **${ratio(lists.mix.duelkit, lists.mix.naive)}×** (target ≥ 3) | ${lists.mix.duelkit.p99} | ${lists.mix.naive.p99} |`,
  );
  printTargets(judge({ kernel, lists, trading, topology, embedded }));
}

// With no suite: every suite with a target, and the targets judged. `sports` and `markets` run only
// when asked for.
const wanted = process.argv.slice(2).filter((a) => a in suites);
if (wanted.length === 0) await summary();
for (const name of wanted) await (suites[name] as () => Promise<unknown>)();
process.exit(0);
