import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routeMeta } from '../src/index.js';
import { contractRoutes, coverage, readSpec, routeKey, sharedSpecFile, vendoredSpecFile } from './spec-coverage.js';

describe('contract against the spec endpoint list', () => {
  const spec = new Map(readSpec().map((e) => [routeKey(e.host, e.method, e.path), e]));

  it.skipIf(!existsSync(sharedSpecFile))('vendors the current shared/spec/endpoints.tsv', () => {
    expect(readFileSync(vendoredSpecFile, 'utf8')).toBe(readFileSync(sharedSpecFile, 'utf8'));
  });

  it('is counted in the README as `pnpm spec:coverage` counts it', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const { covered, total, extensions } = coverage();
    expect(readme).toContain(`**${covered} of ${total}** (and ${extensions.length} documented extension routes`);
  });

  it('has no route that is not in endpoints.tsv', () => {
    expect(coverage().extra).toEqual([]);
  });

  it('marks as an extension exactly the routes the spec does not list, and says which section each serves', () => {
    for (const { host, route } of contractRoutes()) {
      const meta = routeMeta(route);
      const listed = spec.has(routeKey(host, route.method, route.path));
      expect({ path: route.path, extension: meta.extension === true }).toEqual({
        path: route.path,
        extension: !listed,
      });
      if (meta.extension) {
        expect(meta.section, route.path).toMatch(/^\d+\.\d+$/);
        expect(route.description, route.path).toMatch(/extension/i);
      }
    }
  });

  it('declares the auth kind, success status and section the spec lists for every route', () => {
    for (const { host, route } of contractRoutes()) {
      if (routeMeta(route).extension) continue;
      const entry = spec.get(routeKey(host, route.method, route.path));
      const meta = routeMeta(route);
      expect({ path: route.path, auth: meta.auth, section: meta.section }).toEqual({
        path: route.path,
        auth: entry?.auth,
        section: entry?.section,
      });
      expect(Object.keys(route.responses)).toContain(String(entry?.success));
    }
  });

  it('gives every route a schema for every status, including errors', () => {
    for (const { route } of contractRoutes()) {
      for (const status of ['400', '401', '403', '404', '429', '500']) {
        expect(route.responses, `${route.path} ${status}`).toHaveProperty(status);
      }
    }
  });

  it('says of every non-GET route whether a client may send it again: idempotent, repeatable, or a one-time sign-in', () => {
    // Sign-ins that consume a one-time signature or code: sending them again fails instead of
    // repeating, so clients retry them only when the service says they did not run.
    const oneTime = [
      'POST /svc/admin/auth/2fa/verify',
      'POST /svc/admin/auth/2fa/verify-setup',
      'POST /svc/user/auth/eoa/login',
      'POST /svc/user/auth/idp/migrate',
      'POST /user/auth/login',
    ];
    const undecided = contractRoutes()
      .filter(({ route }) => route.method !== 'GET')
      .filter(({ route }) => !routeMeta(route).idempotent && !routeMeta(route).repeatable)
      .map(({ route }) => `${route.method} ${route.path}`);
    expect(undecided.sort()).toEqual(oneTime.sort());
    for (const { route } of contractRoutes()) {
      const meta = routeMeta(route);
      expect(meta.idempotent && meta.repeatable, `${route.path}: idempotent or repeatable, not both`).toBeFalsy();
    }
  });
  it('gives every route a one-line summary, and a description to every route but the listed ones', () => {
    // Routes whose description is still only the generated "who may call / refusals" paragraph
    // (contract/scripts/openapi.ts). Shrink this list as descriptions are written; never grow it.
    const withoutDescription = [
      'DELETE /svc/admin/auth/logout',
      'GET /api/parlay/health',
      'GET /api/parlay/health/live',
      'GET /api/tournaments/:tournamentId',
      'GET /api/tournaments/:tournamentId/bracket',
      'GET /api/tournaments/:tournamentId/bracket/status',
      'GET /api/tournaments/:tournamentId/format-info',
      'GET /api/tournaments/:tournamentId/leaderboard',
      'GET /api/tournaments/:tournamentId/prize-pool',
      'GET /api/tournaments/:tournamentId/stages/:stageId/fixtures',
      'GET /api/tournaments/:tournamentId/stages/:stageId/groups',
      'GET /api/tournaments/:tournamentId/stages/:stageId/odds',
      'GET /api/tournaments/:tournamentId/stages/:stageId/picks',
      'GET /api/tournaments/:tournamentId/stages/:stageId/standings',
      'GET /api/tournaments/admin/cancel-requests',
      'GET /api/tournaments/creator/:address/stats',
      'GET /api/tournaments/creator/bond-requirement',
      'GET /api/tournaments/creator/eligibility',
      'GET /api/tournaments/global-leaderboard',
      'GET /api/tournaments/health',
      'GET /api/tournaments/platform-leaderboard-aggregate',
      'GET /api/tournaments/user/:address/stats',
      'GET /svc/admin/auth/me',
      'GET /svc/admin/auth/verify',
      'GET /svc/admin/market/cancelled',
      'GET /svc/admin/market/contests',
      'GET /svc/admin/market/discard-status/:duelId',
      'GET /svc/admin/market/duel/:duelId/contests',
      'GET /svc/admin/market/duel/:duelId/participants',
      'GET /svc/admin/market/expired',
      'GET /svc/admin/parlay-tournaments/config-status',
      'GET /svc/admin/pendingDuels',
      'GET /svc/admin/pendingDuels/bootstrapping-live',
      'GET /svc/admin/pendingDuels/count',
      'GET /svc/admin/withdrawal-requests',
      'GET /svc/analytics/platform',
      'GET /svc/duels/og-metadata/:duelId',
      'GET /svc/leaderboard/chart/participants',
      'GET /svc/leaderboard/chart/volume',
      'GET /svc/leaderboard/creators',
      'GET /svc/leaderboard/creators/count',
      'GET /svc/leaderboard/creators/pnl',
      'GET /svc/leaderboard/global-aggregate',
      'GET /svc/leaderboard/traders',
      'GET /svc/leaderboard/traders/pnl',
      'GET /svc/packs/:packId/me',
      'GET /svc/packs/admin/packs/:packId/payout-claim-status',
      'GET /svc/packs/admin/packs/:packId/refund-claim-status',
      'GET /svc/packs/admin/packs/:packId/settlement-preview',
      'GET /svc/protocol-stats',
      'GET /svc/protocol-stats/summary',
      'GET /svc/public/bets/sell-unlock-liquidity/:duelId',
      'GET /svc/public/duels/all',
      'GET /svc/public/duels/get-duel-by-id/:duelId',
      'GET /svc/sports/football/fixture/:fixtureId/snapshot',
      'GET /svc/sports/football/team/:teamId/season-stats',
      'GET /svc/sports/football/team/:teamId/squad',
      'GET /svc/tournaments/by-wallet/:address',
      'GET /svc/user/auth/check-username',
      'GET /svc/user/bets/sell-unlock-liquidity/:duelId',
      'GET /svc/user/bets/user-bet-limit/:address',
      'GET /svc/user/bets/user-shares/:duelId/:address',
      'GET /svc/user/bulk-register/check-user',
      'GET /svc/user/duel-invitations/:inviteCode',
      'GET /svc/user/duel-invitations/duel/:duelId',
      'GET /svc/user/duel-invitations/membership/:duelId/:userAddress',
      'GET /svc/user/duel-invitations/memberships/:userAddress',
      'GET /svc/user/duels/:duelId/contests',
      'GET /svc/user/duels/by-league/:leagueId',
      'GET /svc/user/duels/canonical',
      'GET /svc/user/duels/contest/:duelId',
      'GET /svc/user/duels/contest/:duelId/my-contest',
      'GET /svc/user/duels/get-all-duels',
      'GET /svc/user/duels/get-duel-by-id/:duelId',
      'GET /svc/user/duels/participants/:duelId',
      'GET /svc/user/parent-markets/:id/invitations',
      'GET /svc/user/parent-markets/:id/members',
      'GET /svc/user/parent-markets/accessible',
      'GET /svc/user/portfolio/positions/:address',
      'GET /user/auth/check',
      'POST /api/tournaments/:tournamentId/estimate-payout',
      'POST /svc/admin/auth/2fa/setup',
      'POST /svc/admin/auth/login',
      'POST /svc/admin/market/continue-refunds/:duelId',
      'POST /svc/admin/market/finalize-contest',
      'POST /svc/public/bets/estimated-win',
      'POST /svc/user/auth/eoa/register',
      'POST /svc/user/auth/idp/login',
      'POST /svc/user/auth/idp/register',
      'POST /svc/user/auth/profile-image',
      'POST /svc/user/bets/estimated-win',
      'POST /svc/user/bulk-register/register-bulk',
      'POST /svc/user/bulk-register/register-simple',
      'POST /svc/user/duel-invitations/add-member',
      'POST /svc/user/duel-invitations/revoke',
      'POST /svc/user/duel-invitations/validate-invite',
      'POST /svc/user/parent-markets/:id/add-duel',
      'POST /svc/user/parent-markets/create-invitation',
      'POST /svc/user/parent-markets/validate-invite',
      'POST /svc/user/portfolio/accountDetails',
      'POST /svc/user/portfolio/duels',
      'POST /svc/user/portfolio/pnl-chart',
      'POST /svc/user/portfolio/table/duels',
      'POST /svc/user/portfolio/table/history',
      'POST /svc/user/wallet/sign',
      'POST /svc/user/wallet/sign-typed-data',
      'POST /user/auth/login',
    ];
    for (const { route } of contractRoutes()) {
      expect(route.summary?.trim(), `${route.method} ${route.path}`).toBeTruthy();
      expect(route.summary, `${route.method} ${route.path}`).not.toContain('\n');
    }
    const undescribed = contractRoutes()
      .filter(({ route }) => !route.description?.trim())
      .map(({ route }) => `${route.method} ${route.path}`);
    expect(undescribed.sort()).toEqual(withoutDescription.sort());
  });
});
