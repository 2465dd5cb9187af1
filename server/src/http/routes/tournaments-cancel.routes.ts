import { initServer } from '@ts-rest/express';
import { tournamentsAdminCancelContract, tournamentsCancelContract } from '@duelkit/contract';
import { adminDecider } from '../../areas/tournaments/tournament-cancellation.service.js';
import { adminOf } from '../principal.js';
import { actorOf, viewerWallet, type TournamentRouteDeps } from './tournaments.routes.js';

const s = initServer();

/** §4.17 cancel requests and refund proofs. */
export function tournamentsCancelRoutes({ tournaments: t }: TournamentRouteDeps) {
  return s.router(tournamentsCancelContract, {
    cancelRequest: async ({ params, query, req }) => ({
      status: 200,
      body: await t.cancellations.requestState(params.tournamentId, viewerWallet(req, query.wallet) ?? undefined),
    }),
    requestCancel: async ({ params, body, req }) => ({
      status: 200,
      body: await t.cancellations.request(actorOf(req), params.tournamentId, body.reason),
    }),
    refundProof: async ({ params, query, req }) => ({
      status: 200,
      body: await t.refunds.proof(params.tournamentId, query.wallet ?? viewerWallet(req) ?? undefined),
    }),
  });
}

/** §4.17 tournaments-host admin: cancel requests, cancel, discard, refund root, timeouts. */
export function tournamentsAdminCancelRoutes({ tournaments: t }: TournamentRouteDeps) {
  const by = (req: Parameters<typeof adminOf>[0]) => adminDecider(adminOf(req).adminId);
  return s.router(tournamentsAdminCancelContract, {
    cancelRequests: async ({ query }) => ({
      status: 200,
      body: await t.cancellations.requests(
        {
          ...(query.status ? { status: query.status } : {}),
          ...(query.tournamentId ? { tournamentId: query.tournamentId } : {}),
        },
        query.limit,
        query.offset,
      ),
    }),
    rejectCancelRequest: async ({ params, body, req }) => ({
      status: 200,
      body: await t.cancellations.reject(by(req), params.requestId, body.reason),
    }),
    cancel: async ({ params, body, req }) => ({
      status: 200,
      body: await t.cancellations.cancel(by(req), params.tournamentId, body.reason),
    }),
    discard: async ({ params, body, req }) => ({
      status: 200,
      body: await t.cancellations.discard(by(req), params.tournamentId, body.reason),
    }),
    setRefundRootOnchain: async ({ params }) => ({
      status: 200,
      body: await t.refunds.publish(params.tournamentId),
    }),
    processTimeouts: async () => ({ status: 200, body: await t.timeouts.runNow() }),
  });
}
