import { initServer } from '@ts-rest/express';
import { getAddress } from 'viem';
import { tournamentsContract } from '@duelkit/contract';
import { DomainError } from '../../errors.js';

const s = initServer();

/** §4.17 tournaments-host auth. */
export function tournamentsAuthRoutes() {
  return s.router(tournamentsContract.auth, {
    check: async ({ req }) => {
      const p = req.principal;
      return {
        status: 200,
        body:
          p?.kind === 'user'
            ? { authenticated: true, address: getAddress(p.address), method: 'jwt' as const }
            : { authenticated: false },
      };
    },
    login: async ({ req }) => {
      const p = req.principal;
      if (p?.kind !== 'user' && p?.kind !== 'wallet')
        throw new DomainError('UNAUTHENTICATED', 'A bearer token or wallet credential is required');
      return {
        status: 200,
        body: {
          authenticated: true as const,
          method: p.kind === 'user' ? ('jwt' as const) : ('wallet' as const),
          address: getAddress(p.address),
          expiresAt: new Date(p.expiresAt * 1000).toISOString(),
        },
      };
    },
  });
}
