import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { LeaderboardService } from '../../areas/analytics/leaderboard.service.js';
import type { PortfolioService } from '../../areas/analytics/portfolio.service.js';
import type { StatsService } from '../../areas/analytics/stats.service.js';
import { userOf } from '../principal.js';

const s = initServer();

/** §4.10 protocol statistics and the platform report. */
export function statsRoutes(deps: { stats: StatsService }) {
  const { stats } = deps;
  return s.router(marketsContract.protocolStats, {
    current: async () => ({ status: 200, body: await stats.current() }),
    summary: async () => ({ status: 200, body: await stats.summary() }),
    refresh: async () => ({ status: 201, body: await stats.refresh() }),
    platform: async () => ({ status: 200, body: await stats.platform() }),
  });
}

/** §4.12 public leaderboards and charts. */
export function leaderboardRoutes(deps: { leaderboards: LeaderboardService }) {
  const { leaderboards } = deps;
  return s.router(marketsContract.leaderboard, {
    creators: async ({ query }) => ({ status: 200, body: await leaderboards.creators(query) }),
    creatorsCount: async ({ query }) => ({
      status: 200,
      body: await leaderboards.creatorsCount(query.collateralStack),
    }),
    creatorsPnl: async ({ query }) => ({ status: 200, body: await leaderboards.creatorsPnl(query) }),
    traders: async ({ query }) => ({ status: 200, body: await leaderboards.traders(query) }),
    tradersPnl: async ({ query }) => ({ status: 200, body: await leaderboards.tradersPnl(query) }),
    globalAggregate: async ({ query }) => ({
      status: 200,
      body: await leaderboards.globalAggregate(query.collateralStack),
    }),
    participantsChart: async ({ query }) => ({ status: 200, body: await leaderboards.participantsChart(query) }),
    volumeChart: async ({ query }) => ({ status: 200, body: await leaderboards.volumeChart(query) }),
  });
}

/** §4.14 portfolio of a wallet (bearer). */
export function portfolioRoutes(deps: { portfolio: PortfolioService }) {
  const { portfolio } = deps;
  const caller = (req: Parameters<typeof userOf>[0]) => userOf(req).address;
  return s.router(marketsContract.portfolio, {
    accountDetails: async ({ body, req }) => ({
      status: 200,
      body: await portfolio.accountDetails({ ...body, callerAddress: caller(req) }),
    }),
    duels: async ({ body, req }) => ({
      status: 200,
      body: await portfolio.createdDuels({ ...body, callerAddress: caller(req) }),
    }),
    duelsTable: async ({ body, req }) => ({
      status: 200,
      body: await portfolio.tradedDuels({ ...body, callerAddress: caller(req) }),
    }),
    historyTable: async ({ body, req }) => ({
      status: 200,
      body: await portfolio.history({ ...body, callerAddress: caller(req) }),
    }),
    pnlChart: async ({ body, req }) => ({
      status: 200,
      body: await portfolio.pnlChart({ ...body, callerAddress: caller(req) }),
    }),
    positions: async ({ params, query, req }) => ({
      status: 200,
      body: await portfolio.positions({
        userAddress: params.address,
        collateralStack: query.collateralStack,
        callerAddress: caller(req),
      }),
    }),
  });
}
