import type { Request, Response } from 'express';
import { initServer } from '@ts-rest/express';
import { marketsContract, type ReportName } from '@duelkit/contract';
import type { PlatformRequestService } from '../../areas/reports/platform-request.service.js';
import type { ReportQuery, ReportService } from '../../areas/reports/report.service.js';
import { adminContext, userContext } from '../request-context.js';
import { adminOf, tenantOf } from '../principal.js';

const s = initServer();

/** CSV when asked for by `format=csv`, or by an Accept header that names text/csv and not JSON. */
function wantsCsv(req: Pick<Request, 'get'>, format: 'json' | 'csv'): boolean {
  if (format === 'csv') return true;
  const accept = req.get('accept') ?? '';
  return /\btext\/csv\b/i.test(accept) && !/\bapplication\/json\b/i.test(accept);
}

async function answer(
  reports: ReportService,
  name: ReportName,
  raw: Omit<ReportQuery, 'status'> & { status?: unknown; format: 'json' | 'csv' },
  req: Pick<Request, 'get' | 'principal' | 'tenant' | 'region'>,
  res: Response,
) {
  adminOf(req);
  const query: ReportQuery = { ...raw, status: typeof raw.status === 'string' ? raw.status : undefined };
  // The JSON page is checked against the report's row schema by the response validation.
  if (!wantsCsv(req, raw.format)) return { status: 200 as const, body: (await reports.page(name, query)) as never };
  const csv = await reports.csv(name, query);
  res.setHeader('content-type', 'text/csv; charset=utf-8');
  res.setHeader('content-disposition', `attachment; filename="${name}.csv"`);
  res.setHeader('cache-control', 'no-store');
  // The status line has gone: a failure mid-stream can only cut the response short.
  csv.once('error', () => res.destroy());
  res.once('close', () => csv.destroy());
  // ts-rest pipes a stream body as it is, without the JSON response check.
  return { status: 200 as const, body: csv as never };
}

/** §4.16 reports: a keyset page, or the whole selection as CSV streamed from a cursor. */
export function reportRoutes(deps: { reports: ReportService }) {
  const r = deps.reports;
  return s.router(marketsContract.reports, {
    bets: ({ query, req, res }) => answer(r, 'bets', query, req, res),
    contests: ({ query, req, res }) => answer(r, 'contests', query, req, res),
    creatorRequests: ({ query, req, res }) => answer(r, 'creator-requests', query, req, res),
    duelMemberships: ({ query, req, res }) => answer(r, 'duel-memberships', query, req, res),
    duels: ({ query, req, res }) => answer(r, 'duels', query, req, res),
    invitationUsage: ({ query, req, res }) => answer(r, 'invitation-usage', query, req, res),
    launchedTokens: ({ query, req, res }) => answer(r, 'launched-tokens', query, req, res),
    leagueMemberships: ({ query, req, res }) => answer(r, 'league-memberships', query, req, res),
    leagueRequests: ({ query, req, res }) => answer(r, 'league-requests', query, req, res),
    pnlSnapshots: ({ query, req, res }) => answer(r, 'pnl-snapshots', query, req, res),
    tokenRequests: ({ query, req, res }) => answer(r, 'token-requests', query, req, res),
    users: ({ query, req, res }) => answer(r, 'users', query, req, res),
    withdrawals: ({ query, req, res }) => answer(r, 'withdrawals', query, req, res),
  });
}

/** Creator, league and token requests (documented extension). */
export function platformRequestRoutes(deps: { requests: PlatformRequestService }) {
  const { requests } = deps;
  return s.router(marketsContract.requests, {
    create: async ({ body, req }) => ({
      status: 201,
      body: (await requests.create({ ...userContext(req), builderAppId: tenantOf(req).builderAppId }, body)) as never,
    }),
    decide: async ({ params, body, req }) => ({
      status: 200,
      body: (await requests.decide(adminContext(req), params.requestId, body)) as never,
    }),
  });
}
