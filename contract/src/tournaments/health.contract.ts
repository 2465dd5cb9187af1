import { HealthSchema, ReadinessSchema } from '../common/health.js';
import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';

/** §4.17 health routes of the tournaments host (builder key required, no user token). */
export const tournamentsHealthContract = c.router({
  tournamentsHealth: {
    method: 'GET',
    path: '/api/tournaments/health',
    responses: { 200: HealthSchema },
    summary: 'Tournaments service liveness',
    metadata: meta('Health', '4.17', 'public'),
  },
  parlayHealth: {
    method: 'GET',
    path: '/api/parlay/health',
    responses: { 200: HealthSchema },
    summary: 'Parlay service liveness',
    metadata: meta('Health', '4.17', 'public'),
  },
  parlayLive: {
    method: 'GET',
    path: '/api/parlay/health/live',
    responses: { 200: HealthSchema },
    summary: 'Parlay service liveness probe',
    metadata: meta('Health', '4.17', 'public'),
  },
  parlayReady: {
    method: 'GET',
    path: '/api/parlay/health/ready',
    responses: { 200: ReadinessSchema, 503: ReadinessSchema },
    summary: 'Parlay service readiness',
    description:
      'Checks every configured dependency (PostgreSQL, the chain node, Redis when REDIS_URL is set). 200 `ready` when all are up; ' +
      '200 `degraded` when only non-critical ones are down (Redis: in-memory fallbacks take over; the chain node: reads still work, ' +
      'chain writes answer 503 CHAIN_UNAVAILABLE); 503 `not_ready` with the same body when PostgreSQL is down.',
    metadata: meta('Health', '4.17', 'public'),
  },
});
