/**
 * `pnpm build` (server): the production build in `dist/`, file for file from `src/` (see
 * transpile.ts), with the OpenAPI documents and the guides the server serves. Types are checked by
 * `pnpm typecheck`, not here. Workspace packages resolve to their own built `dist` at run time.
 */
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prepareClusterCopy } from '../src/platform/db/embedded-postgres.js';
import { transpile } from './transpile.js';

const server = fileURLToPath(new URL('../', import.meta.url));
const docs = fileURLToPath(new URL('../../docs/', import.meta.url));
const dist = `${server}dist`;

/** Not shipped: tests, their kits, and the Solidity compiler's driver (`pnpm contracts:build`). */
const NOT_SHIPPED = (path: string): boolean =>
  path.endsWith('.test.ts') || path.endsWith('.test-kit.ts') || path === 'adapters/chain/compile.ts';

const started = Date.now();
rmSync(dist, { recursive: true, force: true });
const count = await transpile({ from: `${server}src`, to: dist, skip: NOT_SHIPPED });
cpSync(`${docs}openapi`, `${dist}/openapi`, { recursive: true });
cpSync(docs, `${dist}/guides`, { recursive: true, filter: (f) => !f.includes('openapi') });
console.log(`built ${count} modules into dist/ in ${Date.now() - started} ms`);
// The embedded database's first start on this machine then skips initdb (docs/deployment.md).
const copy = await prepareClusterCopy();
console.log(`embedded database: empty cluster copy ${copy.outcome} (${copy.path})`);
