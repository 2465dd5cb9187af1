import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { Container } from '../../container.js';
import { adminAuthRoutes } from './admin-auth.routes.js';
import { adminMarketRoutes } from './admin-market.routes.js';
import { leaderboardRoutes, portfolioRoutes, statsRoutes } from './analytics.routes.js';
import { authRoutes, bulkRegisterRoutes, walletRoutes } from './auth.routes.js';
import { betRoutes } from './bets.routes.js';
import { duelRoutes } from './duels.routes.js';
import { invitationRoutes } from './invitations.routes.js';
import { moneyRoutes } from './money.routes.js';
import { uploadRoutes } from './uploads.routes.js';
import { bridgeWebhookRoutes } from './bridge-webhook.routes.js';
import { referralAdminRoutes, referralRoutes } from './referrals.routes.js';
import { withdrawalAdminRoutes, withdrawalRoutes } from './withdrawals.routes.js';
import { packAdminRoutes } from './packs-admin.routes.js';
import { packRoutes } from './packs.routes.js';
import { parentMarketRoutes } from './parent-markets.routes.js';
import { parlayTournamentsAdminRoutes } from './parlay-tournaments-admin.routes.js';
import { priceHistoryRoutes } from './price-history.routes.js';
import { resolutionRoutes } from './resolution.routes.js';
import { extmarketRoutes } from './extmarket.routes.js';

const s = initServer();

/** Implementation of every markets-host route: one line per area. */
export function marketsRouter(c: Container) {
  return s.router(marketsContract, {
    auth: authRoutes(c.identity),
    wallet: walletRoutes(c.identity),
    bulkRegister: bulkRegisterRoutes(c.identity),
    protocolStats: statsRoutes(c.analytics),
    leaderboard: leaderboardRoutes(c.analytics),
    portfolio: portfolioRoutes(c.analytics),
    money: moneyRoutes(c.money),
    withdrawals: withdrawalRoutes(c.money),
    withdrawalsAdmin: withdrawalAdminRoutes(c.money),
    referrals: referralRoutes(c.money),
    referralsAdmin: referralAdminRoutes(c.money),
    bridgeWebhook: bridgeWebhookRoutes(c.money),
    uploads: uploadRoutes(c.uploads),
    priceHistory: priceHistoryRoutes(c),
    duels: duelRoutes({ duels: c.markets.duels, publicBaseUrl: c.config.markets.publicBaseUrl }),
    bets: betRoutes({ bets: c.markets.bets }),
    invitations: invitationRoutes(c.privateMarkets),
    parentMarkets: parentMarketRoutes(c.parentMarkets),
    resolution: resolutionRoutes({ resolution: c.settlement.resolution }),
    adminMarket: adminMarketRoutes(c.settlement),
    packs: packRoutes(c.packs),
    packsAdmin: packAdminRoutes(c.packs),
    parlayTournamentsAdmin: parlayTournamentsAdminRoutes(c.tournamentsAdmin.markets),
    extmarket: extmarketRoutes(c.extmarket),
    adminAuth: adminAuthRoutes({
      admins: c.identity.admins,
      loginPerEmail: c.limits.adminLoginPerEmail,
      loginPerIp: c.limits.adminLoginPerIp,
    }),
  });
}
