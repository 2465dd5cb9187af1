import { initServer } from '@ts-rest/express';
import { getAddress } from 'viem';
import { racingContract } from '@duelkit/contract';
import type { Racing } from '../../areas/racing/racing.wiring.js';
import { regionOf } from '../principal.js';
import { ctxOf } from '../request-context.js';
import { actorOf, viewerWallet } from './tournaments.routes.js';

const s = initServer();

/** Short shared caching for the embeddable feeds (docs/racing.md). */
const FEED_CACHE = 'public, max-age=15';

/** §4.17 racing tournaments (F1 grid predictor): parse, call the racing area, answer. */
export function racingRoutes({ racing }: { racing: Racing }) {
  const { reads, writes } = racing;
  return s.router(racingContract, {
    create: async ({ body, req }) => {
      const { id, created } = await writes.create(ctxOf(req), actorOf(req), body);
      return { status: 201, body: { ...(await reads.detail(id)), created } };
    },
    externalDashboard: async ({ query, res }) => {
      res.setHeader('cache-control', FEED_CACHE);
      const feed = await reads.external(false, query.limit);
      return {
        status: 200,
        body: { ...feed, tournaments: feed.tournaments.map(({ leaderboard: _l, rounds: _r, ...row }) => row) },
      };
    },
    externalDashboardFull: async ({ query, res }) => {
      res.setHeader('cache-control', FEED_CACHE);
      const feed = await reads.external(true, query.limit);
      return {
        status: 200,
        body: {
          ...feed,
          tournaments: feed.tournaments.map((row) => ({
            ...row,
            leaderboard: row.leaderboard ?? [],
            rounds: row.rounds ?? [],
          })),
        },
      };
    },
    get: async ({ params }) => ({ status: 200, body: await reads.detail(params.tournamentId) }),
    dashboard: async ({ params, query, req }) => ({
      status: 200,
      body: await reads.dashboard(params.tournamentId, viewerWallet(req, query.wallet)),
    }),
    drivers: async ({ params }) => ({ status: 200, body: await reads.drivers(params.tournamentId) }),
    eligibility: async ({ params, req }) => ({
      status: 200,
      body: await writes.eligibility(params.tournamentId, getAddress(params.address), regionOf(req)),
    }),
    rounds: async ({ params }) => ({ status: 200, body: await reads.rounds(params.tournamentId) }),
    round: async ({ params }) => ({ status: 200, body: await reads.round(params.tournamentId, params.roundId) }),
    matchups: async ({ params }) => ({ status: 200, body: await reads.matchups(params.tournamentId, params.roundId) }),
    sideBets: async ({ params, query, req }) => ({
      status: 200,
      body: await reads.sideBetsOfRound(params.tournamentId, params.roundId, viewerWallet(req, query.wallet)),
    }),
    placeSideBets: async ({ params, body, req }) => ({
      status: 201,
      body: await writes.sideBets(ctxOf(req), actorOf(req), params.tournamentId, params.roundId, body.sideBets),
    }),
    sideBetHeatmap: async ({ params }) => ({
      status: 200,
      body: await reads.sideBetHeatmap(params.tournamentId, params.roundId),
    }),
    heatmap: async ({ params }) => ({ status: 200, body: await reads.heatmap(params.tournamentId, params.eventId) }),
    results: async ({ params }) => ({ status: 200, body: await reads.results(params.tournamentId, params.eventId) }),
    raceAnalytics: async ({ params }) => ({
      status: 200,
      body: await reads.raceAnalytics(params.tournamentId, params.eventId),
    }),
    seasonLeaderboard: async ({ params, query }) => ({
      status: 200,
      body: await reads.seasonLeaderboard(params.tournamentId, query.limit, query.offset),
    }),
    weekendLeaderboard: async ({ params }) => ({
      status: 200,
      body: await reads.weekendLeaderboard(params.tournamentId, params.roundId),
    }),
    eloLeaderboard: async ({ params }) => ({ status: 200, body: await reads.eloLeaderboard(params.tournamentId) }),
    myPicks: async ({ params }) => ({ status: 200, body: await reads.myPicks(params.tournamentId, params.address) }),
    userPrediction: async ({ params }) => ({
      status: 200,
      body: await reads.predictionOf(params.tournamentId, params.address, params.eventId),
    }),
    userStats: async ({ params }) => ({ status: 200, body: await reads.stats(params.tournamentId, params.address) }),
    payouts: async ({ params }) => ({ status: 200, body: await reads.payouts(params.tournamentId) }),
    myPayout: async ({ params, query, req }) => ({
      status: 200,
      body: await reads.myPayout(params.tournamentId, viewerWallet(req, query.wallet)),
    }),
    claimProof: async ({ params, query, req }) => ({
      status: 200,
      body: await reads.claimProof(params.tournamentId, viewerWallet(req, query.wallet)),
    }),
    enter: async ({ params, body, req }) => ({
      status: 200,
      body: await writes.enter(ctxOf(req), actorOf(req), params.tournamentId, body, regionOf(req)),
    }),
    reenter: async ({ params, body, req }) => ({
      status: 200,
      body: await writes.reenter(ctxOf(req), actorOf(req), params.tournamentId, body),
    }),
    predict: async ({ params, body, req }) => ({
      status: 201,
      body: await writes.predict(ctxOf(req), actorOf(req), params.tournamentId, params.eventId, body.driverIds),
    }),
    lockMyPredictions: async ({ params, req }) => ({
      status: 200,
      body: await writes.lockEarly(ctxOf(req), actorOf(req), params.tournamentId, params.eventId),
    }),
    updatePrediction: async ({ params, body, req }) => ({
      status: 200,
      body: await writes.update(ctxOf(req), actorOf(req), params.tournamentId, params.predictionId, body.driverIds),
    }),
    deletePrediction: async ({ params, req }) => ({
      status: 200,
      body: await writes.remove(ctxOf(req), actorOf(req), params.tournamentId, params.predictionId),
    }),
  });
}
