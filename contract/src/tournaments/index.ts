import { c } from '../common/contract.js';
import { commonResponses } from '../common/responses.js';
import { tournamentsHealthContract } from './health.contract.js';
import { lpContract } from './lp.contract.js';
import { parlayContract } from './parlay.contract.js';
import {
  commentaryContract,
  devicesContract,
  notificationsAdminContract,
  pushAdminContract,
  streamMigrationContract,
} from './operations.contract.js';
import { sportsContract } from './sports.contract.js';
import { tournamentsRouterContract } from './tournaments-router.contract.js';
import { tournamentsAuthContract } from './user-auth.contract.js';

/**
 * Root router of the tournaments host. Each spec area lives in its own `<area>.contract.ts` and is
 * mounted here under its namespace.
 */
export const tournamentsContract = c.router(
  {
    health: tournamentsHealthContract,
    sports: sportsContract,
    auth: tournamentsAuthContract,
    parlay: parlayContract,
    lp: lpContract,
    // One namespace; the catalogue's literal paths come before the `/:tournamentId` routes.
    tournaments: tournamentsRouterContract,
    streamMigration: streamMigrationContract,
    commentary: commentaryContract,
    pushAdmin: pushAdminContract,
    notificationsAdmin: notificationsAdminContract,
    devices: devicesContract,
  },
  { commonResponses, strictStatusCodes: true },
);
