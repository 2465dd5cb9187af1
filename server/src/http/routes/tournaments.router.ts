import { initServer } from '@ts-rest/express';
import { tournamentsContract } from '@duelkit/contract';
import type { Container } from '../../container.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { tournamentsHealthRoutes } from './health.routes.js';
import { sportsRoutes } from './sports.routes.js';
import { tournamentsAuthRoutes } from './tournaments-auth.routes.js';
import { tournamentsCatalogRoutes } from './tournaments.routes.js';
import { tournamentsPlayRoutes } from './tournaments-play.routes.js';
import { tournamentsAdminCloseRoutes } from './tournaments-admin-close.routes.js';
import { tournamentDisputesRoutes } from './tournament-disputes.routes.js';
import { tournamentPayoutsRoutes } from './tournament-payouts.routes.js';
import { racingRoutes } from './racing.routes.js';
import { tournamentsAdminCancelRoutes, tournamentsCancelRoutes } from './tournaments-cancel.routes.js';

const s = initServer();

/** Implementation of every tournaments-host route: one line per area. */
export function tournamentsRouter(c: Container) {
  return s.router(tournamentsContract, {
    health: tournamentsHealthRoutes(c),
    auth: tournamentsAuthRoutes(),
    tournaments: {
      admin: {
        ...tournamentsAdminCloseRoutes({ tournaments: c.tournaments }),
        ...tournamentsAdminCancelRoutes({ tournaments: c.tournaments }),
      },
      f1: racingRoutes({ racing: c.racing }),
      catalog: tournamentsCatalogRoutes({ tournaments: c.tournaments }),
      play: tournamentsPlayRoutes({ tournaments: c.tournaments }),
      disputes: tournamentDisputesRoutes({ tournaments: c.tournaments }),
      payouts: tournamentPayoutsRoutes({ tournaments: c.tournaments }),
      cancellation: tournamentsCancelRoutes({ tournaments: c.tournaments }),
    },
    sports: sportsRoutes({
      sports: c.sports,
      proxyIpLimit: rateLimit({
        scope: 'client IP',
        pick: () => c.limits.sportsProxyIp,
        keyOf: (req) => req.ip,
        headers: false,
      }),
      helpersIpLimit: rateLimit({
        scope: 'client IP',
        pick: () => c.limits.sportsHelpersIp,
        keyOf: (req) => req.ip,
        headers: false,
      }),
    }),
  });
}
