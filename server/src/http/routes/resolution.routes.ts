import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { Request } from 'express';
import type { ResolutionService } from '../../areas/settlement/resolution.service.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { userOf } from '../principal.js';
import { optionalCaller } from './duels.routes.js';

const s = initServer();

/** The signed-in user; a route's parsed query makes its request type differ from Express' own. */
const caller = (req: Pick<Request, 'principal'>) => userOf(req as Request);

/** §4.7 resolution, contests and finalization (rules in ResolutionService). */
export function resolutionRoutes(deps: { resolution: ResolutionService; authenticator: Authenticator }) {
  const { resolution } = deps;
  return s.router(marketsContract.resolution, {
    resolve: async ({ body, req }) => ({ status: 200, body: await resolution.resolve(caller(req), body) }),
    submitContest: async ({ body, req }) => ({
      status: 201,
      body: await resolution.submitContest(caller(req), body),
    }),
    contests: async ({ params, query, req }) => ({
      status: 200,
      body: await resolution.publicContests(params.duelId, query, await optionalCaller(deps.authenticator, req)),
    }),
    myContest: async ({ params, req }) => ({
      status: 200,
      body: await resolution.myContest(caller(req), params.duelId),
    }),
    creatorContests: async ({ params, query, req }) => ({
      status: 200,
      body: await resolution.creatorContests(caller(req), params.duelId, query),
    }),
    finalizeContest: async ({ body, req }) => ({
      status: 200,
      body: await resolution.finalize(body, { actor: 'creator', caller: caller(req) }),
    }),
  });
}
