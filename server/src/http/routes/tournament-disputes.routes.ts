import { initServer } from '@ts-rest/express';
import { tournamentDisputesContract } from '@duelkit/contract';
import { actorOf, type TournamentRouteDeps } from './tournaments.routes.js';

const s = initServer();

/** §4.17 disputes of market results and their windows. */
export function tournamentDisputesRoutes({ tournaments: t }: TournamentRouteDeps) {
  const d = t.disputes;
  return s.router(tournamentDisputesContract, {
    disputeWindows: async ({ params }) => ({ status: 200, body: await d.windows(params.tournamentId) }),
    disputes: async ({ params, query }) => ({ status: 200, body: await d.ofTournament(params.tournamentId, query) }),
    marketDisputes: async ({ params, query }) => ({
      status: 200,
      body: await d.ofMarket(params.tournamentId, params.marketId, query),
    }),
    marketDisputeWindow: async ({ params }) => ({
      status: 200,
      body: await d.marketWindow(params.tournamentId, params.marketId),
    }),
    fileMarketDispute: async ({ params, body, req }) => ({
      status: 201,
      body: await d.file(actorOf(req), params.tournamentId, params.marketId, undefined, body),
    }),
    stageDisputes: async ({ params, query }) => ({
      status: 200,
      body: await d.ofStage(params.tournamentId, params.stageId, query),
    }),
    disputeableMarkets: async ({ params }) => ({
      status: 200,
      body: await d.disputeableMarkets(params.tournamentId, params.stageId),
    }),
    stageDisputeWindow: async ({ params }) => ({
      status: 200,
      body: await d.stageWindow(params.tournamentId, params.stageId),
    }),
    fileStageMarketDispute: async ({ params, body, req }) => ({
      status: 201,
      body: await d.file(actorOf(req), params.tournamentId, params.marketId, params.stageId, body),
    }),
  });
}
