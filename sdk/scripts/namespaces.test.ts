import { readFileSync } from 'node:fs';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { marketsContract, tournamentsContract } from '@duelkit/contract';
import { describe, expect, it } from 'vitest';
import { DuelkitClient } from '../src/client.js';
import { API_OUTPUT, DOCS, OUTPUT, PARITY_OUTPUT, renderGenerated, withDocsTable } from './generate-namespaces.js';

describe('generated types', () => {
  it('match the contract (run `pnpm --filter @duelkit/sdk generate` after a contract change)', async () => {
    const generated = await renderGenerated();
    expect(readFileSync(API_OUTPUT, 'utf8')).toBe(generated.api);
    expect(readFileSync(OUTPUT, 'utf8')).toBe(generated.namespaces);
    // The type-level parity of the plain types with the contract is `pnpm typecheck`'s part.
    expect(readFileSync(PARITY_OUTPUT, 'utf8')).toBe(generated.parity);
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
