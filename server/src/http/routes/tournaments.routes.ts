import { initServer } from '@ts-rest/express';
import { getAddress, type Address } from 'viem';
import { tournamentsCatalogContract } from '@duelkit/contract';
import type { Tournaments } from '../../areas/tournaments/tournaments.js';
import type { Actor } from '../../areas/tournaments/tournament.types.js';
import type { Principal } from '../../areas/identity/principal.js';
import { DomainError } from '../../errors.js';
import { regionOf, tenantOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

export interface TournamentRouteDeps {
  readonly tournaments: Tournaments;
}

type Caller = { principal?: Principal | undefined; tenant?: { builderAppId: string } | undefined };

/**
 * The wallet acting on a tournaments-host write: a bearer token's managed wallet (deposits from
 * its signing EOA count too), or the signing wallet of a wallet credential.
 */
export function actorOf(req: Caller): Actor {
  const p = req.principal;
  const builderAppId = req.tenant ? tenantOf(req as Parameters<typeof tenantOf>[0]).builderAppId : null;
  if (p?.kind === 'user') {
    const wallet = getAddress(p.address);
    return { wallet, userId: p.userId, builderAppId, senders: [wallet, getAddress(p.eoaAddress)] };
  }
  if (p?.kind === 'wallet') {
    const wallet = getAddress(p.address);
    return { wallet, userId: null, builderAppId, senders: [wallet] };
  }
  throw new DomainError('UNAUTHENTICATED', 'A bearer token or wallet credential (x-wallet-* headers) is required');
}

/** On a read personalised by a bearer token: its managed wallet, else the `wallet` query, else none. */
export function viewerWallet(req: Caller, wallet?: string): Address | null {
  if (req.principal?.kind === 'user') return getAddress(req.principal.address);
  return wallet ? getAddress(wallet) : null;
}

/** §4.17 the catalogue, creation, creator bonds, statistics. */
export function tournamentsCatalogRoutes({ tournaments: t }: TournamentRouteDeps) {
  return s.router(tournamentsCatalogContract, {
    list: async ({ query }) => ({ status: 200, body: await t.reads.list(query) }),
    create: async ({ body, req }) => {
      // usdc from a blocked region was refused by the geo gate before this runs.
      const { id, created } = await t.create.create(actorOf(req), body);
      const detail = await t.reads.detail(id);
      return { status: 201, body: { ...detail, created } };
    },
    globalLeaderboard: async ({ query }) => ({
      status: 200,
      body: await t.reads.globalLeaderboard(query.limit, query.offset),
    }),
    platformLeaderboardAggregate: async () => ({ status: 200, body: await t.reads.platformAggregate() }),
    bondRequirement: async ({ query, req }) => ({
      status: 200,
      body: await t.bonds.requirement(viewerWallet(req, query.wallet)),
    }),
    createFlowEligibility: async ({ query, req }) => ({
      status: 200,
      body: await t.bonds.createFlowEligibility(query, viewerWallet(req, query.wallet), regionOf(req)),
    }),
    creatorEligibility: async ({ query, req }) => ({
      status: 200,
      body: await t.bonds.creatorEligibility(viewerWallet(req, query.wallet)),
    }),
    depositBond: async ({ body, req }) => ({
      status: 200,
      body: await t.bonds.deposit(ctxOf(req), actorOf(req), body),
    }),
    withdrawBond: async ({ body, req }) => ({
      status: 200,
      body: await t.bonds.withdraw(ctxOf(req), actorOf(req), body),
    }),
    creatorStats: async ({ params }) => ({ status: 200, body: await t.reads.creatorStats(params.address) }),
    userStats: async ({ params }) => ({ status: 200, body: await t.reads.userStats(params.address) }),
    byWallet: async ({ params, query }) => ({
      status: 200,
      body: await t.reads.byWallet(params.address, query.limit, query.offset),
    }),
  });
}
