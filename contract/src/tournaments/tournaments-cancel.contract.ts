import { ClaimProofSchema } from '../common/claim-proof.js';
import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { commonResponses } from '../common/responses.js';
import { TournamentParamsSchema, WalletQuerySchema } from './tournaments-io.schemas.js';
import {
  CancelRequestSchema,
  CancelRequestStateSchema,
  CreateCancelRequestBodySchema,
  RefundProofQuerySchema,
} from './tournaments-cancel.schemas.js';

const tag = 'Tournaments';
const base = '/api/tournaments/:tournamentId';

/** §4.17 asking for a cancellation, and the refunds of a cancelled tournament (docs/tournaments.md). */
export const tournamentsCancelContract = c.router(
  {
    cancelRequest: {
      method: 'GET',
      path: `${base}/cancel-request`,
      pathParams: TournamentParamsSchema,
      query: WalletQuerySchema,
      responses: { 200: CancelRequestStateSchema },
      summary: 'A wallet’s cancel request for this tournament, and how many are open',
      description:
        'The wallet is the bearer token’s managed wallet, or `wallet`; without either `request` is null. `canRequest` says whether a new request would be accepted now. 404 for an unknown tournament.',
      metadata: meta(tag, '4.17', 'optional-bearer'),
    },
    requestCancel: {
      method: 'POST',
      path: `${base}/cancel-request`,
      pathParams: TournamentParamsSchema,
      body: CreateCancelRequestBodySchema,
      responses: { 200: CancelRequestSchema },
      summary: 'Ask the admins to cancel a LIVE tournament (its creator or an entrant)',
      description:
        'One open request per requester and tournament: CANCEL_REQUEST_EXISTS (409) while one is open (a rejected one may be followed by a new one). ' +
        'NOT_ENTERED (403) for a wallet that neither created nor entered the tournament; INVALID_STATE (409) unless the tournament is LIVE. ' +
        'An admin rejects the request or cancels the tournament (which grants every open request).',
      metadata: meta(tag, '4.17', 'jwt-or-wallet', { idempotent: true }),
    },
    refundProof: {
      method: 'GET',
      path: `${base}/refund-proof`,
      pathParams: TournamentParamsSchema,
      query: RefundProofQuerySchema,
      responses: { 200: ClaimProofSchema },
      summary: 'A wallet’s refund of a cancelled tournament with its Merkle proof and the claim call',
      description:
        'The wallet is `wallet`, or the bearer token’s managed wallet (UNAUTHENTICATED without either). Send `call` (PrizeVault.claim(poolId, 1, account, amount, proof)) once `published`; anyone may send it. ' +
        'INVALID_STATE (409) unless the tournament is cancelled; NOT_FOUND (404) when the wallet has nothing to get back.',
      metadata: meta(tag, '4.17', 'optional-bearer'),
    },
  },
  // Applied here too, so the server can implement this part on its own with the same types.
  { commonResponses, strictStatusCodes: true },
);
