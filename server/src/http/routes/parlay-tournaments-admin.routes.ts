import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { ParlayTournamentsAdminService } from '../../areas/parlay-tournaments-admin/parlay-tournaments-admin.service.js';
import { adminOf } from '../principal.js';

const s = initServer();

/** §4.16 parlay-tournaments: tournament cancellations from the markets host's admin (docs/tournaments.md). */
export function parlayTournamentsAdminRoutes(service: ParlayTournamentsAdminService) {
  const t = service.tournaments;
  return s.router(marketsContract.parlayTournamentsAdmin, {
    configStatus: async () => ({ status: 200, body: await service.configStatus() }),
    cancelRequests: async ({ query }) => ({ status: 200, body: await t.cancelRequests(query) }),
    tournaments: async ({ query }) => ({ status: 200, body: await t.tournaments({ ...query, removable: false }) }),
    removable: async ({ query }) => ({ status: 200, body: await t.tournaments({ ...query, removable: true }) }),
    cancel: async ({ params, body, req }) => ({
      status: 200,
      body: await t.cancel({ adminId: adminOf(req).adminId }, params.tournamentId, body.reason),
    }),
    discard: async ({ params, body, req }) => ({
      status: 200,
      body: await t.discard({ adminId: adminOf(req).adminId }, params.tournamentId, body.reason),
    }),
    rejectCancelRequest: async ({ params, body, req }) => ({
      status: 200,
      body: await t.rejectCancelRequest({ adminId: adminOf(req).adminId }, params.requestId, body.reason),
    }),
  });
}
