/**
 * The performance targets, judged on the figures of one `pnpm bench` run (docs/performance.md):
 * one line each with what was measured and whether it met its target.
 */
import type { EmbeddedRun } from './embedded.bench.js';
import type { Measured } from './harness.js';
import type { TradingRow } from './markets.bench.js';
import type { TopologyResult } from './topology.bench.js';

export interface RunFigures {
  readonly kernel: { readonly express: Measured; readonly full: Measured };
  readonly lists: {
    readonly oneUrl: { readonly naive: Measured; readonly duelkit: Measured };
    readonly mix: { readonly naive: Measured; readonly duelkit: Measured };
  };
  readonly trading: readonly TradingRow[];
  /** The topology rows, or why they did not run. */
  readonly topology: TopologyResult | string;
  readonly embedded: readonly EmbeddedRun[];
}

export interface TargetLine {
  readonly target: string;
  readonly measured: string;
  /** null: not measured in this run. */
  readonly met: boolean | null;
}

const times = (a: Measured, b: Measured) => a.rps / b.rps;
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Every target against the run's figures. */
export function judge(run: RunFigures): TargetLine[] {
  const lines: TargetLine[] = [];
  const kernel = times(run.kernel.full, run.kernel.express);
  lines.push({
    target: 'kernel: full stack ≥ 0.6× the bare Express floor',
    measured: `${kernel.toFixed(2)}×`,
    met: kernel >= 0.6,
  });
  for (const [name, pair, floor] of [
    ['one URL', run.lists.oneUrl, 5],
    ['240-URL mix', run.lists.mix, 3],
  ] as const) {
    const ratio = times(pair.duelkit, pair.naive);
    lines.push({
      target: `list, ${name}: ≥ ${floor}× the naive design, p99 ≤ 25 ms`,
      measured: `${ratio.toFixed(2)}×, p99 ${pair.duelkit.p99} ms`,
      met: ratio >= floor && pair.duelkit.p99 <= 25,
    });
  }
  // Production's shape: the server reaches a chain node in its own process.
  const node = run.trading.find((r) => r.chainCpuMsPerBet !== undefined);
  lines.push({
    target: 'trading: ≤ 4 ms of server CPU per accepted bet (chain node row)',
    measured: node
      ? `${node.serverCpuMsPerBet.toFixed(2)} ms at ${node.acceptedPerSecond.toFixed(0)} bets/s`
      : 'not run',
    met: node ? node.serverCpuMsPerBet <= 4 : null,
  });
  if (typeof run.topology === 'string') {
    lines.push({ target: 'topology: two replicas ≥ 1.4× one', measured: `not run: ${run.topology}`, met: null });
  } else {
    const ratio = times(run.topology.double, run.topology.single);
    lines.push({ target: 'topology: two replicas ≥ 1.4× one', measured: `${ratio.toFixed(2)}×`, met: ratio >= 1.4 });
  }
  const first = run.embedded.filter((r) => r.mode === 'first start');
  const ready = median(first.map((r) => r.readyMs)) / 1000;
  const rss = median(first.map((r) => Math.max(r.rssReadyMb, r.rssIdleMb)));
  lines.push({
    target: "embedded start (README's defaults): ready ≤ 5 s, RSS ≤ 450 MB",
    measured: first.length ? `${ready.toFixed(1)} s, ${rss} MB (median)` : 'not run',
    met: first.length ? ready <= 5 && rss <= 450 : null,
  });
  return lines;
}

export function printTargets(lines: readonly TargetLine[]): void {
  console.log('\n## Targets, this run\n');
  console.log('| target | measured | met |');
  console.log('|---|---|---|');
  for (const l of lines) {
    console.log(`| ${l.target} | ${l.measured} | ${l.met === null ? '–' : l.met ? 'yes' : '**no**'} |`);
  }
}
