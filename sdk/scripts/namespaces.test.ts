import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { marketsContract, tournamentsContract } from '@duelkit/contract';
import { describe, expect, it } from 'vitest';
import { DuelkitClient } from '../src/client.js';
import { namespaces } from '../src/internal/namespaces.js';
import { API_OUTPUT, DOCS, OUTPUT, renderGenerated, withDocsTable } from './generate-namespaces.js';

describe('generated types', () => {
  it('match the contract (run `pnpm --filter @duelkit/sdk generate` after a contract change)', async () => {
    const generated = await renderGenerated();
    expect(readFileSync(API_OUTPUT, 'utf8')).toBe(generated.api);
    expect(readFileSync(OUTPUT, 'utf8')).toBe(generated.namespaces);
    const page = readFileSync(DOCS, 'utf8');
    expect(page, 'the namespace table of docs/sdk.md').toBe(withDocsTable(page, generated.docsTable));
    // Rendering runs Prettier over the whole API: about a second alone, several under load.
  }, 60_000);
});

describe('DuelkitClient namespaces', () => {
  it('bind every route of both contracts, a tournaments router clashing with a markets one prefixed', () => {
    const client = new DuelkitClient({ builderApiKey: 'dk_test' }) as unknown as Record<
      string,
      Record<string, unknown>
    >;
    const names = new Set<string>();
    let routes = 0;
    for (const [host, contract] of [
      ['markets', marketsContract],
      ['tournaments', tournamentsContract],
    ] as const) {
      for (const [key, router] of Object.entries(contract)) {
        const clash = host === 'tournaments' && key in marketsContract;
        const name = clash ? `tournaments${key.charAt(0).toUpperCase()}${key.slice(1)}` : key;
        names.add(name);
        // A router mounted in a router is a namespace of its own: `client.tournaments.play.get`.
        const visit = (ns: Record<string, unknown> | undefined, path: string, r: AppRouter): void => {
          for (const [method, route] of Object.entries(r as Record<string, AppRoute | AppRouter>)) {
            if (!isAppRoute(route)) {
              visit(ns?.[method] as Record<string, unknown> | undefined, `${path}.${method}`, route);
              continue;
            }
            routes += 1;
            expect(typeof ns?.[method], `${path}.${method}`).toBe('function');
          }
        };
        visit(client[name], name, router as AppRouter);
      }
    }
    expect(names.size).toBe(Object.keys(marketsContract).length + Object.keys(tournamentsContract).length);
    expect(names).toContain('tournamentsAuth');
    expect(routes).toBeGreaterThan(100);
  });

  it('split the tournaments routes by resource, with no flat method left on `client.tournaments`', () => {
    const client = new DuelkitClient({ builderApiKey: 'dk_test' });
    expect(Object.keys(client.tournaments).sort()).toEqual(
      ['admin', 'cancellation', 'catalog', 'disputes', 'f1', 'payouts', 'play'].sort(),
    );
    for (const group of Object.values(client.tournaments)) expect(typeof group).toBe('object');
    expect(typeof client.tournaments.play.enter).toBe('function');
    expect(typeof client.tournaments.admin.setRoot).toBe('function');
    expect(typeof client.tournaments.cancellation.refundProof).toBe('function');
  });
});

/** Every route of a router with the generated type name prefix and the indexed-access path of its contract type. */
function routesOf(router: AppRouter, name: string, path: string): { name: string; path: string; route: AppRoute }[] {
  return Object.entries(router).flatMap(([key, entry]) => {
    const next = { name: `${name}${key.charAt(0).toUpperCase()}${key.slice(1)}`, path: `${path}['${key}']` };
    return isAppRoute(entry) ? [{ ...next, route: entry }] : routesOf(entry, next.name, next.path);
  });
}

describe('generated plain types', () => {
  it('are the types the contract infers: what a route takes is accepted by it, what it answers is the same type', () => {
    const routes = namespaces().flatMap((e) =>
      routesOf(
        e.router,
        `${e.name.charAt(0).toUpperCase()}${e.name.slice(1)}`,
        `${e.host === 'markets' ? 'Markets' : 'Tournaments'}['${e.key}']`,
      ),
    );
    const api = readFileSync(API_OUTPUT, 'utf8');
    const lines = [
      "import type { marketsContract, tournamentsContract } from '@duelkit/contract';",
      "import type * as Api from '../src/api.generated.js';",
      "import type { RouteInput, RouteOutput } from '../src/internal/route-types.js';",
      'type Markets = typeof marketsContract;',
      'type Tournaments = typeof tournamentsContract;',
      'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
      // An input may be narrower than the inferred one (a query number zod types as unknown), never wider.
      'type Within<A, B> = [A] extends [B] ? true : false;',
    ];
    for (const r of routes) {
      if (api.includes(`export interface ${r.name}Input `)) {
        lines.push(`export const ${r.name}Input: Within<Api.${r.name}Input, RouteInput<${r.path}>> = true;`);
      }
      lines.push(`export const ${r.name}Output: Same<RouteOutput<${r.path}>, Api.${r.name}Output> = true;`);
    }
    const dir = dirname(fileURLToPath(import.meta.url));
    const file = join(dir, 'types-parity.virtual.ts');
    const config = ts.getParsedCommandLineOfConfigFile(
      join(dir, '../tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    )!;
    const host = ts.createCompilerHost(config.options);
    const text = lines.join('\n');
    const real = {
      getSourceFile: host.getSourceFile.bind(host),
      fileExists: host.fileExists.bind(host),
      readFile: host.readFile.bind(host),
    };
    host.getSourceFile = (name, version, ...rest) =>
      name === file ? ts.createSourceFile(name, text, version) : real.getSourceFile(name, version, ...rest);
    host.fileExists = (name) => name === file || real.fileExists(name);
    host.readFile = (name) => (name === file ? text : real.readFile(name));
    const program = ts.createProgram([file], { ...config.options, noEmit: true }, host);
    const errors = program.getSemanticDiagnostics(program.getSourceFile(file)).map((d) => {
      const line = d.start === undefined ? '' : (lines[d.file!.getLineAndCharacterOfPosition(d.start).line] ?? '');
      return `${/const (\w+)/.exec(line)?.[1]}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 300)}`;
    });
    expect(errors).toEqual([]);
    expect(routes.length).toBeGreaterThan(100);
  }, 120_000);
});
