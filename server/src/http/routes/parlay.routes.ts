import { initServer } from '@ts-rest/express';
import { tournamentsContract } from '@duelkit/contract';
import type { Hex } from 'viem';
import type { ParlayCatalogueService } from '../../areas/parlay/parlay-catalogue.service.js';
import type { ParlayQuoteService } from '../../areas/parlay/parlay-quote.service.js';
import type { LpService } from '../../areas/lp/lp.service.js';
import type { ParlayTicketsService } from '../../areas/parlay/parlay-tickets.service.js';
import { DomainError } from '../../errors.js';
import { getAddress, type Address } from 'viem';
import { ctxOf } from '../request-context.js';
import { actorOf } from './tournaments.routes.js';

const s = initServer();

export interface ParlayRouteDeps {
  readonly catalogue: ParlayCatalogueService;
  readonly quotes: ParlayQuoteService;
  readonly lp: LpService;
  readonly tickets: ParlayTicketsService;
}

/** Whose tickets a read is about: the `bettor` query, else the caller's wallets. */
function bettorsOf(req: Parameters<typeof actorOf>[0], bettor: string | undefined): readonly Address[] {
  if (bettor) return [getAddress(bettor)];
  // An admin token names no bettor: like no caller at all.
  if (req.principal?.kind !== 'user' && req.principal?.kind !== 'wallet') {
    throw new DomainError('VALIDATION_FAILED', 'Name a `bettor`, or call with a bearer token or wallet credential', {
      fieldErrors: { bettor: ['required without a bearer token or wallet credential'] },
    });
  }
  return actorOf(req).senders;
}

/** §4.17 parlays: catalogue, builders, leg checks, signed quotes, fees. */
export function parlayRoutes({ catalogue, quotes, tickets }: ParlayRouteDeps) {
  return s.router(tournamentsContract.parlay, {
    markets: async () => ({ status: 200, body: await catalogue.markets() }),
    market: async ({ params }) => ({ status: 200, body: await catalogue.market(params.marketId) }),
    playerProps: async ({ params }) => ({ status: 200, body: await catalogue.playerProps(params.marketId) }),
    sgpMenu: async ({ params }) => ({ status: 200, body: await catalogue.sgpMenu(params.marketId) }),
    conditions: async ({ query }) => ({ status: 200, body: await catalogue.conditions(query.marketId) }),
    odds: async ({ params }) => ({ status: 200, body: await catalogue.odds(params.marketId) }),
    europeanSaturday: async () => ({ status: 200, body: await catalogue.europeanSaturday() }),
    sameTeamRun: async ({ query }) => ({ status: 200, body: await catalogue.sameTeamRun(query.team) }),
    validateLegs: async ({ body, req }) => {
      actorOf(req);
      return { status: 200, body: await quotes.validateLegs(body.legs) };
    },
    quote: async ({ body, req }) => ({ status: 201, body: await quotes.quote(ctxOf(req), actorOf(req).senders, body) }),
    validateQuote: async ({ body, req }) => ({
      status: 200,
      body: await quotes.validate(
        ctxOf(req),
        actorOf(req).senders,
        body.quote as Parameters<ParlayQuoteService['validate']>[2],
        body.signature as Hex,
      ),
    }),
    getQuote: async ({ params }) => ({ status: 200, body: await quotes.get(params.quoteId) }),
    nonce: async ({ params }) => ({ status: 200, body: await quotes.nonce(params.address) }),
    feesConfig: async () => ({ status: 200, body: quotes.feesConfig() }),
    feesPreview: async ({ params }) => ({ status: 200, body: quotes.feePreview(params.amount) }),
    feesStats: async () => ({ status: 200, body: await tickets.feeStats() }),
    tickets: async ({ query, req }) => ({
      status: 200,
      body: await tickets.list(bettorsOf(req, query.bettor), query, query.status ? [query.status] : undefined),
    }),
    history: async ({ query, req }) => ({
      status: 200,
      body: await tickets.history(bettorsOf(req, query.bettor), query),
    }),
    winnings: async ({ query, req }) => ({ status: 200, body: await tickets.winnings(bettorsOf(req, query.bettor)) }),
    bettor: async ({ params, query }) => ({
      status: 200,
      body: await tickets.list([getAddress(params.address)], query),
    }),
    userStats: async ({ params }) => ({ status: 200, body: await tickets.userStats(params.address) }),
    ticket: async ({ params }) => ({ status: 200, body: await tickets.ticket(params.ticketId) }),
    status: async ({ params }) => ({ status: 200, body: await tickets.status(params.ticketId) }),
    claim: async ({ params, req }) => ({
      status: 200,
      body: await tickets.claim(ctxOf(req), actorOf(req).senders, params.ticketId),
    }),
    byId: async ({ params }) => ({ status: 200, body: await tickets.ticket(params.ticketId) }),
  });
}

/** §4.17 the liquidity pool: reads and add/remove quotes. */
export function lpRoutes({ lp, tickets }: ParlayRouteDeps) {
  return s.router(tournamentsContract.lp, {
    pool: async () => ({ status: 200, body: await lp.pool() }),
    compartments: async ({ req }) => ({ status: 200, body: await tickets.compartments(ctxOf(req).now) }),
    apy: async () => ({ status: 200, body: await lp.apy() }),
    exposureBreakdown: async () => ({ status: 200, body: await lp.exposureBreakdown() }),
    bettorExposure: async ({ params }) => ({ status: 200, body: await lp.bettorExposure(params.address) }),
    position: async ({ params }) => ({ status: 200, body: await lp.position(params.address) }),
    addLiquidityQuote: async ({ body, req }) => {
      actorOf(req);
      return { status: 200, body: await lp.addLiquidityQuote(body.amount) };
    },
    removeLiquidityQuote: async ({ body, req }) => ({
      status: 200,
      body: await lp.removeLiquidityQuote(actorOf(req).wallet, body.shares),
    }),
  });
}
