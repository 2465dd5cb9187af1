import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { TournamentParamsSchema } from '../tournaments/tournaments-io.schemas.js';
import {
  CancellationSchema,
  CancelRequestListQuerySchema,
  CancelRequestListSchema,
  CancelRequestParamsSchema,
  CancelRequestSchema,
  CancelTournamentBodySchema,
  DiscardResultSchema,
  DiscardTournamentBodySchema,
  RejectCancelRequestBodySchema,
} from '../tournaments/tournaments-cancel.schemas.js';
import {
  AdminTournamentListQuerySchema,
  AdminTournamentListSchema,
  ConfigStatusSchema,
} from './parlay-tournaments-admin.schemas.js';

const tag = 'Parlay tournaments admin';
const base = '/svc/admin/parlay-tournaments';
const unavailable =
  'TOURNAMENTS_UNAVAILABLE (503, Retry-After) when the tournaments host cannot be reached or its circuit breaker is open. ' +
  '`details.outcome` says whether the call changed nothing (`not-applied`: no connection, breaker open, credential ' +
  'refused) or may have been applied (`unknown`: a timeout, a dropped connection, a 5xx); repeating it is safe either way.';

/**
 * §4.16 the tournaments seen from the markets host's admin: the same cancellations as the
 * tournaments host's admin, reached in-process or over HTTP (docs/tournaments.md).
 */
export const parlayTournamentsAdminContract = c.router({
  configStatus: {
    method: 'GET',
    path: `${base}/config-status`,
    responses: { 200: ConfigStatusSchema },
    summary: 'How the markets host reaches the tournaments host, and whether it answers now',
    metadata: meta(tag, '4.16', 'admin'),
  },
  cancelRequests: {
    method: 'GET',
    path: `${base}/cancel-requests`,
    query: CancelRequestListQuerySchema,
    responses: { 200: CancelRequestListSchema },
    summary: 'Tournament cancel requests, newest first',
    description: unavailable,
    metadata: meta(tag, '4.16', 'admin'),
  },
  tournaments: {
    method: 'GET',
    path: `${base}/tournaments`,
    query: AdminTournamentListQuerySchema,
    responses: { 200: AdminTournamentListSchema },
    summary: 'Every tournament, discarded ones included, newest first',
    description: unavailable,
    metadata: meta(tag, '4.16', 'admin'),
  },
  removable: {
    method: 'GET',
    path: `${base}/tournaments/removable`,
    query: AdminTournamentListQuerySchema,
    responses: { 200: AdminTournamentListSchema },
    summary: 'Tournaments discard would accept: nobody but the creator entered, not discarded, not completed',
    description: unavailable,
    metadata: meta(tag, '4.16', 'admin'),
  },
  cancel: {
    method: 'POST',
    path: `${base}/tournaments/:tournamentId/cancel`,
    pathParams: TournamentParamsSchema,
    body: CancelTournamentBodySchema,
    responses: { 200: CancellationSchema },
    summary: 'Cancel a LIVE tournament (as the tournaments host’s admin cancel)',
    description: `Idempotent: cancelling a cancelled tournament answers alreadyCancelled: true. INVALID_STATE (409) for a COMPLETED one. ${unavailable}`,
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  discard: {
    method: 'POST',
    path: `${base}/tournaments/:tournamentId/discard`,
    pathParams: TournamentParamsSchema,
    body: DiscardTournamentBodySchema,
    responses: { 200: DiscardResultSchema },
    summary: 'Hide a tournament nobody but its creator entered',
    description: `TOURNAMENT_HAS_ENTRIES (409) otherwise. ${unavailable}`,
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  rejectCancelRequest: {
    method: 'PATCH',
    path: `${base}/cancel-requests/:requestId/reject`,
    pathParams: CancelRequestParamsSchema,
    body: RejectCancelRequestBodySchema,
    responses: { 200: CancelRequestSchema },
    summary: 'Reject an open tournament cancel request, with a reason',
    description: `NOT_FOUND (404); INVALID_STATE (409) when it is not open. ${unavailable}`,
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
});
