import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  AdminWithdrawalRequestListQuerySchema,
  CreateWithdrawalRequestSchema,
  DailyLimitQuerySchema,
  DailyLimitSchema,
  DecideWithdrawalRequestSchema,
  PreValidateResponseSchema,
  WithdrawalRequestIdParamsSchema,
  WithdrawalRequestListQuerySchema,
  WithdrawalRequestListResponseSchema,
  WithdrawalRequestSchema,
  WithdrawalSchema,
  WithdrawRequestSchema,
} from './withdrawals.schemas.js';

const tag = 'Withdrawals';
const proof =
  'Listed as public in the spec, but it never trusts a bare address: the caller proves the wallet with its bearer ' +
  'token (UNAUTHENTICATED, 401, without one, before the request is validated) and only ever sees or creates its ' +
  'own requests.';

/** §4.4 withdrawals from the managed wallet, the daily limit and withdrawal requests (docs/money.md). */
export const withdrawalsContract = c.router({
  withdraw: {
    method: 'POST',
    path: '/svc/user/withdraw',
    body: WithdrawRequestSchema,
    responses: { 200: WithdrawalSchema },
    summary: 'Send collateral from your managed wallet to an external address, within the 24 h limit',
    description:
      '`credits` move on chain; `usdc` goes through the bridge provider (geo-gated: GEO_BLOCKED, 403). Refusals: ' +
      'VALIDATION_FAILED for a zero amount or the managed wallet as destination, INSUFFICIENT_BALANCE (400) above the ' +
      'balance, DAILY_LIMIT_EXCEEDED (422, `details.remaining`) above what the rolling 24 h limit has left — larger ' +
      'amounts go through a withdrawal request. Send an Idempotency-Key: a replay answers the same withdrawal.',
    metadata: meta(tag, '4.4', 'bearer', { idempotent: true, geo: { collateralFrom: 'body.collateralStack' } }),
  },
  preValidate: {
    method: 'POST',
    path: '/svc/user/withdrawal-requests/pre-validate',
    body: WithdrawRequestSchema,
    responses: { 200: PreValidateResponseSchema },
    summary: 'Every reason a withdrawal (request) would fail, without recording anything',
    description: `Checks the amount, the destination, the balance and the daily limit and lists every failing reason with its code. ${proof}`,
    metadata: meta(tag, '4.4', 'public', { enforced: 'bearer', repeatable: true }),
  },
  dailyLimit: {
    method: 'GET',
    path: '/svc/user/withdrawal-requests/daily-limit',
    query: DailyLimitQuerySchema,
    responses: { 200: DailyLimitSchema },
    summary: 'Your rolling 24 h withdrawal limit: limit, used, remaining and when the oldest use leaves the window',
    description: `FORBIDDEN (403) when \`user\` is not your managed wallet or EOA; VALIDATION_FAILED when collateralMode differs from collateralStack. ${proof}`,
    metadata: meta(tag, '4.4', 'public', { enforced: 'bearer' }),
  },
  createRequest: {
    method: 'POST',
    path: '/svc/user/withdrawal-requests',
    body: CreateWithdrawalRequestSchema,
    responses: { 201: WithdrawalRequestSchema },
    summary: 'Ask for a withdrawal an admin reviews (amounts above the daily limit)',
    description:
      'Records a pending request; an admin approves it (then it is executed once, as a durable job) or rejects it ' +
      'with a reason. Refused with VALIDATION_FAILED (`details.reasons`, every reason) or INSUFFICIENT_BALANCE as ' +
      `pre-validate reports them. ${proof}`,
    metadata: meta(tag, '4.4', 'public', { enforced: 'bearer', idempotent: true }),
  },
  listRequests: {
    method: 'GET',
    path: '/svc/user/withdrawal-requests',
    query: WithdrawalRequestListQuerySchema,
    responses: { 200: WithdrawalRequestListResponseSchema },
    summary: 'Your withdrawal requests, newest first',
    description: proof,
    metadata: meta(tag, '4.4', 'public', { enforced: 'bearer' }),
  },
});

/** §4.16 admin review of withdrawal requests. */
export const withdrawalsAdminContract = c.router({
  list: {
    method: 'GET',
    path: '/svc/admin/withdrawal-requests',
    query: AdminWithdrawalRequestListQuerySchema,
    responses: { 200: WithdrawalRequestListResponseSchema },
    summary: 'Withdrawal requests of every user, oldest pending first when filtered by status',
    metadata: meta('Admin withdrawals', '4.16', 'admin'),
  },
  decide: {
    method: 'POST',
    path: '/svc/admin/withdrawal-requests/:requestId/decision',
    pathParams: WithdrawalRequestIdParamsSchema,
    body: DecideWithdrawalRequestSchema,
    responses: { 200: WithdrawalRequestSchema },
    summary: 'Approve (executed once, as a durable job) or reject (with a reason) a pending withdrawal request',
    description:
      'Every decision is kept (who, when, what, why) and a request is decided once: a second decision is a 409 ' +
      'INVALID_STATE with `details.status`. VALIDATION_FAILED to reject without a reason; NOT_FOUND for an unknown id.',
    metadata: meta('Admin withdrawals', '4.16', 'admin', { idempotent: true }),
  },
});
