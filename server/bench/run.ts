/**
 * `pnpm bench [suite…]`: each target runs in its own process and autocannon drives it from this
 * one; every figure is printed next to a baseline measured in the same run.
 */
import { kernelBench } from './kernel.bench.js';
import { marketsBench, tradingBench } from './markets.bench.js';
import { sportsBench } from './sports.bench.js';
import { topologyBench } from './topology.bench.js';

const suites: Record<string, () => Promise<void>> = {
  kernel: kernelBench,
  sports: sportsBench,
  markets: marketsBench,
  trading: tradingBench,
  topology: topologyBench,
};
const wanted = process.argv.slice(2).filter((a) => a in suites);
// `trading` is part of `markets`; alone it skips the list benches. `topology` (HAProxy and two
// replicas) runs only when asked for.
for (const name of wanted.length ? wanted : ['kernel', 'sports', 'markets']) {
  await (suites[name] as () => Promise<void>)();
}
process.exit(0);
