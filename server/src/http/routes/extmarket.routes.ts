import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { Request } from 'express';
import type { ExtCaller } from '../../areas/extmarket/extmarket-accounts.port.js';
import type { ExtDiscoveryService } from '../../areas/extmarket/extmarket-discovery.service.js';
import type { ExtTradingService } from '../../areas/extmarket/extmarket-trading.service.js';
import type { ExtMarketService } from '../../areas/extmarket/extmarket.service.js';
import { userOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

export interface ExtMarketServices {
  readonly accounts: ExtMarketService;
  readonly trading: ExtTradingService;
  readonly discovery: ExtDiscoveryService;
}

function callerOf(req: Pick<Request, 'tenant' | 'principal' | 'region'>): ExtCaller {
  const u = userOf(req);
  return { userId: u.userId, managedAddress: u.address };
}

/** §4.15 the external prediction-market passthrough (rules in the extmarket services). */
export function extmarketRoutes(deps: ExtMarketServices) {
  const { accounts, trading, discovery } = deps;
  const ok = <T>(body: T) => ({ status: 200 as const, body });
  return s.router(marketsContract.extmarket, {
    deriveCredentials: async ({ body, req }) => ok(await accounts.deriveCredentials(callerOf(req), body)),
    refreshCredentials: async ({ req }) => ok(await accounts.refreshCredentials(callerOf(req))),
    authStatus: async ({ req }) => ok(await accounts.authStatus(callerOf(req))),
    walletStatus: async ({ req }) => ok(await accounts.walletStatus(callerOf(req), 'deposit-wallet')),
    safeStatus: async ({ req }) => ok(await accounts.walletStatus(callerOf(req), 'safe')),
    deployWallet: async ({ req }) => ok(await accounts.deploy(ctxOf(req), callerOf(req), 'deposit-wallet')),
    deploySafe: async ({ req }) => ok(await accounts.deploy(ctxOf(req), callerOf(req), 'safe')),
    approveTrading: async ({ req }) => ok(await accounts.approveTrading(ctxOf(req), callerOf(req))),
    approvalStatus: async ({ req }) => ok(await accounts.approvalStatus(callerOf(req))),
    balance: async ({ req }) => ok(await accounts.balance(callerOf(req))),
    polygonBalances: async ({ req }) => ok(await accounts.polygonBalances(callerOf(req))),
    wrapLegacyCollateral: async ({ body, req }) =>
      ok(await accounts.wrapLegacyCollateral(ctxOf(req), callerOf(req), body)),
    deposit: async ({ req }) => ok(await accounts.deposit(callerOf(req))),
    depositStatus: async ({ params, req }) => ok(await accounts.depositStatus(callerOf(req), params.depositId)),
    withdraw: async ({ body, req }) => ok(await accounts.withdraw(ctxOf(req), callerOf(req), body)),
    withdrawClob: async ({ body, req }) => ok(await accounts.withdrawClob(ctxOf(req), callerOf(req), body)),
    recoverFunds: async ({ req }) => ok(await accounts.recoverFunds(ctxOf(req), callerOf(req))),
    redeem: async ({ body, req }) => ok(await accounts.redeem(ctxOf(req), callerOf(req), body)),
    relayerTx: async ({ params, req }) => ok(await accounts.relayerTx(callerOf(req), params.txId)),
    tickSize: async ({ query }) => ok(await trading.tickSize(query.tokenId)),
    placeOrder: async ({ body, req }) => {
      const key = req.headers['idempotency-key'];
      return ok(await trading.placeOrder(callerOf(req), body, typeof key === 'string' ? key : undefined));
    },
    cancelOrder: async ({ params, req }) => ok(await trading.cancelOrder(callerOf(req), params.orderId)),
    cancelAll: async ({ req }) => ok(await trading.cancelAll(callerOf(req))),
    orders: async ({ query, req }) => ok(await trading.orders(callerOf(req), query)),
    trades: async ({ query, req }) => ok(await trading.trades(callerOf(req), query)),
    positions: async ({ query, req }) => ok(await trading.positions(callerOf(req), query)),
    eventsByTags: async ({ query, req }) => {
      callerOf(req);
      return ok(await discovery.eventsByTags(query));
    },
    sportsMap: async ({ req }) => {
      callerOf(req);
      return ok(await discovery.sportsMap());
    },
    publicSearch: async ({ query, req }) => {
      callerOf(req);
      return ok(await discovery.publicSearch(query));
    },
    liveScores: async ({ req }) => {
      callerOf(req);
      return ok(await discovery.liveScores());
    },
    cardPrices: async ({ body, req }) => {
      callerOf(req);
      return ok(await discovery.cardPrices(body));
    },
  });
}
