import { c, type RouterOf } from '../common/contract.js';
import { commonResponses } from '../common/responses.js';
import { adminAuthContract } from './admin-auth.contract.js';
import { adminMarketContract } from './admin-market.contract.js';
import { authContract } from './auth.contract.js';
import { betsContract } from './bets.contract.js';
import { bulkRegisterContract } from './bulk-register.contract.js';
import { duelsContract } from './duels.contract.js';
import { invitationsContract } from './invitations.contract.js';
import { leaderboardContract } from './leaderboard.contract.js';
import { moneyContract } from './money.contract.js';
import { uploadsContract } from './uploads.contract.js';
import { bridgeWebhookContract } from './bridge-webhook.contract.js';
import { referralsAdminContract, referralsContract } from './referrals.contract.js';
import { withdrawalsAdminContract, withdrawalsContract } from './withdrawals.contract.js';
import { packsAdminContract } from './packs-admin.contract.js';
import { packsContract } from './packs.contract.js';
import { parentMarketsContract } from './parent-markets.contract.js';
import { parlayTournamentsAdminContract } from './parlay-tournaments-admin.contract.js';
import { platformInvitesContract } from './platform-invites.contract.js';
import { platformRequestsContract } from './platform-requests.contract.js';
import { reportsContract } from './reports.contract.js';
import { portfolioContract } from './portfolio.contract.js';
import { priceHistoryContract } from './price-history.contract.js';
import { resolutionContract } from './resolution.contract.js';
import { statsContract } from './stats.contract.js';
import { walletContract } from './wallet.contract.js';
import { extmarketContract } from './extmarket.contract.js';
import { webhooksContract } from './webhooks.contract.js';
import { eventStreamContract } from './event-stream.contract.js';

/** The markets host's routers, each spec area in its own `<area>.contract.ts`. */
const marketsRouters = {
  auth: authContract,
  wallet: walletContract,
  bulkRegister: bulkRegisterContract,
  adminAuth: adminAuthContract,
  duels: duelsContract,
  bets: betsContract,
  invitations: invitationsContract,
  parentMarkets: parentMarketsContract,
  protocolStats: statsContract,
  leaderboard: leaderboardContract,
  portfolio: portfolioContract,
  money: moneyContract,
  withdrawals: withdrawalsContract,
  withdrawalsAdmin: withdrawalsAdminContract,
  referrals: referralsContract,
  referralsAdmin: referralsAdminContract,
  bridgeWebhook: bridgeWebhookContract,
  uploads: uploadsContract,
  priceHistory: priceHistoryContract,
  resolution: resolutionContract,
  adminMarket: adminMarketContract,
  packs: packsContract,
  packsAdmin: packsAdminContract,
  parlayTournamentsAdmin: parlayTournamentsAdminContract,
  platformInvites: platformInvitesContract,
  reports: reportsContract,
  requests: platformRequestsContract,
  extmarket: extmarketContract,
  webhooks: webhooksContract,
  events: eventStreamContract,
};
const marketsOptions = { commonResponses, strictStatusCodes: true } as const;

/**
 * The type of the markets host's root router, named so that declaration files refer to the area
 * routers by name: spelled out, the inferred type is longer than TypeScript will write (TS7056).
 */
export type MarketsContract = RouterOf<typeof marketsRouters, typeof marketsOptions>;

/**
 * Root router of the markets host. Each spec area lives in its own `<area>.contract.ts` and is
 * mounted here under its namespace.
 */
export const marketsContract: MarketsContract = c.router(marketsRouters, marketsOptions);
