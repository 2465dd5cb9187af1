import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  ClaimFeesRequestSchema,
  ClaimFeesResponseSchema,
  ClaimWinningsRequestSchema,
  ClaimWinningsResponseSchema,
  CreatorFeesQuerySchema,
  CreatorFeesResponseSchema,
} from './money.schemas.js';

const tag = 'Money';
const design = 'Exactly-once design and statuses: docs/money.md.';

/** §4.4 claims of winnings and creator fees (docs/money.md). */
export const moneyContract = c.router({
  claimWinnings: {
    method: 'POST',
    path: '/svc/user/withdraw/claim-winnings',
    body: ClaimWinningsRequestSchema,
    responses: { 200: ClaimWinningsResponseSchema },
    summary: 'Pull your payout of one settled market, or of every settled market you won',
    description:
      'Pays the caller’s managed wallet what the market contract owes it: the winning shares (1 unit each), plus ' +
      'the pool’s winning balance for the market’s creator. Settled markets also pay every winner by a durable job; ' +
      'this claim and that job share one ledger row and one chain key, so each winner is paid once. A second claim ' +
      'answers `submitted` with the same transaction while it is unmined, then `already_paid`. With a `duelId`: ' +
      'NOT_FOUND for an unknown market, INVALID_STATE (409) when it is not settled (`details.status`). ' +
      design,
    metadata: meta(tag, '4.4', 'bearer', { idempotent: true }),
  },
  creatorFees: {
    method: 'GET',
    path: '/svc/user/withdraw/creator-fees',
    query: CreatorFeesQuerySchema,
    responses: { 200: CreatorFeesResponseSchema },
    summary: 'Trading fees of the markets you created: accrued, claimable and paid, per market',
    description:
      'Lists the caller’s markets in one collateral, newest first, with the fees each has taken and their claim ' +
      'status, and the totals over all of them. Fees become claimable when the market settles; a cancelled market ' +
      'refunds them to its traders. VALIDATION_FAILED when `collateralMode` differs from `collateralStack`.',
    metadata: meta(tag, '4.4', 'bearer'),
  },
  claimFees: {
    method: 'POST',
    path: '/svc/user/withdraw/claim-fees',
    body: ClaimFeesRequestSchema,
    responses: { 200: ClaimFeesResponseSchema },
    summary: 'Claim the creator fees of your settled markets (one, or all in a collateral)',
    description:
      'The platform sends one claimFees per market, keyed by the market: the contract pays the creator once and ' +
      'a repeated claim returns the same transaction (`submitted`) or `already_paid`. With a `duelId`: NOT_FOUND ' +
      'for an unknown market, FORBIDDEN when you did not create it, INVALID_STATE (409) when it is not settled. ' +
      design,
    metadata: meta(tag, '4.4', 'bearer', { idempotent: true }),
  },
});
