import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { marketsContract, routeMeta, tournamentsContract } from '../src/index.js';

export interface SpecEndpoint {
  host: 'markets' | 'tournaments';
  method: string;
  path: string;
  auth: string;
  success: number;
  section: string;
}

const here = dirname(fileURLToPath(import.meta.url));
/** The spec's endpoint list, vendored so the package checks itself without shared/ beside it. */
export const vendoredSpecFile = resolve(here, '../spec/endpoints.tsv');
/** The upstream list in shared/, when the checkout has it beside it. */
export const sharedSpecFile = resolve(here, '../../../shared/spec/endpoints.tsv');
const specFile = vendoredSpecFile;

export function readSpec(file = specFile): SpecEndpoint[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [host, method, path, auth, success, section] = line.split('\t');
      return {
        host: host as SpecEndpoint['host'],
        method: method as string,
        path: path as string,
        auth: auth as string,
        success: Number(success),
        section: section as string,
      };
    });
}

/** Method, host and path with every parameter name replaced, so `{id}`, `{param}` and `:duelId` match. */
export function routeKey(host: string, method: string, path: string): string {
  const normal = path.replace(/\{[^}]+\}/g, '{}').replace(/:[A-Za-z0-9_]+/g, '{}');
  return `${host} ${method.toUpperCase()} ${normal}`;
}

export function contractRoutes(): { host: SpecEndpoint['host']; route: AppRoute }[] {
  const out: { host: SpecEndpoint['host']; route: AppRoute }[] = [];
  const visit = (host: SpecEndpoint['host'], r: AppRouter | AppRoute) => {
    if (isAppRoute(r)) out.push({ host, route: r });
    else for (const child of Object.values(r)) visit(host, child);
  };
  visit('markets', marketsContract);
  visit('tournaments', tournamentsContract);
  return out;
}

export function coverage() {
  const spec = readSpec();
  const specKeys = new Map(spec.map((e) => [routeKey(e.host, e.method, e.path), e]));
  const routes = contractRoutes();
  const implemented = new Set<string>();
  const extra: string[] = [];
  const extensions: string[] = [];
  for (const { host, route } of routes) {
    const key = routeKey(host, route.method, route.path);
    if (specKeys.has(key)) implemented.add(key);
    else if (routeMeta(route).extension) extensions.push(key);
    else extra.push(key);
  }
  return {
    total: spec.length,
    covered: implemented.size,
    extra,
    /** Documented extensions (`meta(..., { extension: true })`): routes a spec route needs that the list lacks. */
    extensions,
    missing: [...specKeys.keys()].filter((k) => !implemented.has(k)),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const result = coverage();
  console.log(`${result.covered}/${result.total} endpoints in contract`);
  if (result.extensions.length) console.log(`${result.extensions.length} documented extension routes`);
  if (process.argv.includes('--missing')) for (const m of result.missing) console.log(`  missing: ${m}`);
  if (result.extra.length) {
    console.error(`routes not in the spec:\n${result.extra.map((e) => `  ${e}`).join('\n')}`);
    process.exitCode = 1;
  }
}
