import { ClaimProofSchema } from '../common/claim-proof.js';
import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { commonResponses } from '../common/responses.js';
import { TournamentParamsSchema } from './tournaments-io.schemas.js';
import {
  ClaimProofQuerySchema,
  ConfirmClaimRequestSchema,
  ConfirmClaimResponseSchema,
  PayoutStatusSchema,
  PayoutsSchema,
} from './tournaments-close.schemas.js';

const tag = 'Tournaments';
const base = '/api/tournaments/:tournamentId';
const read = meta(tag, '4.17', 'optional-bearer');

/** §4.17 the payout table, Merkle proofs and claims (docs/tournaments.md, "Payouts"). */
export const tournamentPayoutsContract = c.router(
  {
    claimProof: {
      method: 'GET',
      path: `${base}/claim-proof`,
      pathParams: TournamentParamsSchema,
      query: ClaimProofQuerySchema,
      responses: { 200: ClaimProofSchema },
      summary: 'Your payout leaf: amount, Merkle proof and the PrizeVault.claim call',
      description:
        'The bearer token’s managed wallet, or `wallet`. PAYOUT_NOT_READY (409) before the payout root is built; 404 for a wallet without a payout.',
      metadata: read,
    },
    payouts: {
      method: 'GET',
      path: `${base}/payouts`,
      pathParams: TournamentParamsSchema,
      responses: { 200: PayoutsSchema },
      summary: 'The payout table: built and final once the root exists, projected from the standings before',
      description:
        'Public. `projected` before the admin builds the root (it moves with the standings), then the stored table with each leaf’s claim. 404 for an unknown tournament.',
      metadata: read,
    },
    payoutStatus: {
      method: 'GET',
      path: `${base}/payout-status`,
      pathParams: TournamentParamsSchema,
      responses: { 200: PayoutStatusSchema },
      summary: 'Whether the root is built and on chain, and which leaves are claimed',
      description: 'Public. 404 for an unknown tournament.',
      metadata: read,
    },
    confirmClaim: {
      method: 'POST',
      path: `${base}/confirm-claim`,
      pathParams: TournamentParamsSchema,
      body: ConfirmClaimRequestSchema,
      responses: { 200: ConfirmClaimResponseSchema },
      summary: 'Record your claim after verifying its transaction on chain',
      description:
        'The transaction must be mined, successful, and hold a Claimed event of this tournament’s vault pool (payout) for the caller’s wallet and its leaf’s amount; ' +
        'whoever sent it. CLAIM_PENDING (409, retry) while not mined; CLAIM_MISMATCH (400, `details.reason`) otherwise; PAYOUT_NOT_READY (409) without a root; 404 without a leaf.',
      metadata: meta(tag, '4.17', 'jwt-or-wallet', { idempotent: true }),
    },
  },
  { commonResponses, strictStatusCodes: true },
);
