import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { tournamentsAdminCloseContract } from '@duelkit/contract';
import type { AdminActor } from '../../areas/tournaments/tournament-disputes.service.js';
import { adminOf } from '../principal.js';
import type { TournamentRouteDeps } from './tournaments.routes.js';

const s = initServer();

function admin(req: Request): AdminActor {
  const a = adminOf(req);
  return { adminId: a.adminId, email: a.email };
}

/** §4.17 tournaments-host administration: disputes, settlement, payouts, automation. */
export function tournamentsAdminCloseRoutes({ tournaments: t }: TournamentRouteDeps) {
  const { disputes, settlement, payouts, automation } = t;
  return s.router(tournamentsAdminCloseContract, {
    setRoot: async ({ params, req }) => ({
      status: 200,
      body: await payouts.setRoot(admin(req), params.tournamentId),
    }),
    setFinalDisputeWindow: async ({ params, body, req }) => ({
      status: 200,
      body: await settlement.setFinalWindow(admin(req), params.tournamentId, body, (x) => payouts.built(x)),
    }),
    setPayoutRootOnchain: async ({ params, req }) => ({
      status: 200,
      body: await payouts.publish(admin(req), params.tournamentId),
    }),
    payoutRoot: async ({ params }) => ({ status: 200, body: await payouts.payoutRoot(params.tournamentId) }),
    forceSettle: async ({ params, body, req }) => ({
      status: 200,
      body: await settlement.forceSettle(admin(req), params.stageId, body.reason),
    }),
    setStageDisputeWindow: async ({ params, body, req }) => ({
      status: 200,
      body: await settlement.setStageWindow(admin(req), params.stageId, body),
    }),
    canProceed: async ({ params }) => ({ status: 200, body: await settlement.canProceed(params.stageId) }),
    processExpired: async () => ({ status: 200, body: await automation.processExpired() }),
    disputeStats: async () => ({ status: 200, body: await disputes.stats() }),
    disputesOfStage: async ({ params, query }) => ({
      status: 200,
      body: await disputes.ofStageId(params.stageId, query, query.status),
    }),
    disputesOfTournament: async ({ params, query }) => ({
      status: 200,
      body: await disputes.ofTournament(params.tournamentId, query, query.status),
    }),
    resolveDispute: async ({ params, body, req }) => ({
      status: 200,
      body: await disputes.resolve(admin(req), params.disputeId, body),
    }),
    disputes: async ({ query }) => ({
      status: 200,
      body: await disputes.list({ status: query.status }, query),
    }),
    automationRun: async () => ({ status: 200, body: await automation.run('admin') }),
    automationSettleReady: async () => ({ status: 200, body: await automation.settleReady() }),
    automationStatus: async ({ params }) => ({
      status: 200,
      body: await automation.status(params.tournamentId),
    }),
  });
}
