import { initServer } from '@ts-rest/express';
import { tournamentsPlayContract } from '@duelkit/contract';
import { DomainError } from '../../errors.js';
import { regionOf } from '../principal.js';
import { ctxOf } from '../request-context.js';
import { actorOf, viewerWallet, type TournamentRouteDeps } from './tournaments.routes.js';

const s = initServer();

/** §4.17 one tournament: detail, entry, picks, standings, bracket, prizes. */
export function tournamentsPlayRoutes({ tournaments: t }: TournamentRouteDeps) {
  return s.router(tournamentsPlayContract, {
    get: async ({ params }) => ({ status: 200, body: await t.reads.detail(params.tournamentId) }),
    formatInfo: async ({ params }) => ({ status: 200, body: await t.views.formatInfo(params.tournamentId) }),
    eligibility: async ({ params, query, req }) => ({
      status: 200,
      body: await t.entries.eligibility(params.tournamentId, viewerWallet(req, query.wallet), regionOf(req)),
    }),
    deposit: async ({ params, body, req }) => ({
      status: 200,
      body: await t.entries.deposit(ctxOf(req), actorOf(req), params.tournamentId, body, regionOf(req)),
    }),
    enter: async ({ params, body, req }) => ({
      status: 200,
      body: await t.entries.enter(actorOf(req), params.tournamentId, body, regionOf(req)),
    }),
    withdraw: async ({ params, req }) => ({
      status: 200,
      body: await t.withdrawals.withdraw(actorOf(req), params.tournamentId),
    }),
    myStatus: async ({ params, query, req }) => {
      const wallet = viewerWallet(req, query.wallet);
      if (!wallet) {
        // A builder key alone is enough to read a named wallet: the missing wallet is input, not a credential.
        throw new DomainError('VALIDATION_FAILED', 'Send a bearer token, or name the wallet with ?wallet=', {
          fieldErrors: { 'query.wallet': ['required without a bearer token'] },
        });
      }
      return { status: 200, body: await t.views.myStatus(params.tournamentId, wallet) };
    },
    estimatePayout: async ({ params, body, req }) => ({
      status: 200,
      body: await t.views.estimatePayout(params.tournamentId, actorOf(req).wallet, body.entrants),
    }),
    prizePool: async ({ params }) => ({ status: 200, body: await t.views.prizePool(params.tournamentId) }),
    leaderboard: async ({ params, query }) => ({
      status: 200,
      body: await t.views.leaderboard(params.tournamentId, query.limit, query.offset),
    }),
    bracket: async ({ params }) => ({ status: 200, body: await t.views.bracket(params.tournamentId) }),
    bracketStatus: async ({ params }) => ({ status: 200, body: await t.views.bracketStatus(params.tournamentId) }),
    deletePick: async ({ params, req }) => ({
      status: 200,
      body: await t.picks.remove(actorOf(req), params.tournamentId, params.pickId),
    }),
    picks: async ({ params, query, req }) => ({
      status: 200,
      body: await t.picks.list(params.tournamentId, params.stageId, viewerWallet(req), query),
    }),
    createPick: async ({ params, body, req }) => ({
      status: 201,
      body: await t.picks.create(actorOf(req), params.tournamentId, params.stageId, body),
    }),
    fixtures: async ({ params }) => ({
      status: 200,
      body: await t.reads.fixtures(params.tournamentId, params.stageId),
    }),
    odds: async ({ params }) => ({ status: 200, body: await t.reads.odds(params.tournamentId, params.stageId) }),
    standings: async ({ params, query }) => ({
      status: 200,
      body: await t.views.standings(params.tournamentId, params.stageId, query.limit, query.offset),
    }),
    groups: async ({ params }) => ({ status: 200, body: await t.views.groups(params.tournamentId, params.stageId) }),
  });
}
