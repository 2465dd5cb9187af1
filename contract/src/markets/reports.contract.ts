import type { z } from 'zod';
import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  BetReportPageSchema,
  BetReportQuerySchema,
  ContestReportPageSchema,
  ContestReportQuerySchema,
  DuelMembershipReportPageSchema,
  DuelMembershipReportQuerySchema,
  DuelReportPageSchema,
  DuelReportQuerySchema,
  InvitationUsageReportPageSchema,
  InvitationUsageReportQuerySchema,
  LaunchedTokenReportPageSchema,
  LeagueMembershipReportPageSchema,
  PlainReportQuerySchema,
  PnlSnapshotReportPageSchema,
  RequestReportPageSchema,
  RequestReportQuerySchema,
  UserReportPageSchema,
  WithdrawalReportPageSchema,
  WithdrawalReportQuerySchema,
} from './reports.schemas.js';

const tag = 'Admin reports';
const COMMON =
  'Keyset-paginated by the time column named here (then the row key); `format=csv` or `Accept: text/csv` streams ' +
  'every row the filters select as CSV from a database cursor (columns: the row’s fields, in order). ' +
  'VALIDATION_FAILED for a bad filter or a cursor of other filters or order.';

function report<Q extends z.AnyZodObject, P extends z.ZodTypeAny>(
  name: string,
  query: Q,
  pageSchema: P,
  summary: string,
  what: string,
) {
  return {
    method: 'GET' as const,
    path: `/svc/admin/reports/${name}` as const,
    query,
    responses: { 200: pageSchema },
    summary,
    description: `${what} ${COMMON}`,
    metadata: meta(tag, '4.16', 'admin', { csv: true }),
  };
}

/** §4.16 admin reports: a page or a streamed CSV of any size (docs/operations.md, "Reports"). */
export const reportsContract = c.router({
  bets: report(
    'bets',
    BetReportQuerySchema,
    BetReportPageSchema,
    'Every trade (buy or sell) of every market',
    'Time: `createdAt`; `status` filters the side; `builderAppId` is the market’s app.',
  ),
  contests: report(
    'contests',
    ContestReportQuerySchema,
    ContestReportPageSchema,
    'Every contest submitted on a market',
    'Time: `createdAt`.',
  ),
  creatorRequests: report(
    'creator-requests',
    RequestReportQuerySchema,
    RequestReportPageSchema,
    'Requests to become a market creator',
    'Written by the documented extension POST /svc/user/requests (`kind: creator`). Time: `createdAt`.',
  ),
  duelMemberships: report(
    'duel-memberships',
    DuelMembershipReportQuerySchema,
    DuelMembershipReportPageSchema,
    'Members of private markets, with how they joined',
    'Time: `joinedAt`; `status` filters the chain state (`removed`: members removed since).',
  ),
  duels: report(
    'duels',
    DuelReportQuerySchema,
    DuelReportPageSchema,
    'Every market with its state, volume and participants',
    'Time: `createdAt`; `status` filters the market status.',
  ),
  invitationUsage: report(
    'invitation-usage',
    InvitationUsageReportQuerySchema,
    InvitationUsageReportPageSchema,
    'Every use of an invitation: platform codes at sign-up and private-market joins',
    'Time: `usedAt`; `status` filters the kind (`platform`, `duel`).',
  ),
  launchedTokens: report(
    'launched-tokens',
    PlainReportQuerySchema,
    LaunchedTokenReportPageSchema,
    'Tokens launched from approved token requests',
    'Written when an admin approves a token request (documented extension POST /svc/admin/requests/{requestId}/decision). Time: `launchedAt`.',
  ),
  leagueMemberships: report(
    'league-memberships',
    PlainReportQuerySchema,
    LeagueMembershipReportPageSchema,
    'Members of leagues, admitted by approved league requests',
    'Written when an admin approves a league request. Time: `joinedAt`.',
  ),
  leagueRequests: report(
    'league-requests',
    RequestReportQuerySchema,
    RequestReportPageSchema,
    'Requests to join a league',
    'Written by POST /svc/user/requests (`kind: league`). Time: `createdAt`.',
  ),
  pnlSnapshots: report(
    'pnl-snapshots',
    PlainReportQuerySchema,
    PnlSnapshotReportPageSchema,
    'Daily profit-and-loss snapshots of every trader',
    'One row per trader and UTC day, written by the daily `pnl-snapshots` job. Time: `snapshotAt`.',
  ),
  tokenRequests: report(
    'token-requests',
    RequestReportQuerySchema,
    RequestReportPageSchema,
    'Requests to launch a token',
    'Written by POST /svc/user/requests (`kind: token`). Time: `createdAt`.',
  ),
  users: report(
    'users',
    PlainReportQuerySchema,
    UserReportPageSchema,
    'Every user account with its wallets and sign-up code',
    'Time: `createdAt`.',
  ),
  withdrawals: report(
    'withdrawals',
    WithdrawalReportQuerySchema,
    WithdrawalReportPageSchema,
    'Every direct withdrawal with its state',
    'Time: `createdAt`; `status` filters the state.',
  ),
});
