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
    adminSetRoot: async ({ params, req }) => ({
      status: 200,
      body: await payouts.setRoot(admin(req), params.tournamentId),
    }),
    adminSetFinalDisputeWindow: async ({ params, body, req }) => ({
      status: 200,
      body: await settlement.setFinalWindow(admin(req), params.tournamentId, body, (x) => payouts.built(x)),
    }),
    adminSetPayoutRootOnchain: async ({ params, req }) => ({
      status: 200,
      body: await payouts.publish(admin(req), params.tournamentId),
    }),
    adminPayoutRoot: async ({ params }) => ({ status: 200, body: await payouts.payoutRoot(params.tournamentId) }),
    adminForceSettle: async ({ params, body, req }) => ({
      status: 200,
      body: await settlement.forceSettle(admin(req), params.stageId, body.reason),
    }),
    adminSetStageDisputeWindow: async ({ params, body, req }) => ({
      status: 200,
      body: await settlement.setStageWindow(admin(req), params.stageId, body),
    }),
    adminCanProceed: async ({ params }) => ({ status: 200, body: await settlement.canProceed(params.stageId) }),
    adminProcessExpired: async () => ({ status: 200, body: await automation.processExpired() }),
    adminDisputeStats: async () => ({ status: 200, body: await disputes.stats() }),
    adminDisputesOfStage: async ({ params, query }) => ({
      status: 200,
      body: await disputes.ofStageId(params.stageId, query, query.status),
    }),
    adminDisputesOfTournament: async ({ params, query }) => ({
      status: 200,
      body: await disputes.ofTournament(params.tournamentId, query, query.status),
    }),
    adminResolveDispute: async ({ params, body, req }) => ({
      status: 200,
      body: await disputes.resolve(admin(req), params.disputeId, body),
    }),
    adminDisputes: async ({ query }) => ({
      status: 200,
      body: await disputes.list({ status: query.status }, query),
    }),
    adminAutomationRun: async () => ({ status: 200, body: await automation.run('admin') }),
    adminAutomationSettleReady: async () => ({ status: 200, body: await automation.settleReady() }),
    adminAutomationStatus: async ({ params }) => ({
      status: 200,
      body: await automation.status(params.tournamentId),
    }),
  });
}
