import { marketsContract, tournamentsContract } from '@duelkit/contract';
import type { AppRouter } from '@ts-rest/core';

export type Host = 'markets' | 'tournaments';

export interface NamespaceEntry {
  /** The client property. */
  readonly name: string;
  readonly host: Host;
  /** The router's key in its host's contract. */
  readonly key: string;
  readonly router: AppRouter;
}

/**
 * Every namespace of the client, one per router of the two host contracts, in contract order:
 * named after the router's key, prefixed with `tournaments` when the markets host already has
 * that key (`tournamentsAuth`). The client binds these and the generated types name the same.
 */
export function namespaces(): NamespaceEntry[] {
  const markets = Object.entries(marketsContract as AppRouter);
  const taken = new Set(markets.map(([key]) => key));
  const tournaments = Object.entries(tournamentsContract as AppRouter);
  return [
    ...markets.map(([key, router]) => ({ name: key, host: 'markets' as const, key, router: router as AppRouter })),
    ...tournaments.map(([key, router]) => ({
      name: taken.has(key) ? `tournaments${key.charAt(0).toUpperCase()}${key.slice(1)}` : key,
      host: 'tournaments' as const,
      key,
      router: router as AppRouter,
    })),
  ];
}
