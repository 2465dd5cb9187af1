import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { DuelIdParamsSchema } from './duels.schemas.js';
import {
  ContestListQuerySchema,
  ContestListResponseSchema,
  ContestWithAddressListResponseSchema,
  ContestWithAddressSchema,
  FinalizeContestRequestSchema,
  FinalizeContestResponseSchema,
  MyContestResponseSchema,
  ResolveRequestSchema,
  ResolveResponseSchema,
  SubmitContestRequestSchema,
} from './resolution.schemas.js';

const tag = 'Resolution';

const lifecycle = 'States and who moves them: docs/duel-lifecycle.md.';

/** §4.7 resolution of ended markets by their creator, contests by participants, finalization. */
export const resolutionContract = c.router({
  resolve: {
    method: 'POST',
    path: '/svc/user/duels/resolve',
    body: ResolveRequestSchema,
    responses: { 200: ResolveResponseSchema },
    summary: 'Resolve ended markets you created (a batch of 1–50); accepted, not final',
    description:
      'The whole batch is checked before anything is sent: an unknown duel is a 404, one you did not create a 403, ' +
      'one that has not ended (or is already resolved) a 409 INVALID_STATE with `details.status` — nothing is sent then. ' +
      'Each market is then resolved on chain with your managed wallet; a chain rejection at that point is reported per item. ' +
      'The market reads `pending_contest` (or `settled` when the contest period is 0) once the chain confirms. ' +
      lifecycle,
    metadata: meta(tag, '4.7', 'bearer', { idempotent: true }),
  },
  submitContest: {
    method: 'POST',
    path: '/svc/user/duels/contest',
    body: SubmitContestRequestSchema,
    responses: { 201: ContestWithAddressSchema },
    summary: 'Contest a resolution during the contest period (participants only, once each)',
    description:
      'Participants are the market’s traders and holders. NOT_PARTICIPANT (403) otherwise; INVALID_STATE (409) ' +
      'outside the contest period, with `details.status` and `details.contestEndsAt`; CONTEST_EXISTS (409) on a second contest.',
    metadata: meta(tag, '4.7', 'bearer', { idempotent: true }),
  },
  contests: {
    method: 'GET',
    path: '/svc/user/duels/contest/:duelId',
    pathParams: DuelIdParamsSchema,
    query: ContestListQuerySchema,
    responses: { 200: ContestListResponseSchema },
    summary: 'Contests of a market, newest first, without addresses (private markets: members only)',
    metadata: meta(tag, '4.7', 'public', { personalised: true }),
  },
  myContest: {
    method: 'GET',
    path: '/svc/user/duels/contest/:duelId/my-contest',
    pathParams: DuelIdParamsSchema,
    responses: { 200: MyContestResponseSchema },
    summary: 'The caller’s contest of a market (null when none) and whether they may file one now',
    metadata: meta(tag, '4.7', 'bearer'),
  },
  creatorContests: {
    method: 'GET',
    path: '/svc/user/duels/:duelId/contests',
    pathParams: DuelIdParamsSchema,
    query: ContestListQuerySchema,
    responses: { 200: ContestWithAddressListResponseSchema },
    summary: 'Contests of a market you created, with the participants’ addresses (creator only)',
    metadata: meta(tag, '4.7', 'bearer'),
  },
  finalizeContest: {
    method: 'POST',
    path: '/svc/user/duels/finalize-contest',
    body: FinalizeContestRequestSchema,
    responses: { 200: FinalizeContestResponseSchema },
    summary: 'Settle a resolved market after its contest period (creator only); accepted, not final',
    description:
      'Settles with the resolved outcome, or with `winningOptionIndex` when at least one contest was filed ' +
      '(a correction without a contest is a 409 INVALID_STATE). Before the period ends: 409 INVALID_STATE with ' +
      '`details.contestEndsAt`. Uncontested markets are also settled by the platform once the period is over. ' +
      lifecycle,
    metadata: meta(tag, '4.7', 'bearer', { idempotent: true }),
  },
});
