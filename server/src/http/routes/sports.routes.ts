import { initServer } from '@ts-rest/express';
import type { RequestHandler } from 'express';
import { tournamentsContract } from '@duelkit/contract';
import type { SportsService } from '../../areas/sports/sports.service.js';

const s = initServer();

/** §4.18 sports proxies: per-IP limits on top of the per-key budget, then the service. */
export function sportsRoutes(deps: {
  sports: SportsService;
  proxyIpLimit: RequestHandler;
  helpersIpLimit: RequestHandler;
}) {
  const { sports, proxyIpLimit, helpersIpLimit } = deps;
  return s.router(tournamentsContract.sports, {
    proxy: {
      middleware: [proxyIpLimit],
      handler: async ({ body }) => ({ status: 200, body: await sports.proxy(body) }),
    },
    cricketV2Proxy: {
      middleware: [proxyIpLimit],
      handler: async ({ body }) => ({ status: 200, body: await sports.cricketV2Proxy(body) }),
    },
    fixtureSnapshot: {
      middleware: [helpersIpLimit],
      handler: async ({ params }) => ({ status: 200, body: await sports.fixtureSnapshot(params.fixtureId) }),
    },
    teamSquad: {
      middleware: [helpersIpLimit],
      handler: async ({ params }) => ({ status: 200, body: await sports.teamSquad(params.teamId) }),
    },
    teamSeasonStats: {
      middleware: [helpersIpLimit],
      handler: async ({ params, query }) => ({
        status: 200,
        body: await sports.teamSeasonStats(params.teamId, query.seasonId),
      }),
    },
  });
}
