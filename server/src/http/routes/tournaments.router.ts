import { initServer } from '@ts-rest/express';
import { tournamentsContract } from '@duelkit/contract';
import type { Container } from '../../container.js';
import { tournamentsHealthRoutes } from './health.routes.js';

const s = initServer();

/** Implementation of every tournaments-host route: one line per area. */
export function tournamentsRouter(c: Container) {
  return s.router(tournamentsContract, {
    health: tournamentsHealthRoutes(c),
  });
}
