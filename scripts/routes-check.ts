/**
 * The route-hit ledger check: fails, listing them, when a contract route was not called over HTTP
 * by any test of the last ledger run (`pnpm test` runs the tests with the ledger on, then this).
 *
 *   pnpm routes:check
 */
import { LEDGER_DIR, contractRoutes, recordedRoutes } from './route-ledger.js';

const routes = contractRoutes();
const recorded = recordedRoutes();
if (recorded.size === 0) {
  console.error(`routes:check: no route ledger in ${LEDGER_DIR}; run \`pnpm test\` (it records one) first.`);
  process.exit(1);
}
const missing = routes.filter((r) => !recorded.has(r));
if (missing.length) {
  console.error(`routes:check: ${missing.length} of ${routes.length} contract routes have no HTTP test:`);
  for (const r of missing) console.error(`  ${r}`);
  process.exit(1);
}
console.log(`routes:check: all ${routes.length} contract routes are called over HTTP by a test.`);
