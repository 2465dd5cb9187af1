import { initServer } from '@ts-rest/express';
import type { Hash } from 'viem';
import { tournamentPayoutsContract } from '@duelkit/contract';
import { actorOf, viewerWallet, type TournamentRouteDeps } from './tournaments.routes.js';

const s = initServer();

/** §4.17 the payout table, proofs and claims. */
export function tournamentPayoutsRoutes({ tournaments: t }: TournamentRouteDeps) {
  const p = t.payouts;
  return s.router(tournamentPayoutsContract, {
    claimProof: async ({ params, query, req }) => ({
      status: 200,
      body: await p.claimProof(params.tournamentId, viewerWallet(req, query.wallet)),
    }),
    payouts: async ({ params }) => ({ status: 200, body: await p.payouts(params.tournamentId) }),
    payoutStatus: async ({ params }) => ({ status: 200, body: await p.payoutStatus(params.tournamentId) }),
    confirmClaim: async ({ params, body, req }) => ({
      status: 200,
      body: await p.confirmClaim(actorOf(req), params.tournamentId, body.txHash as Hash),
    }),
  });
}
