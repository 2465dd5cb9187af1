import { readFileSync } from 'node:fs';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { marketsContract, tournamentsContract } from '@duelkit/contract';
import { describe, expect, it } from 'vitest';
import { DuelkitClient } from '../src/client.js';
import { API_OUTPUT, OUTPUT, renderGenerated } from './generate-namespaces.js';

describe('generated types', () => {
  it('match the contract (run `pnpm --filter @duelkit/sdk generate` after a contract change)', async () => {
    const generated = await renderGenerated();
    expect(readFileSync(API_OUTPUT, 'utf8')).toBe(generated.api);
    expect(readFileSync(OUTPUT, 'utf8')).toBe(generated.namespaces);
  });
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
        for (const [method, route] of Object.entries(router as Record<string, AppRoute | AppRouter>)) {
          if (!isAppRoute(route)) continue;
          routes += 1;
          expect(typeof client[name]?.[method], `${name}.${method}`).toBe('function');
        }
      }
    }
    expect(names.size).toBe(Object.keys(marketsContract).length + Object.keys(tournamentsContract).length);
    expect(names).toContain('tournamentsAuth');
    expect(routes).toBeGreaterThan(100);
  });
});
