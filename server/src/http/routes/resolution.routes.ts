import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { ResolutionService } from '../../areas/settlement/resolution.service.js';
import { userOf, viewerOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

/** §4.7 resolution, contests and finalization (rules in ResolutionService). */
export function resolutionRoutes(deps: { resolution: ResolutionService }) {
  const { resolution } = deps;
  return s.router(marketsContract.resolution, {
    resolve: async ({ body, req }) => ({ status: 200, body: await resolution.resolve(ctxOf(req), userOf(req), body) }),
    submitContest: async ({ body, req }) => ({
      status: 201,
      body: await resolution.submitContest(userOf(req), body),
    }),
    contests: async ({ params, query, req }) => ({
      status: 200,
      body: await resolution.publicContests(params.duelId, query, viewerOf(req)),
    }),
    myContest: async ({ params, req }) => ({
      status: 200,
      body: await resolution.myContest(userOf(req), params.duelId),
    }),
    creatorContests: async ({ params, query, req }) => ({
      status: 200,
      body: await resolution.creatorContests(userOf(req), params.duelId, query),
    }),
    finalizeContest: async ({ body, req }) => ({
      status: 200,
      body: await resolution.finalize(ctxOf(req), body, { actor: 'creator', caller: userOf(req) }),
    }),
  });
}
