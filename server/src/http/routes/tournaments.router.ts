import { initServer } from '@ts-rest/express';
import { tournamentsContract } from '@duelkit/contract';
import type { Tournaments } from '../../areas/tournaments/tournaments.js';
import type { Racing } from '../../areas/racing/racing.wiring.js';
import type { SportsService } from '../../areas/sports/sports.service.js';
import type { HealthService } from '../../platform/health/health.service.js';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { tournamentsHealthRoutes } from './health.routes.js';
import { lpRoutes, parlayRoutes, type ParlayRouteDeps } from './parlay.routes.js';
import { sportsRoutes } from './sports.routes.js';
import { tournamentsAuthRoutes } from './tournaments-auth.routes.js';
import { tournamentsCatalogRoutes } from './tournaments.routes.js';
import { tournamentsPlayRoutes } from './tournaments-play.routes.js';
import { tournamentsAdminCloseRoutes } from './tournaments-admin-close.routes.js';
import { tournamentDisputesRoutes } from './tournament-disputes.routes.js';
import { tournamentPayoutsRoutes } from './tournament-payouts.routes.js';
import { racingRoutes } from './racing.routes.js';
import { tournamentsAdminCancelRoutes, tournamentsCancelRoutes } from './tournaments-cancel.routes.js';
import { operationsRoutes, type OperationsDeps } from './operations.routes.js';

const s = initServer();

/** The services the tournaments host's routes call (container.ts builds them, app.ts hands them over). */
export interface TournamentsRouterDeps {
  readonly health: HealthService;
  readonly tournaments: Tournaments;
  readonly sports: SportsService;
  readonly sportsLimits: { readonly proxyIp: RateLimiter; readonly helpersIp: RateLimiter };
  readonly parlay: ParlayRouteDeps;
  readonly operations: OperationsDeps;
  readonly racing: Racing;
}

/** Implementation of every tournaments-host route: one line per area. */
export function tournamentsRouter(d: TournamentsRouterDeps) {
  return s.router(tournamentsContract, {
    health: tournamentsHealthRoutes(d),
    ...operationsRoutes(d.operations),
    auth: tournamentsAuthRoutes(),
    parlay: parlayRoutes(d.parlay),
    lp: lpRoutes(d.parlay),
    tournaments: {
      admin: {
        ...tournamentsAdminCloseRoutes({ tournaments: d.tournaments }),
        ...tournamentsAdminCancelRoutes({ tournaments: d.tournaments }),
      },
      f1: racingRoutes({ racing: d.racing }),
      catalog: tournamentsCatalogRoutes({ tournaments: d.tournaments }),
      play: tournamentsPlayRoutes({ tournaments: d.tournaments }),
      disputes: tournamentDisputesRoutes({ tournaments: d.tournaments }),
      payouts: tournamentPayoutsRoutes({ tournaments: d.tournaments }),
      cancellation: tournamentsCancelRoutes({ tournaments: d.tournaments }),
    },
    sports: sportsRoutes({
      sports: d.sports,
      proxyIpLimit: rateLimit({
        scope: 'client IP',
        pick: () => d.sportsLimits.proxyIp,
        keyOf: (req) => req.ip,
        headers: false,
      }),
      helpersIpLimit: rateLimit({
        scope: 'client IP',
        pick: () => d.sportsLimits.helpersIp,
        keyOf: (req) => req.ip,
        headers: false,
      }),
    }),
  });
}
