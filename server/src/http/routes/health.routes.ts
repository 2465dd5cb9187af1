import { initServer } from '@ts-rest/express';
import { tournamentsContract } from '@duelkit/contract';
import type { HealthService } from '../../platform/health/health.service.js';

const s = initServer();

/** §4.17 health routes of the tournaments host. */
export function tournamentsHealthRoutes(deps: { health: HealthService }) {
  return s.router(tournamentsContract.health, {
    tournamentsHealth: async () => ({ status: 200, body: deps.health.liveness('tournaments') }),
    parlayHealth: async () => ({ status: 200, body: deps.health.liveness('parlay') }),
    parlayLive: async () => ({ status: 200, body: deps.health.liveness('parlay') }),
    parlayReady: async () => {
      const readiness = await deps.health.readiness();
      return readiness.status === 'not_ready' ? { status: 503, body: readiness } : { status: 200, body: readiness };
    },
  });
}
