import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript source (the `duelkit-source` export condition);
// the rest are Vite's default server conditions, which setting the list replaces.
const conditions = ['duelkit-source', 'module', 'node', 'development|production'];
const resolve = { conditions };
// Externalised dependencies are loaded by Node itself, so only Node-compatible conditions apply.
const ssr = { resolve: { conditions, externalConditions: ['duelkit-source', 'node'] } };

export default defineConfig({
  resolve,
  ssr,
  test: {
    // On a 2-core machine Vitest would default to one worker. The integration and e2e files mostly
    // wait on PostgreSQL, the chain and child processes: with two workers the run used 1.1 cores on
    // average, with four 1.6, and the whole run took 300 s instead of 415 s. Four still passed every
    // test with one of the two cores kept busy by another process (390 s).
    maxWorkers: 4,
    // As many kept as allowed: on 2 cores the pool would keep one and retire a worker the moment it
    // goes idle, without waiting for its teardown. One run with three workers and one kept failed
    // that way between two projects ("Terminating worker thread"), after every test had passed.
    minWorkers: 4,
    // Test files share their worker's module cache (the projects run one after another, their
    // workers recycled in between): the server's source is loaded once per worker, not per file.
    // Vitest takes this from the root only; a project's own `isolate` is not read.
    isolate: false,
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
    projects: [
      {
        resolve,
        ssr,
        test: {
          name: 'unit',
          include: ['{contract,server,sdk,examples,e2e,scripts}/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**', '**/*.int.test.ts', '**/*.e2e.test.ts'],
          environment: 'node',
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'integration',
          // Each file builds its own server, database and chain; only the imported modules are shared.
          include: ['{contract,server,sdk,examples,e2e}/**/*.int.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          environment: 'node',
          globalSetup: ['./server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'e2e',
          include: ['{contract,server,sdk,examples,e2e}/**/*.e2e.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          environment: 'node',
          globalSetup: ['./server/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
