/**
 * Runs a command (the test runner) with the route-hit ledger on: every test server records the
 * contract routes it serves over HTTP into `.route-ledger/`, emptied first, which
 * `pnpm routes:check` then compares with the contract.
 *
 *   tsx scripts/run-with-route-ledger.ts vitest run
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { LEDGER_DIR } from './route-ledger.js';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: tsx scripts/run-with-route-ledger.ts <command> [args…]');
  process.exit(2);
}
rmSync(LEDGER_DIR, { recursive: true, force: true });
const result = spawnSync(command, args, {
  stdio: 'inherit',
  shell: process.platform === 'win32',
  env: { ...process.env, DUELKIT_ROUTE_LEDGER: LEDGER_DIR },
});
process.exit(result.status ?? 1);
