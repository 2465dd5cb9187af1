import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppRoute } from '@ts-rest/core';
import type { RequestHandler, Request } from 'express';

/**
 * Records each contract route this process serves over HTTP, once per route, as a
 * `<host> <METHOD> <path>` line in `<dir>/<pid>.log`. Test runs set the directory
 * (DUELKIT_ROUTE_LEDGER) and `pnpm routes:check` then fails for any contract route no test called.
 * Without a directory the middleware is not installed at all.
 */
export function routeLedger(dir: string, host: string): RequestHandler {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.log`);
  const seen = new Set<string>();
  return (req, _res, next) => {
    const route = (req as Request & { tsRestRoute?: AppRoute }).tsRestRoute;
    if (route) {
      const line = `${host} ${route.method} ${route.path}`;
      if (!seen.has(line)) {
        seen.add(line);
        appendFileSync(file, `${line}\n`);
      }
    }
    next();
  };
}
