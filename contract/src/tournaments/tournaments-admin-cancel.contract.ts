import { z } from 'zod';
import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { commonResponses } from '../common/responses.js';
import { TournamentParamsSchema } from './tournaments-io.schemas.js';
import {
  CancellationSchema,
  CancelRequestListQuerySchema,
  CancelRequestListSchema,
  CancelRequestParamsSchema,
  CancelRequestSchema,
  CancelTournamentBodySchema,
  DiscardResultSchema,
  DiscardTournamentBodySchema,
  ProcessTimeoutsResultSchema,
  RejectCancelRequestBodySchema,
  SetRefundRootResultSchema,
} from './tournaments-cancel.schemas.js';

const tag = 'Tournaments admin';
const base = '/api/tournaments/admin';
const admin = meta(tag, '4.17', 'admin');
const adminWrite = meta(tag, '4.17', 'admin', { idempotent: true });

/**
 * §4.17 tournaments-host administration of cancellations: cancel requests, cancel, discard, the
 * refund root and the timeouts step of the automation (admin token; docs/tournaments.md).
 */
export const tournamentsAdminCancelContract = c.router(
  {
    cancelRequests: {
      method: 'GET',
      path: `${base}/cancel-requests`,
      query: CancelRequestListQuerySchema,
      responses: { 200: CancelRequestListSchema },
      summary: 'Cancel requests, newest first (filter by status and tournament)',
      metadata: admin,
    },
    rejectCancelRequest: {
      method: 'PATCH',
      path: `${base}/cancel-requests/:requestId/reject`,
      pathParams: CancelRequestParamsSchema,
      body: RejectCancelRequestBodySchema,
      responses: { 200: CancelRequestSchema },
      summary: 'Reject an open cancel request, with a reason',
      description:
        'NOT_FOUND (404) for an unknown request; INVALID_STATE (409) when it is not open any more (rejected, or granted by a cancellation). The requester may then ask again.',
      metadata: adminWrite,
    },
    cancel: {
      method: 'POST',
      path: `${base}/tournaments/:tournamentId/cancel`,
      pathParams: TournamentParamsSchema,
      body: CancelTournamentBodySchema,
      responses: { 200: CancellationSchema },
      summary: 'Cancel a LIVE tournament: open requests are granted and the refund table is built',
      description:
        'Every recorded deposit still in the pool is refunded through a Merkle refund distribution (publish it with set-refund-root-onchain; entrants claim on chain). ' +
        'Cancelling a cancelled tournament changes nothing and answers `alreadyCancelled: true`. INVALID_STATE (409) for a COMPLETED tournament.',
      metadata: adminWrite,
    },
    discard: {
      method: 'POST',
      path: `${base}/tournaments/:tournamentId/discard`,
      pathParams: TournamentParamsSchema,
      body: DiscardTournamentBodySchema,
      responses: { 200: DiscardResultSchema },
      summary: 'Hide a tournament nobody but its creator entered (cancelling it first when LIVE)',
      description:
        'TOURNAMENT_HAS_ENTRIES (409) when anyone besides the creator has an entry; INVALID_STATE (409) for a COMPLETED tournament. ' +
        'A LIVE tournament is cancelled first, so the creator’s buy-in is refundable. A discarded tournament leaves every list; its detail and refund proof stay reachable by id. A repeat answers `alreadyDiscarded: true`.',
      metadata: adminWrite,
    },
    setRefundRootOnchain: {
      method: 'POST',
      path: `${base}/tournaments/:tournamentId/set-refund-root-onchain`,
      pathParams: TournamentParamsSchema,
      body: z.object({}).strict().optional(),
      responses: { 200: SetRefundRootResultSchema },
      summary: 'Publish the refund root of a cancelled tournament on its prize vault',
      description:
        'PrizeVault.setRoot(poolId, 1, root, total): sets the refunds aside from the pool. Once per tournament: a repeat answers the same transaction. ' +
        'INVALID_STATE (409) unless the tournament is cancelled with something to refund.',
      metadata: adminWrite,
    },
    processTimeouts: {
      method: 'POST',
      path: `${base}/automation/process-timeouts`,
      body: z.object({}).strict().optional(),
      responses: { 200: ProcessTimeoutsResultSchema },
      summary: 'Cancel tournaments below their minimum at the first lock, and record stage locks (idempotent)',
      description:
        'Also runs as a repeating job. A second run right after the first changes nothing and answers empty counts.',
      metadata: meta(tag, '4.17', 'admin', { repeatable: true }),
    },
  },
  // Applied here too, so the server can implement this part on its own with the same types.
  { commonResponses, strictStatusCodes: true },
);
