import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files the closing lines name. */
const SLOWEST = 20;

/**
 * Prints plain closing lines that CI logs can read: each project's file count and summed time, the
 * slowest files (collect + tests and hooks), and `Tests: N passed, N failed, N skipped`.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const timed: { file: string; project: string; collect: number; run: number }[] = [];
    for (const mod of testModules) {
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed += 1;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      const diagnostic = mod.diagnostic();
      timed.push({
        file: relative(process.cwd(), mod.moduleId),
        project: mod.project.name,
        collect: diagnostic.collectDuration,
        run: diagnostic.duration,
      });
    }
    const lines: string[] = [''];
    const projects = [...new Set(timed.map((t) => t.project))];
    for (const project of projects) {
      const files = timed.filter((t) => t.project === project);
      const sum = files.reduce((s, t) => s + t.collect + t.run, 0);
      lines.push(`Project ${project}: ${files.length} files, ${seconds(sum)} summed`);
    }
    lines.push(`Slowest ${Math.min(SLOWEST, timed.length)} files (collect + run):`);
    for (const t of [...timed].sort((a, b) => b.collect + b.run - (a.collect + a.run)).slice(0, SLOWEST)) {
      lines.push(`  ${seconds(t.collect + t.run).padStart(7)}  ${t.file} (collect ${seconds(t.collect)})`);
    }
    lines.push(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
