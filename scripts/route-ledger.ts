import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { marketsContract, tournamentsContract } from '../contract/src/index.js';

/** Where the test servers append the routes they served (gitignored). */
export const LEDGER_DIR = fileURLToPath(new URL('../.route-ledger/', import.meta.url));

interface RouteLike {
  method: string;
  path: string;
}

function isRoute(value: unknown): value is RouteLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as RouteLike).method === 'string' &&
    typeof (value as RouteLike).path === 'string'
  );
}

function collect(host: string, router: unknown, into: string[]): string[] {
  for (const value of Object.values(router as Record<string, unknown>)) {
    if (isRoute(value)) into.push(`${host} ${value.method} ${value.path}`);
    else if (typeof value === 'object' && value !== null) collect(host, value, into);
  }
  return into;
}

/** Every route of both contracts as `<host> <METHOD> <path>`, the ledger's line format. */
export function contractRoutes(): string[] {
  return [...collect('markets', marketsContract, []), ...collect('tournaments', tournamentsContract, [])];
}

/** Every line the test servers recorded. */
export function recordedRoutes(dir = LEDGER_DIR): Set<string> {
  if (!existsSync(dir)) return new Set();
  return new Set(
    readdirSync(dir)
      .filter((f) => f.endsWith('.log'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
      .filter(Boolean),
  );
}
